//! The new text of a PGN file with one game put in place or added ([`Splice`]), and
//! where a game read earlier is in the file now ([`find`]). New text follows the
//! file's habits: CRLF line ends when the file uses them, Windows-1252 when the file
//! is not UTF-8 (and the game's text fits in it).
//!
//! [`replace_streaming`] puts a game in place in a plain file without holding the
//! file in memory (a 1 GB database needs no 1 GB of memory to save one game).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::SystemTime;

use super::fnv1a;
use super::packed::Compression;
use super::save::{Change, Slot};
use crate::pgn::index;

/// A file's new text: its first `keep_to` bytes, then `insert`, then its bytes from
/// `keep_from` on; the game is `insert[game]`.
pub(crate) struct Splice {
    keep_to: usize,
    insert: Vec<u8>,
    game: std::ops::Range<usize>,
    keep_from: usize,
}

impl Splice {
    /// Writes the new text, the old one being `old`.
    pub(crate) fn write(&self, old: &[u8], w: &mut dyn Write) -> io::Result<()> {
        w.write_all(&old[..self.keep_to])?;
        w.write_all(&self.insert)?;
        w.write_all(&old[self.keep_from..])
    }

    /// Where the game is in the new text.
    pub(crate) fn slot(&self) -> Slot {
        Slot {
            offset: (self.keep_to + self.game.start) as u64,
            len: self.game.len() as u64,
            digest: fnv1a(&self.insert[self.game.clone()]),
        }
    }
}

/// The file with `pgn` added at its end, after a blank line.
pub(crate) fn appended(old: &[u8], pgn: &str) -> Splice {
    let crlf = uses_crlf(old);
    let newline: &[u8] = if crlf { b"\r\n" } else { b"\n" };
    let tail = old.len() - old.trim_ascii_end().len();
    let newlines_at_end = old[old.len() - tail..]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    let mut insert = Vec::new();
    if !old.is_empty() {
        for _ in newlines_at_end.min(2)..2 {
            insert.extend_from_slice(newline);
        }
    }
    let start = insert.len();
    insert.extend_from_slice(&encode_like(old, pgn.trim_end(), crlf));
    let end = insert.len();
    let rest = &pgn[pgn.trim_end().len()..];
    insert.extend_from_slice(&encode_like(old, rest, crlf));
    Splice {
        keep_to: old.len(),
        insert,
        game: start..end,
        keep_from: old.len(),
    }
}

/// The file with `pgn` in place of the game at `at`.
pub(crate) fn replaced(old: &[u8], at: &Slot, pgn: &str) -> Splice {
    let (start, end) = (at.offset as usize, (at.offset + at.len) as usize);
    // Line ends as the game had them, else as the file has them.
    let crlf = if old[start..end].contains(&b'\n') {
        uses_crlf(&old[start..end])
    } else {
        uses_crlf(old)
    };
    let insert = encode_like(old, &keeping_escapes(&old[start..end], pgn), crlf);
    Splice {
        keep_to: start,
        game: 0..insert.len(),
        insert,
        keep_from: end,
    }
}

/// The new text `pgn` of a game whose text in the file was `old`, with the `%` escape
/// lines of the old text kept (they are the player's, or another program's, and part of
/// the game's bytes in the file): those within it before it, those after its result after
/// it, as `convert` places them. Trimmed at its end.
fn keeping_escapes<'a>(old: &[u8], pgn: &'a str) -> std::borrow::Cow<'a, str> {
    let pgn = pgn.trim_end();
    // An escape line starts a line with `%`; a `%` elsewhere (`[%clk 0:03:00]`, in most
    // games of an online file) is no reason to read the old game again.
    if old.first() != Some(&b'%') && memchr::memmem::find(old, b"\n%").is_none() {
        return pgn.into();
    }
    let mut builder = crate::pgn::GameBuilder::new(true);
    let _ = crate::pgn::SliceReader::new(old).read_game(&mut builder);
    let escapes = builder.escapes();
    if escapes.within.is_empty() && escapes.after.is_empty() {
        return pgn.into();
    }
    let mut text = String::new();
    for line in &escapes.within {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(pgn);
    if !escapes.after.is_empty() {
        text.push_str("\n\n");
        for line in &escapes.after {
            text.push_str(line);
            text.push('\n');
        }
    }
    text.truncate(text.trim_end().len());
    text.into()
}

