//! Properties that must hold for any input, shared by the bounded property tests of the
//! normal suite (`tests/fuzz_props.rs`) and the `cargo fuzz` targets (`fuzz/`), which run
//! them for as long as one likes. Each panics with a message when the property fails.

#![allow(dead_code)] // each user calls some of them

use scoresheet::notation::{format, read_move, Lang, Style};
use scoresheet::pgn::{
    index, read_games, write_game_to_string, Indexer, Pos, ReadError, Reader, SliceReader, Visitor,
};
use scoresheet::position::Position;

/// What a reader reported for one game.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Seen {
    start: Option<Pos>,
    sans: Vec<(Vec<u8>, Pos)>,
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
        self.0.sans.push((san.to_vec(), at));
    }
    fn error(&mut self, err: ReadError) {
        self.0.errors.push(err);
    }
    fn end_game(&mut self) -> Seen {
        std::mem::take(&mut self.0)
    }
}

/// Every game a streaming reader finds, with the start `next_start` gave before it.
fn read_all<R: std::io::Read>(mut reader: Reader<R>) -> Vec<(Pos, Seen)> {
    let mut out = Vec::new();
    while let Some(start) = reader.next_start().expect("reading memory") {
        let game = reader
            .read_game_restarting(&mut Log::default())
            .expect("reading memory")
            .expect("a game after next_start");
        out.push((start, game));
    }
    out
}

/// The game starts an indexer finds, with each game's entry offset and plies.
fn index_all<R: std::io::Read>(mut indexer: Indexer<R>) -> Vec<(u64, Option<(u64, u32)>)> {
    let mut out = Vec::new();
    while let Some(start) = indexer.next_start().expect("reading memory") {
        let entry = indexer
            .next_game()
            .expect("reading memory")
            .expect("a game");
        out.push((start, entry.map(|e| (e.offset, e.plies))));
    }
    out
}

/// The doors into a PGN text agree on its games: the slice reader, the streaming reader
/// with a tiny buffer (games straddle refills), the index, and — what the parallel
/// commands stand on — a reader or indexer started at any game start reads the rest as a
/// read from the start does.
pub fn readers_agree(data: &[u8]) {
    let mut slice = SliceReader::new(data);
    let mut from_slice = Vec::new();
    while let Some(seen) = slice.read_game(&mut Log::default()) {
        from_slice.push(seen);
    }
    let mut small = Reader::with_limits(data, 64, 1 << 20);
    let mut from_stream = Vec::new();
    while let Some(seen) = small
        .read_game(&mut Log::default())
        .expect("reading memory")
    {
        from_stream.push(seen);
    }
    assert_eq!(from_slice, from_stream, "slice reader and streaming reader");
    let whole = read_all(Reader::new(data));
    assert_eq!(
        whole.len(),
        from_slice.len(),
        "games with and without next_start"
    );
    let entries = index(data);
    assert_eq!(entries.len(), whole.len(), "index and reader: game count");
    let indexed = index_all(Indexer::new(data));
    assert_eq!(indexed.len(), whole.len(), "indexer and reader: game count");
    for (k, (start, _)) in whole.iter().enumerate() {
        assert_eq!(entries[k].offset, start.offset, "game {}: offset", k + 1);
        assert_eq!(indexed[k].0, start.offset, "game {}: start", k + 1);
    }
    // Resuming at every game start is quadratic: the first few starts are enough.
    for (k, (start, _)) in whole.iter().enumerate().take(8) {
        let history = &data[start.offset.saturating_sub(1) as usize..];
        let rest = read_all(Reader::new(history).starting_at(*start));
        assert_eq!(rest, whole[k..], "read from game {}", k + 1);
        let rest = index_all(Indexer::new(history).starting_at(start.offset, start.game));
        assert_eq!(rest, indexed[k..], "index from game {}", k + 1);
    }
}

/// Read → write → read is the identity for every game read without error, and the
/// written form is stable (writing the re-read game gives the same text).
pub fn write_read_identity(data: &[u8]) {
    for g in read_games(data) {
        if !g.errors.is_empty() {
            continue;
        }
        let text = write_game_to_string(&g.game);
        let again = read_games(text.as_bytes());
        assert_eq!(again.len(), 1, "game {} written as:\n{text}", g.number);
        let r = &again[0];
        assert!(
            r.errors.is_empty(),
            "game {}: the written game does not read: {:?}\n{text}",
            g.number,
            r.errors
        );
        assert_eq!(
            r.game.start, g.game.start,
            "game {}: start\n{text}",
            g.number
        );
        let sans = |game: &scoresheet::game::Game| -> Vec<String> {
            game.mainline()
                .iter()
                .map(|id| game.node(*id).san.clone())
                .collect()
        };
        assert_eq!(
            sans(&r.game),
            sans(&g.game),
            "game {}: moves\n{text}",
            g.number
        );
        assert_eq!(
            write_game_to_string(&r.game),
            text,
            "game {}: the written form is not stable",
            g.number
        );
    }
}

