//! Cutting a stream of PGN into blocks of whole games, for checking blocks on
//! several threads (`check --jobs` on a pipe; a regular file is split without
//! scanning, by guesses checked afterwards, in `pgn::chunks`). The cut points are found by the same scanner the reader uses,
//! so a block read on its own gives exactly the games the whole file gives (a
//! `[Event` line inside a comment is never taken for a new game).

use super::boundary::{scan_game, seek_game, NoTags};

/// The end of the last complete game in `buf` that ends at a line start, reading
/// from `buf`'s start (which must be a point where a game may begin). With `eof`,
/// the whole buffer. 0 when no complete game fits.
pub fn whole_games_end(buf: &[u8], eof: bool) -> usize {
    if eof {
        return buf.len();
    }
    let (mut i, mut cut) = (0, 0);
    loop {
        let start = match seek_game(buf, i, false) {
            Ok(Some(s)) => s,
            Ok(None) | Err(_) => return cut,
        };
        match scan_game(buf, start, false, &mut NoTags) {
            Ok(span) if span.next > i => {
                i = span.next;
                // A block must start at a line start, or its columns would be off.
                if buf[i - 1] == b'\n' {
                    cut = i;
                }
            }
            _ => return cut,
        }
    }
}
