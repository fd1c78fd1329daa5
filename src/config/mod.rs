//! The user's configuration: a TOML file of settings and key bindings.
//!
//! The defaults are the embedded `assets/config.toml` (the default keys are declared with the
//! actions, in `app::action`); the user's file (at [`path`]) overrides only what it sets, each
//! `[keys]` entry replacing that action's keys. Unknown keys and bad
//! values are refused with a message quoting them and their line. This module knows key names
//! (crossterm's codes) but nothing of the screen.

mod error;
mod file;
pub mod keys;
mod settings;

use std::path::PathBuf;

pub use error::{ConfigError, Invalid};
pub use keys::{Key, KeyEntry, KeyParseError, KeyTable, Preset};
pub use settings::{
    BoardSettings, BoardStyle, Colors, EngineSettings, Inside, MoveNotation, NotationSettings,
    RecordingSettings, SquareSize, Theme, TrainingSettings,
};

/// The built-in configuration, every setting and action at its default.
pub const DEFAULTS: &str = include_str!("../../assets/config.toml");

/// The environment variable naming the configuration file (its full path), overriding the
/// platform location.
pub const ENV_VAR: &str = "SCORESHEET_CONFIG";

/// Where the configuration file is: `$SCORESHEET_CONFIG` if set, else `config.toml` in the
/// platform configuration directory (`~/.config/scoresheet` on Linux,
/// `~/Library/Application Support/scoresheet` on macOS, `%APPDATA%\scoresheet\config` on
/// Windows).
pub fn path() -> PathBuf {
    if let Some(path) = std::env::var_os(ENV_VAR).filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    match directories::ProjectDirs::from("", "", "scoresheet") {
        Some(dirs) => dirs.config_dir().join("config.toml"),
        // No home directory: a file in the working directory is the best guess left.
        None => PathBuf::from("scoresheet.toml"),
    }
}

/// Every setting, complete: the defaults with the user's file laid over them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// `[notation]`: piece letters and move display.
    pub notation: NotationSettings,
    /// `[board]`: how the board is drawn.
    pub board: BoardSettings,
    /// `[recording]`: autosave, timer, typing inside the game.
    pub recording: RecordingSettings,
    /// `[engine]`: the analysis pane's engine.
    pub engine: EngineSettings,
    /// `[training]`: your name in your games.
    pub training: TrainingSettings,
    /// `[keys]` as the user's file writes it (the app's keymap lays it over the
    /// default keys declared with each action).
    pub keys: KeyTable,
}

impl Config {
    /// Reads the user's file at [`path`] over the defaults. A missing file at the platform
    /// location means the defaults; a file named by [`ENV_VAR`] must exist (a typo in it
    /// would otherwise go unnoticed, the defaults silently used).
    pub fn load() -> Result<Config, ConfigError> {
        Config::load_named(std::env::var_os(ENV_VAR))
    }

    /// [`Config::load`] with the value of [`ENV_VAR`] given (`None`: not set).
    pub(crate) fn load_named(var: Option<std::ffi::OsString>) -> Result<Config, ConfigError> {
        match var.filter(|p| !p.is_empty()) {
            Some(named) => {
                let named = PathBuf::from(named);
                if !named.exists() {
                    return Err(ConfigError::Missing { path: named });
                }
                Config::load_from(&named)
            }
            None => Config::load_from(&path()),
        }
    }

    /// Reads the file at `path` over the defaults; a missing file means the defaults.
    pub fn load_from(path: &std::path::Path) -> Result<Config, ConfigError> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        // TOML is UTF-8: a file saved in another encoding is refused where it stops
        // being UTF-8, with the byte, rather than as "stream did not contain valid UTF-8".
        let text = String::from_utf8(bytes).map_err(|e| {
            let bytes = e.as_bytes();
            let good = e.utf8_error().valid_up_to();
            let valid = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
            let message = format!(
                "byte 0x{:02X} is not UTF-8 text: save the file as UTF-8 (TOML is UTF-8)",
                bytes[good]
            );
            ConfigError::at(valid, Some(good), message).in_file(path.to_path_buf())
        })?;
        let mut config = Config::from_toml_str(&text).map_err(|e| e.in_file(path.to_path_buf()))?;
        config.keys.path = Some(path.to_path_buf());
        Ok(config)
    }

    /// The defaults with the settings of `user` (the text of a configuration file) laid over.
    pub fn from_toml_str(user: &str) -> Result<Config, ConfigError> {
        let defaults = file::parse(DEFAULTS)?;
        let user = file::parse(user)?;
        file::merge(defaults, user)
    }

    /// The built-in configuration.
    pub fn defaults() -> Config {
        // The embedded file is checked by the tests; it cannot be wrong at run time.
        Config::from_toml_str("").expect("the embedded assets/config.toml is valid")
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::defaults()
    }
}

#[cfg(test)]
mod tests;