/// Where the game of `slot` is in `file` now: at its place, or moved by edits
/// before it (found by its bytes, when they are there once); else what happened.
pub(crate) fn find(file: &[u8], slot: &Slot) -> Result<Slot, Change> {
    if slot.matches(file) {
        return Ok(*slot);
    }
    let found: Vec<Slot> = index(file)
        .into_iter()
        .filter(|e| e.len == slot.len)
        .map(|e| Slot::of(file, e.offset as usize, e.len as usize))
        .filter(|s| s.digest == slot.digest)
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] if (file.len() as u64) <= slot.offset => Err(Change::Shorter {
            size: file.len() as u64,
        }),
        [] => Err(Change::Edited),
        more => Err(Change::Copies { count: more.len() }),
    }
}

/// True when the file at `path` still holds, at `slot` (or moved by edits before
/// it), the game's bytes: a save of an unchanged game can then be skipped.
pub fn still_there(path: &Path, slot: &Slot) -> bool {
    at_slot(path, slot).unwrap_or(false)
        || super::load::read_text(path).is_ok_and(|(text, _)| find(&text, slot).is_ok())
}

/// True when the file at `path` holds the game's bytes at `slot`: only that range is
/// read (decoded up to it when the file is compressed).
fn at_slot(path: &Path, slot: &Slot) -> io::Result<bool> {
    let (mut text, format) = super::packed::open_text(path)?;
    if format.is_none() {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(slot.offset))?;
        text = Box::new(file);
    } else {
        io::copy(&mut (&mut text).take(slot.offset), &mut io::sink())?;
    }
    let mut game = Vec::new();
    text.take(slot.len).read_to_end(&mut game)?;
    Ok(game.len() as u64 == slot.len && fnv1a(&game) == slot.digest)
}

/// True when the first line end of `bytes` is CRLF.
fn uses_crlf(bytes: &[u8]) -> bool {
    memchr::memchr(b'\n', bytes).is_some_and(|i| i > 0 && bytes[i - 1] == b'\r')
}

/// `text` as bytes the way the file `like` writes: Windows-1252 when the file is not
/// UTF-8 and the text fits in it (else UTF-8; see [`crate::text`]), with CRLF line ends
/// if `crlf`.
fn encode_like(like: &[u8], text: &str, crlf: bool) -> Vec<u8> {
    encode_for(std::str::from_utf8(like).is_ok(), text, crlf)
}

/// [`encode_like`] for a file known to be UTF-8 (`utf8`) or not.
fn encode_for(utf8: bool, text: &str, crlf: bool) -> Vec<u8> {
    let encoder = crate::text::encoder_for(utf8, text);
    let mut out = Vec::with_capacity(text.len() + text.len() / 40);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
        encoder.push(line, &mut out);
    }
    out
}

/// A game put in place in a plain file whose other bytes were copied around it: what
/// whoever keeps something derived from the file (the position index) needs to carry it
/// over instead of reading the file again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spliced {
    /// The file's size and modification time before the save (while it was copied).
    pub before: (u64, SystemTime),
    /// The new file's size and modification time, as it was written (taken before it
    /// replaced the old one, so a later change by someone else shows as a difference).
    pub after: (u64, SystemTime),
    /// Where the game starts, before and after.
    pub offset: u64,
    /// The game's bytes before.
    pub old: Vec<u8>,
    /// Its bytes now.
    pub new: Vec<u8>,
}

