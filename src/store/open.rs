//! What opening a path shows: `scoresheet FILE.pgn` and `:e FILE` ask [`probe`],
//! which tells a file of one game (opened at once) from a file of many (the game list)
//! and from a name with no file yet (the recorder, saving there). It reads no further
//! than the start of the second game, so deciding costs the same for a 1 GB file as
//! for a small one; the list's index is the game list's business.
//!
//! A compressed file cut short (a download that did not finish) is read up to the cut,
//! as `list` and the game list read it: deciding never fails on the decoder's error,
//! which comes before any game when the readable part is smaller than the reader's
//! buffer. Its games open as they would from the part read; the cut is said after.

use std::io;
use std::path::Path;

use super::decompress::{Cut, UpToCut};
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
    /// when a move cannot be played, what was not read (open it for repair). With it,
    /// when the file is compressed and cut short, the decoder's error: the game is
    /// what was read before the cut (maybe not all of it), to be said so.
    One(Box<Loaded>, Option<io::Error>),
    /// A file of more than one game (or whose first game is too large to read,
    /// which the list shows marked): show the game list. When the file is cut
    /// short, the list's loader says where reading stopped, after its games.
    Many,
}

/// What the file at `path` holds, for opening it, and how it is packed (compressed,
/// UTF-16; `None` for plain text). Directories, pipes and devices are refused, saying
/// what they are; so is a file that cannot be read, and a compressed file cut short
/// before its first game ([`LoadError::Cut`]).
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
    // Only a decoder's error is a cut: a plain file's read error is the disk's.
    let (text, cut): (Box<dyn io::Read + Send>, Cut) = match packing {
        Some(_) => {
            let text = UpToCut::new(text);
            let cut = text.cut();
            (Box::new(text), cut)
        }
        None => (text, Cut::default()),
    };
    let decision = decide(text).map_err(read_error)?;
    let opened = match (decision, cut.take()) {
        (Decision::Empty, None) => Opened::Empty,
        // Recording into it would mean writing the file again from its broken text.
        (Decision::Empty, Some(source)) => {
            return Err(LoadError::Cut {
                path: path.to_path_buf(),
                source,
            })
        }
        (Decision::Many, _) => Opened::Many,
        // A game that cannot be read as far as it goes is refused as in a whole
        // file, saying the file is cut short (a cut in a comment leaves it open).
        (Decision::One { offset, len }, cut) => match load_range_for_repair(path, 1, offset, len) {
            Ok(loaded) => Opened::One(Box::new(loaded), cut),
            Err(game) => {
                return Err(match cut {
                    Some(source) => LoadError::CutGame {
                        game: Box::new(game),
                        source,
                    },
                    None => game,
                })
            }
        },
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
        let Ok((Opened::One(one, None), None)) = probe_bytes(b"[White \"A\"]\n\n1. e4 e5 *\n")
        else {
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
        let Ok((Opened::One(one, None), None)) = probe_bytes(b"\n\n1. e4 e5 2. Ke3 Nc6 *\n") else {
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
        let Ok((Opened::One(one, None), Some(Compression::Gzip))) =
            probe_bytes(&gz.finish().unwrap())
        else {
            panic!("one gzip game")
        };
        assert_eq!(one.0.tag("White"), Some("Z"));
        assert_eq!((one.1.offset, one.1.len), (0, text.len() as u64 - 1));
    }

    /// Seven short games, as a club's file holds them.
    const FEW: &str = include_str!("../../tests/data/review_club.pgn");
    /// One game of a thousand bytes, with variations and comments.
    const ONE: &str = include_str!("../../tests/data/annotated.pgn");

    /// `text` compressed as the command-line tool writes it; zstd one frame a game (as
    /// `cat a.zst b.zst` gives), since a cut frame gives nothing of its block.
    fn pack(format: Compression, text: &str) -> Vec<u8> {
        match format {
            Compression::Zstd => {
                let mut starts: Vec<usize> =
                    text.match_indices("\n[Event").map(|(i, _)| i + 1).collect();
                starts.push(text.len());
                let mut from = 0;
                let mut bytes = Vec::new();
                for to in starts {
                    bytes.extend(zstd::encode_all(&text.as_bytes()[from..to], 3).unwrap());
                    from = to;
                }
                bytes
            }
            _ => {
                let mut bytes = Vec::new();
                let mut enc = format.encoder(&mut bytes).unwrap().unwrap();
                enc.write_all(text.as_bytes()).unwrap();
                enc.finish().unwrap();
                bytes
            }
        }
    }

    /// The first 80% of `bytes`: a download that did not finish.
    fn cut(mut bytes: Vec<u8>) -> Vec<u8> {
        bytes.truncate(bytes.len() * 4 / 5);
        bytes
    }

    /// The text before the cut, as `list` reads it.
    fn readable(format: Compression, bytes: &[u8]) -> Vec<u8> {
        let mut text = Vec::new();
        let mut upto = UpToCut::new(format.decoder(bytes).unwrap());
        io::Read::read_to_end(&mut upto, &mut text).unwrap();
        assert!(upto.cut().take().is_some(), "{format:?}: cut");
        text
    }

    /// A small compressed file cut short opens as `list` reads it: its list (which says
    /// where reading stopped), and each game before the cut opens from there, even the
    /// one just before it. Once refused: the decoder's error came before any game.
    #[test]
    fn a_small_compressed_file_cut_short_opens_its_list() {
        for format in [Compression::Gzip, Compression::Xz, Compression::Zstd] {
            let bytes = cut(pack(format, FEW));
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("club.pgn");
            std::fs::write(&path, &bytes).unwrap();
            let opened = probe(&path);
            assert!(
                matches!(opened, Ok((Opened::Many, Some(f))) if f == format),
                "{format:?}: {opened:?}"
            );
            let text = readable(format, &bytes);
            let entries = crate::pgn::index(&text);
            let whole = crate::pgn::index(FEW.as_bytes());
            assert!(text.len() < FEW.len(), "{format:?}: cut");
            assert!(entries.len() >= 3, "{format:?}: {} games", entries.len());
            // The last game read whole (the one after it may be cut short), its
            // players as in the file before it was cut.
            let n = entries.len() - 1;
            let e = &entries[n - 1];
            let (game, slot, unread) = load_range_for_repair(&path, n, e.offset, e.len)
                .unwrap_or_else(|err| panic!("{format:?}: game {n}: {err}"));
            assert_eq!(game.tag("White"), Some(whole[n - 1].white()), "{format:?}");
            assert_eq!(game.tag("Black"), Some(whole[n - 1].black()), "{format:?}");
            assert_eq!(slot.offset, whole[n - 1].offset);
            assert!(unread.is_none(), "{format:?}");
        }
    }

    /// A compressed file of one game cut short opens that game, as far as it was read,
    /// with the decoder's error to say so.
    #[test]
    fn a_compressed_game_cut_short_opens_the_part_read() {
        for format in [Compression::Gzip, Compression::Xz] {
            let bytes = cut(pack(format, ONE));
            let Ok((Opened::One(one, Some(e)), Some(f))) = probe_bytes(&bytes) else {
                panic!("{format:?}: one game, cut")
            };
            assert_eq!(f, format);
            assert!(!e.to_string().is_empty());
            let (game, slot, _) = *one;
            assert_eq!(game.tag("White"), Some("Ann Example"), "{format:?}");
            assert_eq!(game.tag("Black"), Some("Bob Sample"), "{format:?}");
            let plies = game.mainline().len();
            assert!((4..35).contains(&plies), "{format:?}: {plies} plies");
            assert_eq!(
                slot.len,
                readable(format, &bytes).trim_ascii_end().len() as u64
            );
        }
    }

    /// A game cut short where it cannot be read (in a comment) is refused as a whole
    /// file's would be, saying the file is cut short.
    #[test]
    fn a_game_cut_in_a_comment_is_refused_saying_so() {
        let gz = pack(Compression::Gzip, ONE);
        let at = (20..gz.len())
            .find(|&n| {
                let mut text = Vec::new();
                let mut upto = UpToCut::new(Compression::Gzip.decoder(&gz[..n]).unwrap());
                io::Read::read_to_end(&mut upto, &mut text).unwrap();
                let text = String::from_utf8_lossy(&text);
                text.contains("{A sharp") && !text.contains("the game.}")
            })
            .expect("a cut in the first comment");
        let err = probe_bytes(&gz[..at]).unwrap_err();
        assert!(matches!(err, LoadError::CutGame { .. }), "{err}");
        let msg = err.to_string();
        assert!(msg.contains("comment not closed"), "{msg}");
        assert!(msg.contains("the file ends early, cut short ("), "{msg}");
    }

    /// Nothing readable before the cut (a zstd frame cut in its only block, a gzip file
    /// cut in its header): refused, naming the file and saying it is cut short, rather
    /// than recorded into (which would write it again from broken text).
    #[test]
    fn a_compressed_file_cut_before_its_first_game_is_refused() {
        let gz = pack(Compression::Gzip, ONE);
        for bytes in [cut(pack(Compression::Zstd, ONE)), gz[..12].to_vec()] {
            let err = probe_bytes(&bytes).unwrap_err();
            assert!(matches!(err, LoadError::Cut { .. }), "{err}");
            let msg = err.to_string();
            assert!(msg.starts_with("cannot read "), "{msg}");
            assert!(msg.contains("f.pgn: "), "{msg}");
            assert!(msg.contains("before its first game"), "{msg}");
            assert!(msg.contains("cut short"), "{msg}");
        }
    }

    #[test]
    fn utf16_files_open_too() {
        let mut bytes = vec![0xff, 0xfe];
        for unit in "[White \"Müller\"]\n\n1. e4 *\n".encode_utf16() {
            bytes.extend(unit.to_le_bytes());
        }
        let Ok((Opened::One(one, None), Some(Compression::Utf16))) = probe_bytes(&bytes) else {
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
