//! The tag sections of games at known places of a file, read again once the file has been
//! read through: the tags of the games a search found (for its result lines) and of every
//! game an index holds (for its columns). The games are asked for in file order, so the
//! file is read with positioned reads into one buffer of its own, a large window at a time,
//! and most games are already in the window when asked for.
//!
//! Not through a memory map: a user's file may be changed by other programs, and a map of a
//! file another program cuts short kills the process (SIGBUS) when it touches the lost
//! pages. Read this way, a file cut short is an error ([`cut_short`]), said once, where it
//! shows.

use std::fs::File;
use std::io;
use std::ops::Range;

use super::chunks::read_full_at;
use super::index::{ColumnPlaces, GameRef, TagsAt};
use super::reader::MAX_GAME;

/// Bytes read at a time: games a few hundred bytes apart (a search that finds most games)
/// cost one read per few hundred games, and a game found alone costs little more to read
/// than its tags.
const WINDOW: usize = 256 << 10;

/// The error of a file found shorter than it was when the reading began: another program
/// cut it short (or rewrote it) meanwhile.
pub fn cut_short() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the file was cut short while it was read (another program changed it)",
    )
}

/// Reads tag sections of a file at the offsets asked for (see the module documentation).
pub struct TagWindow<'f> {
    file: &'f File,
    /// The file's length when the window was made: no byte past it is read, and a read that
    /// ends before it finds the file cut short.
    len: u64,
    /// The window: `filled` bytes of the file from offset `at` (the rest is room).
    buf: Vec<u8>,
    at: u64,
    filled: usize,
    tags: TagsAt,
}

impl<'f> TagWindow<'f> {
    /// A window on `file`, as long as it is now.
    pub fn new(file: &'f File) -> io::Result<Self> {
        Ok(TagWindow {
            file,
            len: file.metadata()?.len(),
            buf: Vec::new(),
            at: 0,
            filled: 0,
            tags: TagsAt::default(),
        })
    }

    /// The file's length when the window was made.
    pub fn file_len(&self) -> u64 {
        self.len
    }

    /// The tags of the game that starts at `offset` (see [`TagsAt::read`]), numbered
    /// `number`, whose tag section ends by `end` at the latest (the next game's start; the
    /// file's end when it is not known). A tag section that does not end within the
    /// largest game the reader reads is cut there.
    pub fn tags(&mut self, offset: u64, end: u64, number: u64) -> io::Result<GameRef<'_>> {
        let end = end.min(self.len);
        let mut need = 0;
        let (span, ends) = loop {
            let span = self.span(offset, need, end)?;
            let bytes = &self.buf[span.clone()];
            let whole = offset + bytes.len() as u64 >= end || bytes.len() >= MAX_GAME;
            if let Some(ends) = self.tags.scan(bytes, whole) {
                break (span, ends);
            }
            need = (bytes.len() * 2).max(4 << 10);
        };
        Ok(self.tags.entry(&self.buf[span], number, ends))
    }

    /// The values of the game that starts at `offset` at the places noted while it was read
    /// (see [`ColumnPlaces::raw`]); `None` when they lie past the file's end.
    pub fn raw(&mut self, offset: u64, places: &ColumnPlaces) -> io::Result<Option<[&[u8]; 6]>> {
        let span = self.span(offset, places.end(), self.len)?;
        Ok(places.raw(&self.buf[span]))
    }

    /// Where in the window the bytes of the file from `offset` to the window's end (`end`
    /// at most) lie, at least `need` of them when the file has them: read into the window
    /// first unless it holds them already.
    fn span(&mut self, offset: u64, need: usize, end: u64) -> io::Result<Range<usize>> {
        let window_end = self.at + self.filled as u64;
        let wanted = offset.saturating_add(need as u64).min(self.len);
        if offset < self.at || offset > window_end || wanted > window_end {
            self.fill(offset, need)?;
        }
        let to = end.clamp(offset, self.at + self.filled as u64);
        Ok((offset - self.at) as usize..(to - self.at) as usize)
    }

    /// Reads the window from `offset` on: `need` bytes or more (a [`WINDOW`]), as far as
    /// the file's length allows.
    fn fill(&mut self, offset: u64, need: usize) -> io::Result<()> {
        let size = need
            .max(WINDOW)
            .min(usize::try_from(self.len.saturating_sub(offset)).unwrap_or(usize::MAX));
        if self.buf.len() < size {
            self.buf.resize(size, 0);
        }
        // Read first, noted after: a failed read leaves no window.
        self.filled = 0;
        let n = read_full_at(self.file, &mut self.buf[..size], offset)?;
        (self.at, self.filled) = (offset, n);
        if n < size {
            return Err(cut_short());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A file of `games` games of a few hundred bytes each: where each starts.
    fn games_file(games: usize) -> (tempfile::NamedTempFile, Vec<u64>, Vec<u8>) {
        let mut text = Vec::new();
        let mut offsets = Vec::new();
        for g in 0..games {
            offsets.push(text.len() as u64);
            let moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ".repeat(g % 40);
            write!(
                text,
                "[Event \"E{g}\"]\n[White \"W{g}\"]\n[Black \"B{g}\"]\n\n{moves}*\n\n"
            )
            .expect("in memory");
        }
        let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
        file.write_all(&text).expect("written");
        (file, offsets, text)
    }

    /// Every game's tags read through the window are those read from the whole file in
    /// memory, whatever the distance between the games asked for (within a window, across
    /// its end, past it).
    #[test]
    fn tags_read_through_the_window_are_those_read_from_memory() {
        let (file, offsets, text) = games_file(3000);
        assert!(text.len() > 2 * WINDOW, "the games span several windows");
        for step in [1, 7, 500] {
            let mut window = TagWindow::new(file.as_file()).expect("opened");
            let mut tags = TagsAt::default();
            for (i, &offset) in offsets.iter().enumerate().step_by(step) {
                let next = offsets.get(i + 1).copied().unwrap_or(window.file_len());
                let e = window.tags(offset, next, i as u64 + 1).expect("read");
                let got = e.list_columns().map(str::to_string);
                let want = tags.read(&text[offset as usize..], i as u64 + 1);
                assert_eq!(got, want.list_columns().map(str::to_string), "game {i}");
                assert_eq!(got[0], format!("W{i}"));
            }
        }
    }

    /// A file cut short after the window was made is an error, never a fault, and the
    /// games before the cut are still read.
    #[test]
    fn a_file_cut_short_is_an_error() {
        let (file, offsets, _) = games_file(3000);
        let mut window = TagWindow::new(file.as_file()).expect("opened");
        let len = window.file_len();
        assert!(window.tags(offsets[0], offsets[1], 1).is_ok());
        file.as_file().set_len(len / 2).expect("cut short");
        let last = *offsets.last().expect("games");
        let e = window.tags(last, len, 3000).expect_err("an error");
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        assert!(e.to_string().contains("cut short"), "{e}");
        assert!(window.tags(offsets[1], offsets[2], 2).is_ok());
    }
}
