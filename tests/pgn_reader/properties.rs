//! Property tests (random bytes, PGN-like soup, plain movetext), checks of every reported
//! position against its offset. (The reader's speed is measured in `benches/check.rs`.)

use proptest::prelude::*;
use scoresheet::pgn::{index_read, CommentKind, Pos, ReadError, Reader, SliceReader, Visitor};

use super::{read, real_games, Log};

/// Collects the position of every callback that has one; with `restart`, a game started
/// over forgets its positions so far (for the restarting readers).
#[derive(Default)]
struct Positions {
    at: Vec<Pos>,
    restart: bool,
    /// Where the current game's positions start.
    mark: usize,
}

impl Visitor for Positions {
    type Output = ();
    fn begin_game(&mut self, at: Pos) {
        if self.restart {
            self.at.truncate(self.mark);
        }
        self.at.push(at);
    }
    fn tag(&mut self, _: &[u8], _: &str, at: Pos) {
        self.at.push(at);
    }
    fn san(&mut self, _: &[u8], at: Pos) {
        self.at.push(at);
    }
    fn nag(&mut self, _: u8, at: Pos) {
        self.at.push(at);
    }
    fn comment(&mut self, _: &str, _: CommentKind, at: Pos) {
        self.at.push(at);
    }
    fn outcome(&mut self, _: Option<&str>, at: Pos) {
        self.at.push(at);
    }
    fn error(&mut self, err: ReadError) {
        self.at.push(err.pos);
    }
    fn end_game(&mut self) {
        self.mark = self.at.len();
    }
}

/// Checks every position the readers report against its offset.
fn check_positions(data: &[u8]) {
    let mut slice = Positions::default();
    let mut r = SliceReader::new(data);
    while r.read_game(&mut slice).is_some() {}
    let mut stream = Positions::default();
    let mut r = Reader::with_limits(data, 64, 1 << 20);
    while r.read_game(&mut stream).expect("io").is_some() {}
    assert_eq!(slice.at, stream.at);
    let restart = || Positions {
        restart: true,
        ..Positions::default()
    };
    let mut once = restart();
    let mut r = SliceReader::new(data);
    while r.read_game_restarting(&mut once).is_some() {}
    assert_eq!(slice.at, once.at, "restarting slice reader");
    // A small buffer makes the one-pass reader start games over, a large one rarely.
    for buffer in [64, 4096] {
        let mut once = restart();
        let mut r = Reader::with_limits(data, buffer, 1 << 20);
        while r.read_game_restarting(&mut once).expect("io").is_some() {}
        assert_eq!(
            slice.at, once.at,
            "restarting streaming reader, buffer {buffer}"
        );
    }
    // Positions come in file order (but for an unclosed variation, reported at its `(`
    // after what followed it), so once sorted one pass over the data computes them all.
    let mut sorted = slice.at;
    sorted.sort_by_key(|p| p.offset);
    let bom = if data.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let (mut k, mut line, mut column) = (bom, 1u64, 1u32);
    for at in sorted {
        let offset = at.offset as usize;
        assert!(offset >= k, "positions out of order at {offset}");
        for &b in &data[k..offset] {
            if b == b'\n' {
                (line, column) = (line + 1, 1);
            } else if b & 0xC0 != 0x80 {
                column += 1;
            }
        }
        k = offset;
        assert_eq!((at.line, at.column), (line, column), "at offset {offset}");
    }
}

#[test]
fn positions_of_real_games() {
    if let Some(data) = real_games() {
        check_positions(&data[..2_000_000]);
    }
}

/// A `Read` that hands out one byte per call, and sometimes an `Interrupted` error.
struct Trickle<'a>(&'a [u8], usize);

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.1 += 1;
        if self.1.is_multiple_of(7) {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        let Some((&first, rest)) = self.0.split_first() else {
            return Ok(0);
        };
        match out.first_mut() {
            Some(slot) => {
                *slot = first;
                self.0 = rest;
                Ok(1)
            }
            None => Ok(0),
        }
    }
}

#[test]
fn byte_by_byte_input_reads_like_a_slice() {
    let text =
        "[Event \"a\"]\n1. e4 {long comment here} e5 (2. Nf3) 1-0\n\n1. d4 *\n[Event \"b\"]\n";
    let data = text.repeat(20);
    let mut log = Log::default();
    let mut games = Vec::new();
    let mut r = Reader::with_limits(Trickle(data.as_bytes(), 0), 64, 1 << 20);
    while let Some(g) = r.read_game(&mut log).expect("interruptions are retried") {
        games.push(g);
    }
    assert_eq!(games, read(data.as_bytes()));
    assert_eq!(games.len(), 60);
    assert_eq!(
        index_read(Trickle(data.as_bytes(), 0)).expect("io").len(),
        60
    );
}

/// Words and marks PGN is made of, to build inputs that look like PGN, broken or not.
#[rustfmt::skip]
const SOUP: &[&str] = &[
    "[Event \"x\"]", "[Site \"y\"]", "[Result \"*\"]", "[", "]", "\"", "1.", "2...", "12.", "…", "e4",
    "Nf3", "exd5", "O-O", "0-0", "e8=Q+", "--", "Z0", "!?", "?", "$3", "$", "(", ")", "{c}", "{", "}",
    ";c", "%x", "1-0", "0-1", "1/2-1/2", "½-½", "*", "+-", " ", " ", " ", "\n", "\n", "\n\n", "\r\n",
    "\\", "é", "\u{feff}",
];

fn soup() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(SOUP), 0..120).prop_map(|w| w.concat().into_bytes())
}

/// A thousand cases, or as many as `PROPTEST_CASES` asks for (an explicit count in the
/// config would otherwise win over it), for a longer run by hand.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok());
    ProptestConfig::with_cases(cases.unwrap_or(1000))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_bytes_never_panic_and_agree(data in prop::collection::vec(any::<u8>(), 0..600)) {
        let games = read(&data);
        prop_assert!(games.len() <= data.len());
    }

    #[test]
    fn pgn_soup_agrees_everywhere(data in soup()) {
        read(&data);
    }

    /// Every position reported equals one computed naively from its offset.
    #[test]
    fn positions_match_offsets(data in soup()) {
        check_positions(&data);
    }

    /// Plain movetext exercises the scanner's fast path; the index's ply count
    /// must still match the reader's moves.
    #[test]
    fn plain_movetext_counts_agree(text in "[a-hNBRQKOxZ0-9.+#=!?\\- \r\n]{0,300}") {
        read(text.as_bytes());
        read(format!("1. e4 {text}").as_bytes());
    }

    /// Marks written as words of their own (`exd6 e.p.`, `Qh5 ch`) are no moves, in the
    /// index as for the reader, on the fast path and off it.
    #[test]
    fn mark_words_count_alike(
        text in "((e4|Nf3|12\\.|1\\.e4|O-O|Kh|ch|ep|e\\.p\\.|e\\.p|mate|matt|mat|dis|dbl|1\\.ch|ch!|exd6e\\.p\\.|мат)[ \n]{1,3}){0,60}"
    ) {
        read(text.as_bytes());
        read(format!("1. e4 {text}").as_bytes());
    }
}
