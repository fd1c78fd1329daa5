//! The result lines of `search`: `list`'s columns and the ply. Answered from an index, the
//! columns are the index's own (see [`crate::study::index::columns`]); answered by reading
//! the file through, the tags of each game found are read again from the file, at the
//! places the reading noted (see [`crate::pgn::ColumnPlaces`]).

use std::fs::File;
use std::io::{self, Write};

use crate::pgn::tag_window::TagWindow;
use crate::pgn::ColumnPlaces;
use crate::study::follow::Tags;
use crate::study::index::columns::{Columns, FIELDS};
use crate::study::index::{Damage, Hit};

/// Bytes of lines gathered before they are written.
pub const BATCH: usize = 64 << 10;

/// Writes the line of each game the index found, from the columns it keeps (the file
/// itself is not read). Each distinct value is put in `list`'s form once, then copied.
pub fn write_hits(
    out: &mut impl Write,
    file: Option<&str>,
    columns: &Columns,
    hits: &[Hit],
) -> io::Result<()> {
    let damaged = |e: Damage| io::Error::other(format!("the index: {e}"));
    let file = prefix(file);
    // Each field's values as the line shows them, by id: where in `shown` (unset: not
    // shown yet).
    const UNSET: (u32, u32) = (u32::MAX, 0);
    let mut memo: Vec<Vec<(u32, u32)>> = (0..FIELDS)
        .map(|f| vec![UNSET; columns.values(f)])
        .collect();
    let mut shown = Vec::new();
    let mut buf = Vec::with_capacity(BATCH + 1024);
    let mut digits = itoa::Buffer::new();
    for h in hits {
        let game = u32::try_from(h.game.number - 1).unwrap_or(u32::MAX);
        let ids = columns.ids(game).map_err(damaged)?;
        buf.extend_from_slice(&file);
        buf.extend_from_slice(digits.format(h.game.number).as_bytes());
        for (f, &id) in ids.iter().enumerate() {
            let slot = memo[f]
                .get_mut(id as usize)
                .ok_or_else(|| damaged(Damage::Length))?;
            if *slot == UNSET {
                let start = shown.len();
                push_field(&mut shown, columns.value(f, id).map_err(damaged)?);
                *slot = (start as u32, (shown.len() - start) as u32);
            }
            let (start, len) = (slot.0 as usize, slot.1 as usize);
            buf.push(b'\t');
            buf.extend_from_slice(&shown[start..start + len]);
        }
        buf.push(b'\t');
        buf.extend_from_slice(digits.format(h.game.plies).as_bytes());
        buf.push(b'\t');
        buf.extend_from_slice(digits.format(h.ply).as_bytes());
        buf.push(b'\n');
        if buf.len() >= BATCH {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// The tags of the games a search found by reading a file through, read again from the
/// file at their offsets (in file order, a window at a time: see [`TagWindow`]) to write
/// their lines.
pub struct Reread<'f>(TagWindow<'f>);

impl<'f> Reread<'f> {
    /// The tags of the games of `file`, as long as it is now.
    pub fn of(file: &'f File) -> io::Result<Self> {
        TagWindow::new(file).map(Reread)
    }

    /// The file's length when it was opened (see [`TagWindow::file_len`]).
    pub fn file_len(&self) -> u64 {
        self.0.file_len()
    }

    /// Adds the result line of a game found (see [`push_row`]), its tags read from the
    /// file: as written at the places noted while reading it, when they need neither
    /// decoding nor escaping (most do not); else from its tag section, as `list` reads
    /// them. Its tag section ends where its movetext (or the next game, as the reader finds
    /// games) starts: the bytes after it need not be bounded. An error when the file was
    /// cut short meanwhile.
    pub fn push_line(&mut self, buf: &mut Vec<u8>, file: &[u8], game: &Found) -> io::Result<()> {
        let window = &mut self.0;
        if let Some(places) = &game.places {
            let raw = window.raw(game.offset, places)?;
            if let Some(values) = raw.filter(|values| values.iter().all(|v| plain(v))) {
                row_start(buf, file, game.number);
                for value in values {
                    buf.push(b'\t');
                    match value {
                        [] => buf.push(b'?'),
                        shown => buf.extend_from_slice(shown),
                    }
                }
                row_end(buf, game.plies, game.ply);
                return Ok(());
            }
        }
        let end = window.file_len();
        let e = window.tags(game.offset, end, game.number)?;
        let [white, black, result, date, event, eco] = e.list_columns();
        push_row(
            buf,
            file,
            game.number,
            [white, black, result, date, event],
            eco,
            game.plies,
            game.ply,
        );
        Ok(())
    }
}

/// Whether a tag value as written is shown as it is: printable ASCII (nothing to decode,
/// no tab, line feed or escape character to escape for the columns) without a backslash
/// (no PGN escape to undo). Checked branch-free over the bytes: cheaper than an early exit
/// on values this short.
fn plain(raw: &[u8]) -> bool {
    !raw.iter().fold(false, |seen, &b| {
        seen | !(0x20..0x7f).contains(&b) | (b == b'\\')
    })
}

/// A game a search found by reading a file through, to write its line.
pub struct Found {
    /// Where it starts in the file.
    pub offset: u64,
    /// Its number.
    pub number: u64,
    /// Its plies.
    pub plies: u32,
    /// The ply at which it reaches the position.
    pub ply: u32,
    /// Where its tags' values lie, when the reading noted them.
    pub places: Option<ColumnPlaces>,
}

/// Adds a tag's value as `list` shows it: `?` when empty; escaped when it holds a tab, a
/// line feed or an escape character (which would break the columns). Only a value with a
/// byte outside printable ASCII can hold one (checked branch-free over the bytes:
/// cheaper than an early exit on values this short).
fn push_field(buf: &mut Vec<u8>, field: &str) {
    let unusual = field
        .bytes()
        .fold(false, |seen, b| seen | !(0x20..0x7f).contains(&b));
    match unusual.then(|| crate::message::escaped(field)).flatten() {
        Some(escaped) => buf.extend_from_slice(escaped.as_bytes()),
        None if field.is_empty() => buf.push(b'?'),
        None => buf.extend_from_slice(field.as_bytes()),
    }
}

/// What starts each line: the file's name and a tab when there are several files (`file`),
/// else nothing.
pub fn prefix(file: Option<&str>) -> Vec<u8> {
    file.map_or(Vec::new(), |f| {
        format!("{}\t", crate::message::shown(f)).into_bytes()
    })
}

/// Adds one result line for a game with these tags (see [`push_row`]), after `file` (a
/// [`prefix`]).
pub fn push_tags(buf: &mut Vec<u8>, file: &[u8], number: u64, tags: &Tags, plies: u32, ply: u32) {
    let fields = [
        tags.white.as_str(),
        &tags.black,
        &tags.result,
        &tags.date,
        &tags.event,
    ];
    push_row(buf, file, number, fields, &tags.eco, plies, ply);
}

/// Adds one result line: `list`'s columns (number, White, Black, result, date, event, ECO,
/// plies), then the ply at which the game reaches the position; after `file` (a
/// [`prefix`]). Put together by hand: the formatting machinery cost more than reading the
/// tags.
fn push_row(
    buf: &mut Vec<u8>,
    file: &[u8],
    number: u64,
    fields: [&str; 5],
    eco: &str,
    plies: u32,
    ply: u32,
) {
    row_start(buf, file, number);
    for field in fields.into_iter().chain([eco]) {
        buf.push(b'\t');
        push_field(buf, field);
    }
    row_end(buf, plies, ply);
}

/// Adds what starts a result line: `file` (a [`prefix`]) and the game's number.
fn row_start(buf: &mut Vec<u8>, file: &[u8], number: u64) {
    buf.extend_from_slice(file);
    buf.extend_from_slice(itoa::Buffer::new().format(number).as_bytes());
}

/// Adds what ends a result line, after the tags' columns: the plies, and the ply at which
/// the game reaches the position.
fn row_end(buf: &mut Vec<u8>, plies: u32, ply: u32) {
    let mut digits = itoa::Buffer::new();
    buf.push(b'\t');
    buf.extend_from_slice(digits.format(plies).as_bytes());
    buf.push(b'\t');
    buf.extend_from_slice(digits.format(ply).as_bytes());
    buf.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::SliceReader;
    use crate::study::follow::{Follow, TagsRead};

    /// The line of each game read at the places its tags were noted is the line read from
    /// its tag section: on the files with awkward tag sections the reading of tags is
    /// tested on (comments and `%` lines in them, escapes, Latin-1, games without an Event,
    /// no blank line between games) and on tags of our own (a tab, a repeated tag, an
    /// empty value, a bad tag, several on a line, a game of tags only).
    #[test]
    fn lines_read_at_the_places_noted_are_those_read_from_the_tag_sections() {
        let mut files = crate::pgn::index::tests::awkward_tag_files();
        files.push(
            b"[White \"x\ty\"]\n[Black \"\"]\n[White \"again\"]\n\n1. e4 e5 *\n\n\
              [Date \"2020.01.02\"] [Event \"E\"] [Result \"1-0\"] [ECO \"C20\"]\n1. e4 1-0\n\n\
              [White \"a\"]\n[Black b]\n[Event \"e\"]\n\n1. e4 *\n\n[Date \"?\"]"
                .to_vec(),
        );
        let lang = crate::notation::Lang::english();
        let (mut games, mut placed) = (0, 0);
        for bytes in &files {
            let mut pgn = tempfile::NamedTempFile::new().expect("a temporary file");
            pgn.write_all(bytes).expect("written");
            let mut rows = Reread::of(pgn.as_file()).expect("opened");
            let mut reader = SliceReader::new(bytes);
            let mut f = Follow::new(lang, None, false).reading_tags(TagsRead::Places);
            while let Some(w) = reader.read_game_restarting(&mut f) {
                let mut game = Found {
                    offset: w.read.start.offset,
                    number: w.read.number,
                    plies: w.plies,
                    ply: 0,
                    places: w.places,
                };
                let (mut noted, mut read) = (Vec::new(), Vec::new());
                rows.push_line(&mut noted, b"", &game).expect("read");
                game.places = None;
                rows.push_line(&mut read, b"", &game).expect("read");
                assert_eq!(
                    String::from_utf8_lossy(&noted),
                    String::from_utf8_lossy(&read),
                    "game {}",
                    game.number
                );
                games += 1;
                placed += usize::from(w.places.is_some());
            }
        }
        // Most games' lines come from the places (the others' tag sections did not end as
        // they should, or they have no movetext).
        assert!(games > 60 && placed * 10 > games * 9, "{placed} of {games}");
    }

    /// A search whose file another program cuts short once the games were found (before
    /// their lines are written): the lines of the games before the cut come out as the
    /// whole file gave them, then an error says the file was cut short. Read through a
    /// memory map, the lost pages killed the process instead (SIGBUS).
    #[test]
    fn a_file_cut_short_after_the_games_were_found_is_an_error_not_a_fault() {
        let mut text = Vec::new();
        for g in 0..20_000 {
            write!(
                text,
                "[Event \"Club {g}\"]\n[White \"W{g}\"]\n[Black \"B{g}\"]\n\
                 [Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
            )
            .expect("in memory");
        }
        let mut pgn = tempfile::NamedTempFile::new().expect("a temporary file");
        pgn.write_all(&text).expect("written");
        let lang = crate::notation::Lang::english();
        let mut reader = SliceReader::new(&text);
        let mut f = Follow::new(lang, None, false).reading_tags(TagsRead::Places);
        let found: Vec<Found> = std::iter::from_fn(|| reader.read_game_restarting(&mut f))
            .map(|w| Found {
                offset: w.read.start.offset,
                number: w.read.number,
                plies: w.plies,
                ply: 1,
                places: w.places,
            })
            .collect();
        assert_eq!(found.len(), 20_000);
        let mut whole = Reread::of(pgn.as_file()).expect("opened");
        let lines: Vec<Vec<u8>> = found
            .iter()
            .map(|game| {
                let mut line = Vec::new();
                whole.push_line(&mut line, b"", game).expect("read");
                line
            })
            .collect();
        assert_eq!(lines[0], b"1\tW0\tB0\t1-0\t?\tClub 0\t?\t3\t1\n");

        // The search opens the file before reading it through; the file is cut short
        // after the games were found.
        let mut rows = Reread::of(pgn.as_file()).expect("opened");
        pgn.as_file()
            .set_len(text.len() as u64 / 2)
            .expect("cut short");
        let mut written = 0;
        let error = found.iter().find_map(|game| {
            let mut line = Vec::new();
            match rows.push_line(&mut line, b"", game) {
                Ok(()) => {
                    assert_eq!(line, lines[written], "game {}", game.number);
                    written += 1;
                    None
                }
                Err(e) => Some(e),
            }
        });
        let error = error.expect("an error once the lines reach the cut");
        assert!(
            error.to_string().contains("cut short"),
            "the error says why: {error}"
        );
        assert!(written > 1000 && written < 10_000, "{written} lines");
    }
}
