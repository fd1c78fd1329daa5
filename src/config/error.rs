//! The configuration's one error type: where (file, line, column) and what, quoting the bad
//! key or value.

use std::fmt;
use std::path::PathBuf;

/// A configuration file that could not be read or was refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The configuration file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file named by the environment variable does not exist.
    #[error(
        "cannot read {}: no such file (it is named by {}; unset it to use the defaults)",
        path.display(),
        super::ENV_VAR
    )]
    Missing {
        /// The file named.
        path: PathBuf,
    },
    /// The file was read but is not valid TOML or not a valid configuration.
    #[error("{0}")]
    Invalid(Invalid),
}

/// What is wrong with a configuration text, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The file, when the text came from one.
    pub path: Option<PathBuf>,
    /// 1-based line and column (in characters) of the bad key or value, when known.
    pub position: Option<(usize, usize)>,
    /// What is wrong, quoting the bad key and/or value.
    pub message: String,
}

impl ConfigError {
    /// The message without the location: `unknown key "colour" in [board]: ...`.
    pub fn message(&self) -> String {
        match self {
            ConfigError::Read { source, .. } => source.to_string(),
            ConfigError::Missing { .. } => "no such file".to_string(),
            ConfigError::Invalid(invalid) => invalid.message.clone(),
        }
    }

    /// 1-based line and column of the problem, when known.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            ConfigError::Read { .. } | ConfigError::Missing { .. } => None,
            ConfigError::Invalid(invalid) => invalid.position,
        }
    }

    /// The same error, said to be in `path`.
    pub(crate) fn in_file(self, path: PathBuf) -> ConfigError {
        match self {
            ConfigError::Invalid(invalid) => ConfigError::Invalid(Invalid {
                path: Some(path),
                ..invalid
            }),
            read => read,
        }
    }

    /// An error at a byte offset of `text`.
    pub(crate) fn at(text: &str, offset: Option<usize>, message: String) -> ConfigError {
        ConfigError::Invalid(Invalid {
            path: None,
            position: offset.map(|o| line_col(text, o)),
            message,
        })
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(path) => write!(f, "{}", path.display())?,
            None => f.write_str("configuration")?,
        }
        if let Some((line, col)) = self.position {
            write!(f, ":{line}:{col}")?;
        }
        // The message quotes values from the file: shown safe, whatever they hold.
        write!(f, ": {}", crate::message::safe(&self.message))
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::line_col;

    #[test]
    fn line_col_counts_from_one_in_characters() {
        assert_eq!(line_col("abc", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é\nxé=", 6), (2, 3));
        assert_eq!(line_col("é\nxé=", 5), (2, 2));
        assert_eq!(line_col("ab", 99), (1, 3));
    }
}