/// The file changed while a streaming save copied it.
#[derive(Debug, thiserror::Error)]
#[error("the file changed while it was being saved")]
struct ChangedWhileCopying;

/// A file's size and modification time: what a streaming save checks did not change
/// while it copied the file.
fn stamp(file: &File) -> io::Result<(u64, Option<SystemTime>)> {
    let meta = file.metadata()?;
    Ok((meta.len(), meta.modified().ok()))
}

/// Puts `pgn` in place of the game at `slot` of the plain file `target` (in a
/// directory whose save lock the caller holds), copying the rest of the file as a
/// stream instead of holding it in memory. `Ok(None)` when that does not apply: the
/// file is missing or compressed, or the game is not at its slot (moved or changed),
/// or the file changed while it was copied; the caller then reads the whole file,
/// which finds a moved game or says what changed. With the new slot comes what changed
/// in the file, when the system gives modification times.
pub(crate) fn replace_streaming(
    target: &Path,
    slot: &Slot,
    pgn: &str,
) -> io::Result<Option<(Slot, Option<Spliced>)>> {
    let mut file = match File::open(target) {
        Ok(file) if file.metadata()?.is_file() => file,
        Ok(_) => return Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let before = stamp(&file)?;
    let mut head = Vec::new();
    (&mut file).take(1 << 16).read_to_end(&mut head)?;
    if Compression::of(&head).is_some() {
        return Ok(None);
    }
    let (Ok(start), Ok(len)) = (usize::try_from(slot.offset), usize::try_from(slot.len)) else {
        return Ok(None);
    };
    if slot.offset.saturating_add(slot.len) > before.0 {
        return Ok(None);
    }
    let mut game = vec![0; len];
    file.seek(SeekFrom::Start(slot.offset))?;
    file.read_exact(&mut game)?;
    if fnv1a(&game) != slot.digest {
        return Ok(None);
    }
    // The file's encoding decides the game's: read through once (not kept).
    file.seek(SeekFrom::Start(0))?;
    let utf8 = is_utf8(&mut file)?;
    // Line ends as the game had them, else as the file has them.
    let crlf = if game.contains(&b'\n') {
        uses_crlf(&game)
    } else {
        uses_crlf(&head)
    };
    let text = encode_for(utf8, &keeping_escapes(&game, pgn), crlf);
    let written = super::save::write_locked(target, |w| {
        file.seek(SeekFrom::Start(0))?;
        io::copy(&mut (&mut file).take(slot.offset), w)?;
        w.write_all(&text)?;
        file.seek(SeekFrom::Start(slot.offset + slot.len))?;
        io::copy(&mut file, w)?;
        if stamp(&file)? != before {
            return Err(io::Error::other(ChangedWhileCopying));
        }
        Ok(())
    });
    match written {
        Ok(meta) => {
            let new = Slot {
                offset: start as u64,
                len: text.len() as u64,
                digest: fnv1a(&text),
            };
            let spliced = match (before.1, meta.modified()) {
                (Some(was), Ok(now)) => Some(Spliced {
                    before: (before.0, was),
                    after: (meta.len(), now),
                    offset: slot.offset,
                    old: game,
                    new: text,
                }),
                _ => None,
            };
            Ok(Some((new, spliced)))
        }
        Err(e) if e.get_ref().is_some_and(|e| e.is::<ChangedWhileCopying>()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// [`replace_streaming`] for a compressed file: its text is decoded as a stream and
/// compressed again into the new file as it goes, so neither the file nor its text is
/// held in memory. The encoding of the game's text is decided by the text before it
/// and its old text (the rest is not known yet when it is written); a game is read
/// back right either way, as the reader decodes each game by itself. `Ok(None)` as
/// for [`replace_streaming`].
pub(crate) fn replace_streaming_packed(
    target: &Path,
    packing: Compression,
    slot: &Slot,
    pgn: &str,
) -> io::Result<Option<Slot>> {
    let file = File::open(target)?;
    let before = stamp(&file)?;
    let mut text = packing.decoder(&file)?;
    let mut new_slot = None;
    let gone = || io::Error::other(ChangedWhileCopying);
    let written = super::save::write_locked(target, |w| {
        let mut out = packing.encoder(w)?.ok_or(io::ErrorKind::Unsupported)?;
        let mut utf8 = Utf8::default();
        let mut head = Vec::new();
        let mut buf = vec![0; 1 << 16];
        let mut left = slot.offset;
        while left > 0 {
            let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            let n = match text.read(&mut buf[..want]) {
                Ok(0) => return Err(gone()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            utf8.feed(&buf[..n]);
            if head.len() < 1 << 16 {
                head.extend_from_slice(&buf[..n]);
            }
            out.write_all(&buf[..n])?;
            left -= n as u64;
        }
        let mut game = vec![0; usize::try_from(slot.len).map_err(|_| gone())?];
        text.read_exact(&mut game).map_err(|_| gone())?;
        if fnv1a(&game) != slot.digest {
            return Err(gone());
        }
        utf8.feed(&game);
        let crlf = if game.contains(&b'\n') {
            uses_crlf(&game)
        } else {
            uses_crlf(&head)
        };
        let new = encode_for(utf8.valid(), &keeping_escapes(&game, pgn), crlf);
        out.write_all(&new)?;
        io::copy(&mut text, &mut out)?;
        out.finish()?;
        if stamp(&file)? != before {
            return Err(gone());
        }
        new_slot = Some(Slot {
            offset: slot.offset,
            len: new.len() as u64,
            digest: fnv1a(&new),
        });
        Ok(())
    });
    match written {
        Ok(_) => Ok(new_slot),
        Err(e) if e.get_ref().is_some_and(|e| e.is::<ChangedWhileCopying>()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Checks that bytes fed piece by piece are UTF-8 (a character may be cut between
/// pieces).
#[derive(Default)]
struct Utf8 {
    /// The start of a character cut at the end of the last piece.
    pending: Vec<u8>,
    bad: bool,
}

impl Utf8 {
    fn feed(&mut self, mut piece: &[u8]) {
        if self.bad {
            return;
        }
        // Finish the character cut last time, a byte at a time.
        while !self.pending.is_empty() {
            let Some((first, rest)) = piece.split_first() else {
                return;
            };
            self.pending.push(*first);
            piece = rest;
            match std::str::from_utf8(&self.pending) {
                Ok(_) => self.pending.clear(),
                Err(e) if e.error_len().is_none() => {}
                Err(_) => {
                    self.bad = true;
                    return;
                }
            }
        }
        match std::str::from_utf8(piece) {
            Ok(_) => {}
            Err(e) if e.error_len().is_none() => {
                self.pending.extend_from_slice(&piece[e.valid_up_to()..]);
            }
            Err(_) => self.bad = true,
        }
    }

    /// True when everything fed was UTF-8 (a character cut at the very end is not).
    fn valid(&self) -> bool {
        !self.bad && self.pending.is_empty()
    }
}

/// True when what `src` gives is UTF-8, read in pieces.
pub(crate) fn is_utf8(src: &mut dyn Read) -> io::Result<bool> {
    let mut utf8 = Utf8::default();
    let mut buf = vec![0; 1 << 16];
    loop {
        match src.read(&mut buf) {
            Ok(0) => return Ok(utf8.valid()),
            Ok(n) => utf8.feed(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives its bytes one at a time: every character is cut between reads.
    struct Drip<'a>(&'a [u8]);
    impl Read for Drip<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some((first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buf[0] = *first;
            self.0 = rest;
            Ok(1)
        }
    }

    #[test]
    fn utf8_is_checked_across_pieces() {
        for (bytes, utf8) in [
            ("Müller – 丁立人 ♔".as_bytes(), true),
            (b"M\xfcller", false),
            (b"ends cut \xe4\xb8", false),
            (b"", true),
        ] {
            assert_eq!(is_utf8(&mut Drip(bytes)).unwrap(), utf8, "{bytes:?}");
            assert_eq!(is_utf8(&mut &bytes[..]).unwrap(), utf8, "{bytes:?}");
        }
        let mut long = "é".repeat(40_000).into_bytes();
        assert!(is_utf8(&mut &long[..]).unwrap());
        long.push(0xc3);
        assert!(!is_utf8(&mut &long[..]).unwrap());
    }

    /// The streamed file is the one the in-memory splice makes, in every encoding and
    /// line end; a game not at its slot is left to the whole-file way.
    #[test]
    fn streaming_writes_what_the_splice_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.pgn");
        let files: [&[u8]; 3] = [
            b"[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 *\n\n[White \"C\"]\n\n1. c4 *",
            b"[White \"A\"]\r\n\r\n1. e4 *\r\n\r\n[White \"B\"]\r\n\r\n1. d4 *\r\n",
            b"[White \"M\xfcller\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 *\n",
        ];
        let pgn = "[White \"Schön\"]\n\n1. d4 d5 *\n";
        for old in files {
            let e = &index(old)[1];
            let slot = Slot::of(old, e.offset as usize, e.len as usize);
            let splice = replaced(old, &slot, pgn);
            let mut expected = Vec::new();
            splice.write(old, &mut expected).unwrap();
            std::fs::write(&path, old).unwrap();
            let (new, spliced) = replace_streaming(&path, &slot, pgn).unwrap().unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), expected);
            assert_eq!(new, splice.slot());
            // What changed: the game's bytes at its offset, the file's sizes and times.
            let spliced = spliced.expect("the system gives modification times");
            let meta = std::fs::metadata(&path).unwrap();
            assert_eq!(spliced.after, (meta.len(), meta.modified().unwrap()));
            assert_eq!(spliced.before.0, old.len() as u64);
            let at = slot.offset as usize;
            assert_eq!(spliced.offset, slot.offset);
            assert_eq!(spliced.old, &old[at..at + slot.len as usize]);
            assert_eq!(spliced.new, &expected[at..at + new.len as usize]);
            // Not at its slot any more: not streamed, the file untouched.
            let moved = [b"\n".as_slice(), old].concat();
            std::fs::write(&path, &moved).unwrap();
            assert_eq!(replace_streaming(&path, &slot, pgn).unwrap(), None);
            assert_eq!(std::fs::read(&path).unwrap(), moved);
            // The same, compressed.
            for p in [Compression::Gzip, Compression::Zstd] {
                let pack = |text: &[u8]| {
                    let mut out = Vec::new();
                    let mut enc = p.encoder(&mut out).unwrap().unwrap();
                    enc.write_all(text).unwrap();
                    enc.finish().unwrap();
                    out
                };
                std::fs::write(&path, pack(old)).unwrap();
                let new = replace_streaming_packed(&path, p, &slot, pgn).unwrap();
                assert_eq!(new, Some(splice.slot()));
                let bytes = std::fs::read(&path).unwrap();
                assert_eq!(Compression::of(&bytes), Some(p));
                assert_eq!(p.decode(&bytes).unwrap(), expected);
                let moved = pack(&moved);
                std::fs::write(&path, &moved).unwrap();
                assert_eq!(
                    replace_streaming_packed(&path, p, &slot, pgn).unwrap(),
                    None
                );
                assert_eq!(std::fs::read(&path).unwrap(), moved);
                // A file cut short before the game.
                let short = pack(&old[..slot.offset as usize - 2]);
                std::fs::write(&path, &short).unwrap();
                assert_eq!(
                    replace_streaming_packed(&path, p, &slot, pgn).unwrap(),
                    None
                );
                assert_eq!(std::fs::read(&path).unwrap(), short);
            }
        }
    }
}
