//! PGN reading and writing.
