//! How the recovery box describes an unsaved game and a journal that cannot be read.

use crate::store::recover::{Broken, Recoverable};

pub(super) fn moves(plies: usize) -> String {
    crate::plural::moves_of(plies)
}

pub(super) fn describe(rec: &Recoverable) -> String {
    let game = &rec.game;
    let tag = |name: &str| game.tag(name).unwrap_or("?").to_string();
    let target = match &rec.out {
        Some(path) => format!(" for {}", path.display()),
        None => String::new(),
    };
    let age = rec.modified.elapsed().map(|d| d.as_secs()).unwrap_or(0);
    let when = match age {
        0..=119 => format!("{age} s ago"),
        120..=7199 => format!("{} min ago", age / 60),
        _ => format!("{} h ago", age / 3600),
    };
    let line = format!(
        "{} - {} ({}), {}{target}, {when}",
        tag("White"),
        tag("Black"),
        tag("Event"),
        moves(rec.plies)
    );
    // A journal of an older version may hold control characters in a tag.
    line.chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect()
}

pub(super) fn describe_broken(b: &Broken) -> String {
    format!(
        "{}: {}. Left in place: open it in a text editor (each record line is followed by \
         the game as PGN), copy what you need, then delete it.",
        b.path.display(),
        b.reason
    )
}