/// `convert` of any bytes loses no game and a second run loses nothing more: the output
/// holds as many games as the input, and converting it again gives the same text (but for
/// blanks: empty lines, and spaces and control characters ending a line, which the reader
/// takes for blanks; and the notes the first run wrote, `% scoresheet: game N copied as
/// written …`, whose game and line numbers the second run tells anew).
pub fn convert_stable(data: &[u8]) {
    let once = convert(data);
    assert_eq!(
        index(once.as_bytes()).len(),
        index(data).len(),
        "games in and out differ; converted:\n{once}"
    );
    let twice = convert(once.as_bytes());
    assert_eq!(
        without_notes(&twice),
        without_notes(&once),
        "a second run changed the text; first run:\n{once}"
    );
}

/// `scoresheet convert` with its defaults, from memory to text.
fn convert(data: &[u8]) -> String {
    use scoresheet::cli::convert::{convert_stream, How};
    let how = How {
        input: Lang::english(),
        options: scoresheet::pgn::WriteOptions::default(),
        fix_results: false,
        max_game: scoresheet::pgn::MAX_GAME,
        eco: None,
    };
    let mut out = Vec::new();
    let converted = convert_stream(data, &how, "fuzz", &mut out, &mut std::io::sink());
    assert!(converted.is_ok(), "reading from memory cannot fail");
    String::from_utf8(out).expect("convert writes UTF-8")
}

