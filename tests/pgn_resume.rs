//! `Reader::starting_at` and `Indexer::starting_at`: started at any game boundary that
//! `next_start` reports, they read the rest of the input exactly as a read from the start
//! does (same games, numbers, lines, columns, offsets, errors, entries).

mod data_dirs;

use scoresheet::pgn::{GameEntry, Indexer, Pos, ReadError, Reader, Visitor};

/// What the reader reported for one game: where it started, its moves' positions and its
/// errors.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Seen {
    start: Option<Pos>,
    sans: Vec<(String, Pos)>,
    errors: Vec<ReadError>,
}

#[derive(Default)]
struct Log(Seen);

impl Visitor for Log {
    type Output = Seen;
    fn begin_game(&mut self, at: Pos) {
        self.0 = Seen {
            start: Some(at),
            ..Seen::default()
        };
    }
    fn san(&mut self, san: &[u8], at: Pos) {
        self.0.sans.push((String::from_utf8_lossy(san).into(), at));
    }
    fn error(&mut self, err: ReadError) {
        self.0.errors.push(err);
    }
    fn end_game(&mut self) -> Seen {
        std::mem::take(&mut self.0)
    }
}

/// Every game of a reader, with the start `next_start` gave before it.
fn read_all<R: std::io::Read>(mut reader: Reader<R>) -> Vec<(Pos, Seen)> {
    let mut out = Vec::new();
    while let Some(start) = reader.next_start().expect("read") {
        let game = reader
            .read_game_restarting(&mut Log::default())
            .expect("read")
            .expect("a game after next_start");
        out.push((start, game));
    }
    out
}

fn index_all<R: std::io::Read>(mut indexer: Indexer<R>) -> Vec<(u64, Option<GameEntry>)> {
    let mut out = Vec::new();
    while let Some(start) = indexer.next_start().expect("read") {
        let entry = indexer.next_game().expect("read").expect("a game");
        out.push((start, entry));
    }
    out
}

fn same_from_every_game(text: &[u8]) {
    let whole = read_all(Reader::new(text));
    let entries = index_all(Indexer::new(text));
    assert_eq!(whole.len(), entries.len());
    for (k, (start, _)) in whole.iter().enumerate() {
        assert_eq!(entries[k].0, start.offset);
        let history = &text[start.offset.saturating_sub(1) as usize..];
        let rest = read_all(Reader::new(history).starting_at(*start));
        assert_eq!(rest, whole[k..], "from game {}", k + 1);
        let rest = index_all(Indexer::new(history).starting_at(start.offset, start.game));
        assert_eq!(rest, entries[k..], "index from game {}", k + 1);
        let rest =
            index_all(Indexer::in_memory(text.to_vec()).starting_at(start.offset, start.game));
        assert_eq!(rest, entries[k..], "index in memory from game {}", k + 1);
    }
}

#[test]
fn starting_at_any_game_reads_the_rest_as_from_the_start() {
    same_from_every_game(
        "\u{feff}[Event \"a\"]\n\n1. e4 {c\n[Event \"fake\"]\n} e5 2. Kxx 1-0 2. d4 d5 *\n\
         %x\n[Site \"s\"]\n[Event \"late\"]\n\n1. f4 1-0 %1. e4 *\n[Event \"b\"]\n[Event \"c\"]\n\
         \n1. Nf3 ] *\r\n\r\n[Event \"Ljubojević\"]\r\n\r\n1. é4 *\n[Event \"open\"]\n1. e4 {x"
            .as_bytes(),
    );
}

#[test]
fn starting_at_any_game_of_the_awkward_files() {
    for name in [
        "illegal_move.pgn",
        "leading_comment.pgn",
        "utf8_bom.pgn",
        "no_blank_line_between_games.pgn",
        "one_line_games.pgn",
    ] {
        let text = std::fs::read(data_dirs::quirk(name)).expect("read");
        same_from_every_game(&text);
    }
}
