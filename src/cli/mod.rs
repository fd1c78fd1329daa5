//! The batch commands.
