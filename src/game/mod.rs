//! The game: a move tree with comments, NAGs and tags.