fn without_notes(text: &str) -> String {
    text.lines()
        .map(|l| l.trim_end_matches(|c: char| c.is_whitespace() || c.is_control()))
        .filter(|l| !l.is_empty() && !l.starts_with("% scoresheet:"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Positions where move text is tried: the start, a middlegame with both castlings,
/// an en passant and promotions possible.
fn positions() -> Vec<Position> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pP1n1ppp/8/2pP4/8/5N2/P1P2PPP/R3K2R w KQkq c6 0 12",
        "r3k2r/8/8/8/8/8/1p4p1/R3K2R b KQkq - 3 40",
    ]
    .iter()
    .map(|fen| Position::from_fen(fen).expect("a good FEN"))
    .collect()
}

/// Any text given to the notation door: no panic, and a move it reads, written in every
/// style (and in SAN in the language it was read in), reads back as the same move.
pub fn notation_reads_back(text: &str) {
    for pos in positions() {
        for lang in [Lang::english(), Lang::by_code("de").expect("German")] {
            let Ok((mv, _)) = read_move(text, &pos, lang) else {
                continue;
            };
            for style in Style::ALL {
                let written = format(&pos, mv, style, lang);
                let back = read_move(&written, &pos, lang)
                    .unwrap_or_else(|e| panic!("{text:?} -> {written:?} ({style:?}): {e}"));
                assert_eq!(back.0, mv, "{text:?} -> {written:?} ({style:?})");
            }
        }
    }
}

/// Any text given as a FEN: no panic, and a FEN it reads is written back as a FEN that
/// reads as the same position and is written the same again.
pub fn fen_round_trips(text: &str) {
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let written = pos.fen();
    let again = Position::from_fen(&written).unwrap_or_else(|e| {
        panic!("{text:?} was written as {written:?}, which does not read: {e}")
    });
    assert_eq!(again, pos, "{text:?} -> {written:?}");
    assert_eq!(
        again.fen(),
        written,
        "{text:?}: the written FEN is not stable"
    );
}

/// Characters typed on the entry line by [`app_survives`]: move letters and squares,
/// the entry line's marks, commands and their arguments.
const TYPED: &[u8] = b"NBRQKabcdefgh12345678xO0-=+#!?{}():;*/ tlrwe";

/// A sequence of keys (each byte one: a character typed, or a bindable action) through
/// the recorder's `update`: it never panics, the cursor always names a move of the game,
/// and the game as the journal records it reads back as the same game.
pub fn app_survives(keys: &[u8]) {
    use scoresheet::app::action::ACTIONS;
    use scoresheet::app::{Action, App, Settings};
    use scoresheet::game::Game;

    let mut app = App::new(Settings::default(), Game::default(), None);
    for &key in keys {
        let action = if usize::from(key) < TYPED.len() * 2 {
            Action::Type(char::from(TYPED[usize::from(key) % TYPED.len()]))
        } else {
            ACTIONS[usize::from(key) % ACTIONS.len()].action
        };
        // The effects (save, load, quit) are the event loop's: here only the state counts.
        let _ = app.update(action);
        assert!(
            usize::try_from(app.cursor.0).is_ok_and(|i| i < app.game.len()),
            "the cursor {:?} is outside the game after {action:?}",
            app.cursor
        );
        let _ = app.game.position_at(app.cursor);
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut journal =
        scoresheet::store::journal::Journal::create(dir.path(), None).expect("a journal");
    journal
        .record(&app.game, None, false, None)
        .expect("written");
    let back = scoresheet::store::recover::read_journal(journal.path())
        .expect("the journal reads")
        .expect("a game in it");
    assert_eq!(
        write_game_to_string(&back.game),
        write_game_to_string(&app.game),
        "the journal does not give the game back"
    );
}

/// Where each game starts (offset, line) and how many there are, as one streaming reader of
/// the whole text sees them: the reference the other doors are held to.
fn sequential_starts(data: &[u8]) -> Vec<(u64, u64)> {
    read_all(Reader::new(data))
        .into_iter()
        .map(|(start, _)| (start.offset, start.line))
        .collect()
}

/// The chunked parallel reader ([`scoresheet::pgn::chunks::read_file`], what `check --jobs`
/// and `list` stand on) with `work` reading each range: the games it reports, as (absolute
/// number, offset, absolute line), in the order it writes them; line 0 when `lines` is false
/// (an indexer counts none).
fn chunked_starts(
    file: &std::fs::File,
    chunk: u64,
    lines: bool,
    work: impl Fn(
            &std::fs::File,
            Pos,
            &mut scoresheet::pgn::chunks::Until,
        ) -> std::io::Result<scoresheet::pgn::chunks::Part<Vec<(u64, u64, u64)>>>
        + Sync,
) -> (u64, Vec<(u64, u64, u64)>) {
    let mut got = Vec::new();
    let games = scoresheet::pgn::chunks::read_file(file, 2, chunk, work, |part, shift, first| {
        for &(n, offset, line) in part.iter().filter(|g| g.0 >= first) {
            let line = if lines { shift.line(line) } else { 0 };
            got.push((shift.game(n), offset, line));
        }
        Ok(())
    })
    .expect("reading a temporary file");
    (games, got)
}

/// A range read as `check --jobs` reads it: a streaming reader started at `from`, asking
/// before each game whether to stop.
fn reader_range(
    file: &std::fs::File,
    from: Pos,
    until: &mut scoresheet::pgn::chunks::Until,
) -> std::io::Result<scoresheet::pgn::chunks::Part<Vec<(u64, u64, u64)>>> {
    use scoresheet::pgn::chunks::{FileAt, Part, END};
    let mut reader = Reader::new(FileAt::for_reader_at(file, from.offset)).starting_at(from);
    let (mut games, mut starts) = (Vec::new(), Vec::new());
    let stop = loop {
        match reader.next_start()? {
            Some(next) if until.stops_at(next.offset) => break next,
            Some(next) => {
                starts.push((next.offset, next.line));
                games.push((next.game, next.offset, next.line));
            }
            None => {
                break Pos {
                    offset: END,
                    game: reader.games_read() + 1,
                    ..from
                }
            }
        }
        if reader.read_game_restarting(&mut Log::default())?.is_none() {
            break Pos {
                offset: END,
                game: reader.games_read() + 1,
                ..from
            };
        }
    };
    Ok(Part {
        out: games,
        stop,
        starts,
    })
}

/// A range read as `list` reads it: an indexer started at `from`.
fn indexer_range(
    file: &std::fs::File,
    from: Pos,
    until: &mut scoresheet::pgn::chunks::Until,
) -> std::io::Result<scoresheet::pgn::chunks::Part<Vec<(u64, u64, u64)>>> {
    use scoresheet::pgn::chunks::{FileAt, Part, END};
    let mut indexer =
        Indexer::new(FileAt::for_reader_at(file, from.offset)).starting_at(from.offset, from.game);
    let (mut games, mut starts) = (Vec::new(), Vec::new());
    let stop = loop {
        let offset = match indexer.next_start()? {
            Some(next) if !until.stops_at(next) => {
                let number = indexer.next_number();
                starts.push((next, 0));
                if indexer.next_game()?.is_some() {
                    // The indexer counts no lines: the line is checked by the reader.
                    games.push((number, next, 0));
                }
                continue;
            }
            Some(next) => next,
            None => END,
        };
        break Pos {
            offset,
            game: indexer.next_number(),
            ..from
        };
    };
    Ok(Part {
        out: games,
        stop,
        starts,
    })
}

/// Pieces a text is split in at most by [`chunks_agree`].
const MAX_CHUNKS: u64 = 256;

/// The differential over game boundaries: on any bytes, the streaming reader, the chunked
/// parallel reader (over a reader and over the indexer, with chunk edges everywhere from
/// every byte to a third of the text), `check --jobs` on a file and on a stream, the index
/// and the game list's catalog all find the same games at the same offsets (and the
/// readers at the same lines), and `check`'s report is the sequential one byte for byte.
/// A text longer than [`MAX_CHUNKS`] bytes is not split at every byte.
pub fn chunks_agree(data: &[u8]) {
    use std::io::Write as _;
    let want = sequential_starts(data);
    let numbered: Vec<(u64, u64, u64)> = want
        .iter()
        .enumerate()
        .map(|(k, &(offset, line))| (k as u64 + 1, offset, line))
        .collect();
    let unlined: Vec<(u64, u64, u64)> = numbered.iter().map(|&(n, o, _)| (n, o, 0)).collect();

    let mut tmp = tempfile::NamedTempFile::new().expect("a temporary file");
    tmp.write_all(data).expect("written");
    let file = tmp.as_file();
    let len = data.len() as u64;
    // Every split point of a short text; a long one split in at most MAX_CHUNKS pieces
    // (each piece is a hand-off between threads, and a fuzzer runs this thousands of
    // times a second).
    let least = len / MAX_CHUNKS + 1;
    let mut sizes: Vec<u64> = [1, 2, 7, 64, len / 3 + 1]
        .into_iter()
        .map(|size| size.max(least))
        .collect();
    sizes.dedup();
    for chunk in sizes {
        let (games, got) = chunked_starts(file, chunk, true, reader_range);
        assert_eq!(got, numbered, "chunks of {chunk} bytes read: the games");
        assert_eq!(
            games,
            want.len() as u64,
            "chunks of {chunk} bytes read: count"
        );
        let (games, got) = chunked_starts(file, chunk, false, indexer_range);
        assert_eq!(got, unlined, "chunks of {chunk} bytes indexed: the games");
        assert_eq!(
            games,
            want.len() as u64,
            "chunks of {chunk} bytes indexed: count"
        );
    }

    let lang = scoresheet::notation::Lang::english();
    let mut sequential = Vec::new();
    let counts = scoresheet::cli::check::check_sequential(data, lang, "f", &mut sequential)
        .expect("reading memory");
    assert_eq!(counts.0, want.len() as u64, "check: count");
    for chunk in [3.max(least), 64.max(least)] {
        let mut report = Vec::new();
        let got = scoresheet::cli::parallel::check_chunks(file, 2, chunk, lang, "f", &mut report)
            .expect("reading a temporary file");
        assert_eq!(got, counts, "check in chunks of {chunk}: counts");
        assert_eq!(
            String::from_utf8_lossy(&report),
            String::from_utf8_lossy(&sequential),
            "check in chunks of {chunk}: the report"
        );
    }
    let mut report = Vec::new();
    let got = scoresheet::cli::parallel::check_stream(data, 2, lang, "f", &mut report)
        .expect("reading memory");
    assert_eq!(got, counts, "check of a stream on two threads: counts");
    assert_eq!(
        String::from_utf8_lossy(&report),
        String::from_utf8_lossy(&sequential),
        "check of a stream on two threads: the report"
    );

    let catalog = scoresheet::catalog::Catalog::read(data).expect("reading memory");
    let listed: Vec<u64> = (1..=catalog.games() as u64)
        .map(|n| catalog.game(n).expect("a listed game").offset)
        .collect();
    let offsets: Vec<u64> = want.iter().map(|s| s.0).collect();
    assert_eq!(listed, offsets, "the game list: offsets");
}
