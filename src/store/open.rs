//! What opening a path shows: `scoresheet FILE.pgn` and `:e FILE` ask [`probe`],
//! which tells a file of one game (opened at once) from a file of many (the game list)
//! and from a name with no file yet (the recorder, saving there). It reads no further
//! than the start of the second game, so deciding costs the same for a 1 GB file as
//! for a small one; the list's index is the game list's business.

use std::io;
use std::path::Path;

use super::load::{load_range_for_repair, LoadError, Loaded};
use super::packed::{self, Compression};
use crate::pgn::Indexer;

/// What is at a path, for opening it.
#[derive(Debug)]
pub enum Opened {
    /// No file by that name (in a directory that exists): record a new game, saved
    /// into it (as `--out`).
    Missing,
    /// A file without a game (empty, or only comments): record a new game, appended
    /// to it when saved.
    Empty,
    /// A file of exactly one game: the game, its slot (for `:w` into its place) and,
    /// when a move cannot be played, what was not read (open it for repair).
    One(Box<Loaded>),
    /// A file of more than one game (or whose first game is too large to read,
    /// which the list shows marked): show the game list.
    Many,
}

/// What the file at `path` holds, for opening it, and how it is packed (compressed,
/// UTF-16; `None` for plain text). Directories, pipes and devices are refused, saying
/// what they are; so is a file that cannot be read.
pub fn probe(path: &Path) -> Result<(Opened, Option<Compression>), LoadError> {
    let read_error = |source| LoadError::Read {
        path: path.to_path_buf(),
        source,
    };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // A new file, but in a directory that exists: else no save could work.
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            return match std::fs::metadata(dir) {
                Ok(meta) if meta.is_dir() => Ok((Opened::Missing, None)),
                _ => Err(read_error(e)),
            };
        }
        Err(e) => return Err(read_error(e)),
        Ok(_) => {}
    }
    let (text, packing) = packed::open_text(path).map_err(read_error)?;
    let opened = match decide(text).map_err(read_error)? {
        Decision::Empty => Opened::Empty,
        Decision::Many => Opened::Many,
        Decision::One { offset, len } => {
            Opened::One(Box::new(load_range_for_repair(path, 1, offset, len)?))
        }
    };
    Ok((opened, packing))
}

/// What a file's text holds, as far as opening it goes.
#[derive(Debug, PartialEq, Eq)]
enum Decision {
    Empty,
    One { offset: u64, len: u64 },
    Many,
}

/// Reads `text` up to the start of its second game, not through it.
fn decide(text: impl io::Read) -> io::Result<Decision> {
    let mut indexer = Indexer::new(text);
    let first = match indexer.next_game()? {
        None => return Ok(Decision::Empty),
        Some(None) => return Ok(Decision::Many),
        Some(Some(first)) => first,
    };
    Ok(match indexer.next_start()? {
        Some(_) => Decision::Many,
        None => Decision::One {
            offset: first.offset,
            len: first.len,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn probe_bytes(bytes: &[u8]) -> Result<(Opened, Option<Compression>), LoadError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.pgn");
        std::fs::write(&path, bytes).unwrap();
        probe(&path)
    }

    #[test]
    fn one_many_empty_missing() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            probe(&dir.path().join("new.pgn")),
            Ok((Opened::Missing, None))
        ));
        let msg = probe(&dir.path().join("nowhere/new.pgn"))
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("does") && msg.contains("nowhere exist?"),
            "{msg}"
        );
        assert!(matches!(probe_bytes(b""), Ok((Opened::Empty, None))));
        assert!(matches!(
            probe_bytes(b"% only a remark\n"),
            Ok((Opened::Empty, None))
        ));
        let Ok((Opened::One(one), None)) = probe_bytes(b"[White \"A\"]\n\n1. e4 e5 *\n") else {
            panic!("one game")
        };
        let (game, slot, unread) = *one;
        assert_eq!(game.tag("White"), Some("A"));
        assert_eq!((slot.offset, slot.len), (0, 23));
        assert!(unread.is_none());
        assert!(matches!(
            probe_bytes(b"1. e4 *\n\n1. d4 *\n"),
            Ok((Opened::Many, None))
        ));
    }

    /// A game with a move that cannot be played opens for repair, not refused.
    #[test]
    fn one_game_with_an_illegal_move_opens_for_repair() {
        let Ok((Opened::One(one), None)) = probe_bytes(b"\n\n1. e4 e5 2. Ke3 Nc6 *\n") else {
            panic!("one game")
        };
        let unread = one.2.expect("unread part");
        assert_eq!((unread.line, unread.token.as_str()), (3, "Ke3"));
        assert_eq!(unread.rest, "Ke3 Nc6");
        assert_eq!(one.1.offset, 2);
    }

    /// Deciding reads up to the second game, not the whole file: a second game that
    /// is never written (a pipe would block) is not waited for, and a huge rest of
    /// file is not read. Checked with a reader that fails past a point.
    #[test]
    fn deciding_stops_at_the_second_game() {
        struct Upto(io::Cursor<Vec<u8>>, u64);
        impl io::Read for Upto {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.position() >= self.1 {
                    return Err(io::Error::other("read too far"));
                }
                self.0.read(buf)
            }
        }
        let mut bytes = b"1. e4 *\n\n1. d4 *\n".to_vec();
        bytes.resize(64 << 20, b' ');
        let text = Upto(io::Cursor::new(bytes.clone()), 1 << 20);
        assert_eq!(decide(text).unwrap(), Decision::Many);
        // A big first game is read whole, but no further than the next game's start.
        let mut big = b"1. e4 {".to_vec();
        big.resize(8 << 20, b'x');
        big.extend_from_slice(b"} *\n\n1. d4 *\n");
        let at = big.len() as u64;
        big.resize(64 << 20, b' ');
        let text = Upto(io::Cursor::new(big), at + (1 << 20));
        assert_eq!(decide(text).unwrap(), Decision::Many);
        // Checked: reading the whole of it fails.
        let text = Upto(io::Cursor::new(bytes), 1 << 20);
        assert!(io::Read::bytes(text).any(|b| b.is_err()));
    }

    #[test]
    fn compressed_files_open_too() {
        let text = b"[White \"Z\"]\n\n1. c4 *\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        let Ok((Opened::One(one), Some(Compression::Gzip))) = probe_bytes(&gz.finish().unwrap())
        else {
            panic!("one gzip game")
        };
        assert_eq!(one.0.tag("White"), Some("Z"));
        assert_eq!((one.1.offset, one.1.len), (0, text.len() as u64 - 1));
    }

    #[test]
    fn utf16_files_open_too() {
        let mut bytes = vec![0xff, 0xfe];
        for unit in "[White \"Müller\"]\n\n1. e4 *\n".encode_utf16() {
            bytes.extend(unit.to_le_bytes());
        }
        let Ok((Opened::One(one), Some(Compression::Utf16))) = probe_bytes(&bytes) else {
            panic!("one UTF-16 game")
        };
        assert_eq!(one.0.tag("White"), Some("Müller"));
    }

    #[test]
    fn directories_and_pipes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let msg = probe(dir.path()).unwrap_err().to_string();
        assert!(msg.contains("a directory, not a file"), "{msg}");
        #[cfg(unix)]
        {
            let msg = probe(Path::new("/dev/null")).unwrap_err().to_string();
            assert!(msg.contains("not a file"), "{msg}");
        }
    }
}
