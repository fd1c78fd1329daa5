//! Integration tests for the byte-level PGN reader and the game index.
//!
//! Every input goes through doors that must agree: the slice reader, the streaming reader
//! with a tiny buffer (so games straddle refills), both again in their restarting (one-pass)
//! form, and the index (same game count, same offsets, same main-line ply count for games
//! read without error: the moves the reader reports outside variations, marks written as
//! words of their own aside).
//!
//! Property tests and position checks are in `properties`.

#[path = "data_dirs/mod.rs"]
mod data_dirs;
#[path = "pgn_reader/properties.rs"]
mod properties;

use scoresheet::notation::is_mark_word;
use scoresheet::pgn::{
    index, index_read, CommentKind, ErrorKind, Indexer, Pos, ReadError, Reader, Skip, SliceReader,
    Visitor,
};

/// What the reader reported for one game.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Game {
    events: Vec<String>,
    offset: u64,
    main_sans: u32,
    errors: Vec<ReadError>,
}

/// Records every callback as a short string.
#[derive(Default)]
struct Log {
    game: Game,
    depth: u32,
    skip_variations: bool,
    /// `begin_game` forgets the game so far, for the restarting readers.
    restart: bool,
}

impl Visitor for Log {
    type Output = Game;
    fn begin_game(&mut self, at: Pos) {
        if self.restart {
            self.game = Game::default();
        }
        self.game.offset = at.offset;
        self.depth = 0;
    }
    fn tag(&mut self, name: &[u8], value: &str, _: Pos) {
        let name = String::from_utf8_lossy(name);
        self.game.events.push(format!("tag {name}={value}"));
    }
    fn begin_movetext(&mut self) -> Skip {
        self.game.events.push("movetext".into());
        Skip(false)
    }
    fn san(&mut self, san: &[u8], _: Pos) {
        // A mark written as a word of its own (`e.p.`, `ch`) belongs to the move before.
        if self.depth == 0 && !is_mark_word(san) {
            self.game.main_sans += 1;
        }
        self.game
            .events
            .push(format!("san {}", String::from_utf8_lossy(san)));
    }
    fn nag(&mut self, nag: u8, _: Pos) {
        self.game.events.push(format!("nag {nag}"));
    }
    fn comment(&mut self, text: &str, kind: CommentKind, _: Pos) {
        self.game.events.push(match kind {
            CommentKind::Brace => format!("{{{text}}}"),
            CommentKind::Line => format!(";{text}"),
        });
    }
    fn begin_variation(&mut self, _: Pos) -> Skip {
        self.depth += 1;
        self.game.events.push("(".into());
        if self.skip_variations {
            self.depth -= 1;
        }
        Skip(self.skip_variations)
    }
    fn end_variation(&mut self, _: Pos) {
        self.depth -= 1;
        self.game.events.push(")".into());
    }
    fn outcome(&mut self, result: Option<&str>, _: Pos) {
        self.game
            .events
            .push(format!("result {}", result.unwrap_or("none")));
    }
    fn escape(&mut self, line: &str, _: Pos) {
        self.game.events.push(format!("escape {line}"));
    }
    fn error(&mut self, err: ReadError) {
        self.game.events.push(format!("error {:?}", err.reason));
        self.game.errors.push(err);
    }
    fn end_game(&mut self) -> Game {
        std::mem::take(&mut self.game)
    }
}

/// Reads `data` through all three doors, checks they agree, returns the games.
fn read(data: &[u8]) -> Vec<Game> {
    let mut log = Log::default();
    let mut r = SliceReader::new(data);
    let mut games = Vec::new();
    while let Some(g) = r.read_game(&mut log) {
        games.push(g);
    }
    let mut streamed = Vec::new();
    let mut s = Reader::with_limits(data, 64, 64 << 20);
    while let Some(g) = s
        .read_game(&mut log)
        .expect("reading from a slice cannot fail")
    {
        streamed.push(g);
    }
    assert_eq!(games, streamed, "slice and streaming readers disagree");
    let mut log = Log {
        restart: true,
        ..Log::default()
    };
    let mut once = Vec::new();
    let mut r = SliceReader::new(data);
    while let Some(g) = r.read_game_restarting(&mut log) {
        once.push(g);
    }
    assert_eq!(games, once, "restarting slice reader disagrees");
    for buffer in [64, 1 << 16] {
        let mut once = Vec::new();
        let mut s = Reader::with_limits(data, buffer, 64 << 20);
        while let Some(g) = s.read_game_restarting(&mut log).expect("no I/O error") {
            once.push(g);
        }
        assert_eq!(games, once, "restarting streaming reader disagrees");
    }
    // Reading only the tags between a game's start and the next's (as search results do)
    // gives its tags.
    let tags = |g: &Game| -> Vec<String> {
        let tag_events = g.events.iter().filter(|e| e.starts_with("tag "));
        tag_events.cloned().collect()
    };
    for (k, g) in games.iter().enumerate() {
        // (A game that starts with a `%` in the middle of a line has no tags, and read
        // from there the `%` would start an escape line.)
        if data[g.offset as usize] == b'%' {
            continue;
        }
        let end = games
            .get(k + 1)
            .map_or(data.len(), |next| next.offset as usize);
        let mut r = SliceReader::new(&data[g.offset as usize..end]);
        let only = r
            .read_tags(&mut Log::default())
            .expect("a game starts there");
        assert_eq!(tags(&only), tags(g), "the tags of the game at {}", g.offset);
    }
    let idx = index(data);
    assert_eq!(idx, index_read(data).expect("no I/O error"));
    let mut in_memory = Indexer::in_memory(data.to_vec());
    let mut mapped = Vec::new();
    while let Some(e) = in_memory.next_game_ref().expect("no I/O error") {
        mapped.extend(e.map(|e| e.to_entry()));
    }
    assert_eq!(idx, mapped, "an index in memory disagrees");
    assert_eq!(
        idx.len(),
        games.len(),
        "index and reader disagree on the game count"
    );
    for (e, g) in idx.iter().zip(&games) {
        assert_eq!(
            e.offset, g.offset,
            "game {} starts elsewhere in the index",
            e.number
        );
        if g.errors.is_empty() {
            assert_eq!(e.plies, g.main_sans, "ply count of game {}", e.number);
        }
    }
    games
}

/// The events of each game of `data`, joined with `|`.
fn events(data: &str) -> Vec<String> {
    read(data.as_bytes())
        .into_iter()
        .map(|g| g.events.join("|"))
        .collect()
}

/// One of our awkward files (`tests/data/quirks/`).
fn quirk(name: &str) -> Vec<u8> {
    let p = data_dirs::quirk(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn tags_escapes_empty_values_and_several_per_line() {
    let g = events("[Event \"A \\\"big\\\" \\\\ one\"] [Site \"\"][Round \"1\"]\n\n1. e4 *\n");
    assert_eq!(
        g,
        ["tag Event=A \"big\" \\ one|tag Site=|tag Round=1|movetext|san e4|result *"]
    );
    let g = events("[White \"Kasparov, G \"Gazza\"\"]\n1. e4 1-0");
    assert_eq!(
        g,
        ["tag White=Kasparov, G \"Gazza\"|movetext|san e4|result 1-0"]
    );
}

#[test]
fn chessbase_blank_line_inside_tags() {
    let games = read(&quirk("empty_line_in_tags.pgn"));
    assert_eq!(games.len(), 1);
    let e = &games[0].events;
    assert_eq!(e[..2], ["tag Event=Match", "tag Date=2017.12.04"]);
    assert!(games[0].errors.is_empty());
    assert_eq!(games[0].main_sans, 24);
    assert_eq!(e.last().map(String::as_str), Some("result *"));
}

#[test]
fn utf8_bom_is_skipped() {
    let games = read(&quirk("utf8_bom.pgn"));
    assert_eq!(games.len(), 2);
    assert_eq!(
        (games[0].events[0].as_str(), games[0].offset),
        ("tag Event=A", 3)
    );
    assert_eq!(games[1].events[0], "tag Event=B");
}

#[test]
fn crlf_line_endings() {
    let g = events("[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1. e4 ; note\r\ne5 {a\r\nb} 1-0\r\n\r\n");
    assert_eq!(
        g,
        ["tag Event=x|tag Site=y|movetext|san e4|; note|san e5|{a\r\nb}|result 1-0"]
    );
}

#[test]
fn latin1_text_is_decoded_byte_for_code_point() {
    let games = read(b"[White \"M\xfcller, J\xf6rg\"]\n1. e4 {caf\xe9 \xbd} *");
    assert_eq!(games[0].events[0], "tag White=Müller, Jörg");
    assert_eq!(games[0].events[3], "{café ½}");
    let idx =
        index(b"[White \"M\xfcller\"]\n[Black \"\\\"B\xe9\\\"\"] [Event \"\xc3\xa9\"]\n1. e4 *");
    assert_eq!(
        [idx[0].white(), idx[0].black(), idx[0].event()],
        ["Müller", "\"Bé\"", "é"]
    );
    // Valid UTF-8 stays UTF-8.
    let g = events("[White \"Müller\"]\n1. e4 {café} *");
    assert_eq!(g, ["tag White=Müller|movetext|san e4|{café}|result *"]);
}

#[test]
fn percent_escape_lines_are_skipped_and_handed_over() {
    let text = "% head\n[Event \"x\"]\n% in tags\n1. e4\n% in movetext { not a comment\ne5 *\n\
                % after\n{ a\n% comment line }\n";
    assert_eq!(
        events(text),
        [
            "tag Event=x|escape % in tags|movetext|san e4|escape % in movetext { not a comment|\
          san e5|result *|escape % after|{ a\n% comment line }"
        ]
    );
}

/// A file whose first line is a `%` line after a byte-order mark (as a Windows tool may
/// write it): the line is an escape line, not a game, on every reader and buffer size, and
/// is handed over without the mark.
#[test]
fn an_escape_line_after_a_byte_order_mark_is_an_escape_line() {
    let long = "x".repeat(200);
    for first in ["% exported".to_string(), format!("% {long}")] {
        let text = format!("\u{feff}{first}\n[Event \"x\"]\n1. e4 *\n\n[Event \"y\"]\n1. d4 *\n");
        assert_eq!(
            events(&text),
            [
                "tag Event=x|movetext|san e4|result *",
                "tag Event=y|movetext|san d4|result *"
            ],
            "{text:?}"
        );
        for buffer in [64, 1 << 16] {
            let mut s = Reader::with_limits(text.as_bytes(), buffer, 64 << 20);
            let mut lines = Vec::new();
            s.read_game_escaping(&mut Log::default(), &mut |l| {
                lines.push(l.to_string());
                Ok(())
            })
            .expect("no I/O error");
            assert_eq!(lines, std::slice::from_ref(&first), "buffer {buffer}");
        }
    }
}

/// Files joined together, the second beginning with a byte-order mark and a `%` line: the
/// line is an escape line wherever the streaming reader's buffer ends, even right after the
/// mark (found by fuzzing: the `%` then started a buffer and was read as a game).
#[test]
fn an_escape_line_after_a_mark_between_games_is_one_at_every_buffer_edge() {
    for pad in 0..80 {
        let text = format!(
            "[Event \"x\"]\n{{{}}} 1. e4 *\n\u{feff}% exported\n[Event \"y\"]\n1. d4 *\n",
            "c".repeat(pad)
        );
        let whole = read(text.as_bytes());
        assert_eq!(whole.len(), 2, "{text:?}");
        for buffer in 16..=text.len() {
            let mut s = Reader::with_limits(text.as_bytes(), buffer, 64 << 20);
            let mut games = 0;
            while s
                .read_game(&mut Log::default())
                .expect("no I/O error")
                .is_some()
            {
                games += 1;
            }
            assert_eq!(games, 2, "buffer {buffer}: {text:?}");
        }
    }
}

/// The `%` lines before the first game (or in a file of nothing else) reach
/// `read_game_escaping` whole and in order, the line ending left out, however small the
/// buffer; those of a game go to the visitor instead.
#[test]
fn escape_lines_outside_games_are_handed_over_whole() {
    let head: String = (1..=12)
        .map(|k| format!("% line {k}, long enough for a few refills of the buffer\n"))
        .collect();
    let file = format!("{head}\n  \r\n% crlf\r\n\n[Event \"x\"]\n1. e4 *\n% after\n\n1. d4 *\n");
    let mut want: Vec<String> = head.lines().map(str::to_string).collect();
    want.push("% crlf".into());
    for (text, want) in [
        (file.as_str(), want),
        ("% a\n\n% b", vec!["% a".into(), "% b".into()]),
    ] {
        for buffer in [64, 1 << 16] {
            let mut s = Reader::with_limits(text.as_bytes(), buffer, 64 << 20);
            let mut per_read = Vec::new();
            let mut log = Log::default();
            loop {
                let mut lines = Vec::new();
                let g = s
                    .read_game_escaping(&mut log, &mut |l| {
                        lines.push(l.to_string());
                        Ok(())
                    })
                    .expect("no I/O error");
                per_read.push(lines);
                if g.is_none() {
                    break;
                }
            }
            let games = per_read.len() - 1;
            let mut expected = vec![Vec::new(); games + 1];
            expected[0].clone_from(&want);
            assert_eq!(per_read, expected, "buffer {buffer}: {text:?}");
        }
    }
    // An error handing a line over stops the read, and is the read's.
    let mut s = Reader::new("% a\n1. e4 *\n".as_bytes());
    let err = s
        .read_game_escaping(&mut Log::default(), &mut |_| {
            Err(std::io::Error::other("full"))
        })
        .expect_err("the handler failed");
    assert_eq!(err.to_string(), "full");
}

#[test]
fn comments_are_kept_exactly() {
    let g = events("1. e4 {multi\nline ; with ( and [ and ]} e5 ; rest of line {(\n2. Nf3 *");
    let want = "movetext|san e4|{multi\nline ; with ( and [ and ]}|san e5|; rest of line {(|san Nf3|result *";
    assert_eq!(g, [want]);
}

#[test]
fn nags_glyphs_and_symbols() {
    let g = events("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! $14 4. Ba4 $255 +- *");
    let want =
        "movetext|san e4|nag 1|san e5|nag 2|san Nf3|nag 3|san Nc6|nag 4|san Bb5|nag 5|san a6|\
                nag 6|nag 14|san Ba4|nag 255|nag 18|result *";
    assert_eq!(g, [want]);
    let games = read(&quirk("nags_between_comments.pgn"));
    let want = "movetext|san c4|{ a first note }|nag 1|{ then a second }|nag 6|\
                { and a third }|result *";
    assert_eq!(games[0].events.join("|"), want);
    assert_eq!(events("1. e4 $256 *"), ["movetext|san e4|error BadNag"]);
    assert_eq!(events("1. e4!!! *"), ["movetext|san e4|error UnknownGlyph"]);
}

#[test]
fn move_numbers_in_every_spelling() {
    let g = events("1.e4 e5 2. Nf3 2... Nc6 3…Bb5 3 ... a6 12...Nf6 4 O-O 0-0 *");
    let want =
        "movetext|san e4|san e5|san Nf3|san Nc6|san Bb5|san a6|san Nf6|san O-O|san 0-0|result *";
    assert_eq!(g, [want]);
}

#[test]
fn null_moves_and_movetext_from_black() {
    let g = events("[FEN \"8/8/8/8/8/8/8/K1k5 b - - 0 1\"]\n1... Kc2 2. -- Z0 3. Ka2 *");
    let want =
        "tag FEN=8/8/8/8/8/8/8/K1k5 b - - 0 1|movetext|san Kc2|san --|san Z0|san Ka2|result *";
    assert_eq!(g, [want]);
    let games = read(&quirk("null_moves.pgn"));
    assert_eq!(games.len(), 2);
    assert!(games[1].events.contains(&"san --".to_string()));
    assert!(games.iter().all(|g| g.errors.is_empty()));
}

#[test]
fn every_result_spelling() {
    let results = [
        ("1-0", "1-0"),
        ("0-1", "0-1"),
        ("1/2-1/2", "1/2-1/2"),
        ("*", "*"),
        ("½-½", "1/2-1/2"),
    ];
    for (text, want) in results {
        assert_eq!(
            events(&format!("1. e4 {text}")),
            [format!("movetext|san e4|result {want}")]
        );
    }
}

#[test]
fn variations_nest_and_can_be_skipped() {
    let text = "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) e5 *";
    let want = "movetext|san e4|(|san d4|san d5|(|san Nf6|san c4|)|san c4|)|san e5|result *";
    assert_eq!(events(text), [want]);
    let mut log = Log {
        skip_variations: true,
        ..Log::default()
    };
    let game = SliceReader::new(text.as_bytes())
        .read_game(&mut log)
        .expect("one game");
    assert_eq!(game.events.join("|"), "movetext|san e4|(|san e5|result *");
}

#[test]
fn fifty_thousand_nested_variations_do_not_overflow() {
    let n = 50_000;
    let text = format!("1. e4 {}e5{} *", "( ".repeat(n), " )".repeat(n));
    let games = read(text.as_bytes());
    assert!(games[0].errors.is_empty());
    assert_eq!(games[0].events.iter().filter(|e| *e == "(").count(), n);
    // Never closed: reported once, at the outermost `(` left open.
    let games = read(format!("1. e4 {} *", "(e5 ".repeat(n)).as_bytes());
    assert_eq!(games[0].errors.len(), 1);
    assert_eq!(games[0].errors[0].reason, ErrorKind::UnclosedVariation);
    assert_eq!(games[0].errors[0].pos.column, 7);
    assert_eq!(games[0].errors[0].token, "(e5");
}

#[test]
fn an_unclosed_variation_ends_at_the_next_game_and_is_reported_where_it_opened() {
    let games =
        read(b"[Event \"a\"]\n1. e4 (1. d4 d5) e5 2. Nf3 (2. Nc3 1-0\n\n[Event \"b\"]\n1. c4 *\n");
    assert_eq!(games.len(), 2);
    let e = &games[0].errors[0];
    assert_eq!(e.reason, ErrorKind::UnclosedVariation);
    assert_eq!((e.pos.line, e.pos.column, e.pos.game), (2, 28, 1));
    assert_eq!(e.token, "(2.");
    assert!(games[1].errors.is_empty());
}

#[test]
fn an_unclosed_comment_ends_at_the_next_game_not_at_a_later_brace() {
    // The `}` of game 2 would close game 1's comment if nothing else ended it.
    let games = read(
        b"[Event \"a\"]\n1. e4 { e5 2. Nf3 *\n\n[Event \"b\"]\n1. d4 {x} d5 *\n\n[Event \"c\"]\n1. c4 *\n",
    );
    assert_eq!(games.len(), 3);
    let e = &games[0].errors[0];
    assert_eq!(e.reason, ErrorKind::UnterminatedComment);
    assert_eq!(
        (e.pos.line, e.pos.column, e.pos.offset, e.pos.game),
        (2, 7, 18, 1)
    );
    assert_eq!(e.token, "{ e5 2. Nf3 *");
    assert_eq!(
        games[1].events.join("|"),
        "tag Event=b|movetext|san d4|{x}|san d5|result *"
    );
    assert!(games[2].errors.is_empty());
    // Left open in the tag section, after the result, or before `%` lines and blank lines
    // with blanks in them: the same.
    for text in [
        "[Event \"a\"] {open\n\n[Event \"b\"]\n1. d4 *\n",
        "[Event \"a\"]\n1. e4 * {open\n\n[Event \"b\"]\n1. d4 *\n",
        "1. e4 {open\r\n \r\n% note\n\n% more\n[Event \"b\"]\n1. d4 *\n",
    ] {
        let games = read(text.as_bytes());
        assert_eq!(games.len(), 2, "{text:?}");
        assert_eq!(games[0].errors[0].reason, ErrorKind::UnterminatedComment);
        assert_eq!(
            games[1].events.join("|"),
            "tag Event=b|movetext|san d4|result *"
        );
    }
}

#[test]
fn a_comment_holding_blank_lines_or_brackets_is_still_one_comment() {
    // A blank line alone, or followed by a line that is no tag pair, ends nothing.
    for (text, comment) in [
        ("1. e4 { a\n\n b } e5 *", "{ a\n\n b }"),
        ("1. e4 { a\n\n[not a tag\n} e5 *", "{ a\n\n[not a tag\n}"),
        ("1. e4 { a\n[Event \"x\"]\n} e5 *", "{ a\n[Event \"x\"]\n}"),
    ] {
        let games = read(text.as_bytes());
        assert_eq!(games.len(), 1, "{text:?}");
        assert!(games[0].errors.is_empty(), "{text:?}");
        assert_eq!(
            games[0].events.join("|"),
            format!("movetext|san e4|{comment}|san e5|result *")
        );
    }
}

#[test]
fn games_without_blank_lines_or_tags() {
    let g = events("[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n1. d4 0-1\n1. c4 *\n\n1. Nf3\n");
    let want = [
        "tag Event=a|movetext|san e4|result 1-0",
        "tag Event=b|movetext|san d4|result 0-1",
        "movetext|san c4|result *",
        "movetext|san Nf3|result none", // no result at the end of the file
    ];
    assert_eq!(g, want);
}

#[test]
fn new_game_right_after_plain_movetext() {
    // The scanner's fast path must not run past a line start.
    for gap in ["\n", "\r\n", "\n ", "\r\n  \t"] {
        let text = format!("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6{gap}[Event \"b\"]\n1. d4 *");
        assert_eq!(events(&text).len(), 2, "{gap:?}");
    }
}

#[test]
fn tags_and_movetext_on_one_line() {
    let games = read(&quirk("one_line_games.pgn"));
    assert_eq!(games.len(), 9);
    assert_eq!(
        games[3].events.join("|"),
        "tag Result=1-0|movetext|san d4|result 0-1"
    );
}

#[test]
fn tag_only_games_split_on_a_second_event() {
    let g = events("[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n\n1. e4 *");
    assert_eq!(
        g,
        [
            "tag Event=a|tag Site=x|movetext|result none",
            "tag Event=b|movetext|san e4|result *"
        ]
    );
}

#[test]
fn comments_before_the_movetext_and_after_the_result() {
    let g = events("{intro} [Event \"a\"]\n{game comment}\n1. e4 1-0 {trailer}\n[Event \"b\"] *");
    let want = [
        "{intro}|tag Event=a|{game comment}|movetext|san e4|result 1-0|{trailer}",
        "tag Event=b|movetext|result *",
    ];
    assert_eq!(g, want);
}

#[test]
fn lexical_errors_abandon_only_their_game() {
    for (bad, reason, column) in [
        ("1. e4 ] e5", ErrorKind::StrayBracket, 7),
        ("1. e4 ) e5", ErrorKind::UnmatchedParen, 7),
        ("1. e4 } e5", ErrorKind::StrayBrace, 7),
        ("1. e4 e5 [Foo \"x\"]", ErrorKind::StrayBracket, 10),
    ] {
        let text = format!("[Event \"bad\"]\n{bad} *\n\n[Event \"good\"]\n1. d4 *\n");
        let games = read(text.as_bytes());
        assert_eq!(games.len(), 2, "{bad}");
        let errors: Vec<_> = games[0]
            .errors
            .iter()
            .map(|e| (e.reason, e.pos.line, e.pos.column, e.pos.game))
            .collect();
        assert_eq!(errors, [(reason, 2, column, 1)], "{bad}");
        assert_eq!(games[0].events.last(), Some(&format!("error {reason:?}")));
        assert_eq!(
            games[1].events.join("|"),
            "tag Event=good|movetext|san d4|result *"
        );
    }
    let games = read(b"[Event \"a\n[Site \"x\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].errors[0].reason, ErrorKind::BadTag);
    assert!(games[1].errors.is_empty());
    let shown = games[0].errors[0].to_string();
    assert!(
        shown.starts_with("game 1, line 1, column 1: malformed tag pair"),
        "{shown}"
    );
}

#[test]
fn unterminated_comment_is_reported_at_its_brace() {
    let games = read(b"[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 {never closed\nd5 *\n");
    assert_eq!(games.len(), 2);
    let err = &games[1].errors[0];
    assert_eq!(err.reason, ErrorKind::UnterminatedComment);
    assert_eq!(
        (err.pos.line, err.pos.column, err.pos.offset, err.pos.game),
        (5, 7, 39, 2)
    );
}

#[test]
fn huge_comment_streams_through_a_small_buffer() {
    let big = "x".repeat(2 << 20);
    let games =
        read(format!("[Event \"a\"]\n1. e4 {{{big}}} e5 *\n[Event \"b\"]\n1. d4 *").as_bytes());
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].events[3].len(), big.len() + 2);
    assert_eq!(games[1].events[2], "san d4");
}

#[test]
fn oversized_game_is_skipped_with_an_error() {
    let data = format!(
        "[Event \"a\"]\n1. e4 {{{}}} *\n[Event \"b\"]\n1. d4 *\n",
        "y".repeat(10_000)
    );
    let mut r = Reader::with_limits(data.as_bytes(), 64, 4096);
    let mut log = Log::default();
    let first = r.read_game(&mut log).expect("io").expect("a game");
    assert_eq!(
        first.errors[0].reason,
        ErrorKind::GameTooLarge { limit: 4096 }
    );
    assert_eq!(first.errors[0].token, "[Event \"a\"]");
    let second = r.read_game(&mut log).expect("io").expect("a game");
    assert_eq!(
        second.events.join("|"),
        "tag Event=b|movetext|san d4|result *"
    );
    assert!(r.read_game(&mut log).expect("io").is_none());
}

#[test]
fn the_size_limit_is_the_games_not_the_buffers() {
    // A game of 10 kB under a 4 kB limit, read through buffers large enough to hold it
    // whole (and through the index, and a slice): over the limit all the same.
    let data = format!(
        "[Event \"a\"]\n1. e4 {{{}}} *\n[Event \"b\"]\n1. d4 *\n",
        "y".repeat(10_000)
    );
    for buffer in [64, 1 << 16] {
        let mut r = Reader::with_limits(data.as_bytes(), buffer, 4096);
        let mut log = Log::default();
        let first = r.read_game(&mut log).expect("io").expect("a game");
        assert_eq!(
            first.errors.first().map(|e| e.reason),
            Some(ErrorKind::GameTooLarge { limit: 4096 }),
            "buffer {buffer}"
        );
        let second = r.read_game(&mut log).expect("io").expect("a game");
        assert_eq!(
            second.events.join("|"),
            "tag Event=b|movetext|san d4|result *"
        );
    }
}

#[test]
fn an_oversized_game_is_skipped_whole_tags_and_all_and_can_be_copied() {
    let big = format!(
        "[Event \"a\"]\n[Site \"s\"]\n[White \"w\"]\n\n1. e4 {{{}}} *",
        "y".repeat(10_000)
    );
    // The next game has no Event tag: a `[` after a blank line starts it.
    let data = format!("{big}\n\n[Site \"b\"]\n1. d4 *\n");
    for copy in [false, true] {
        let mut r = Reader::with_limits(data.as_bytes(), 64, 4096);
        let mut log = Log::default();
        let first = r.read_game(&mut log).expect("io").expect("a game");
        assert_eq!(
            first.errors[0].reason,
            ErrorKind::GameTooLarge { limit: 4096 }
        );
        if copy {
            let mut copied = Vec::new();
            r.copy_skipped(&mut |b| {
                copied.extend_from_slice(b);
                Ok(())
            })
            .expect("io");
            assert_eq!(String::from_utf8_lossy(&copied).trim_end(), big);
        }
        let second = r.read_game(&mut log).expect("io").expect("a game");
        assert_eq!(
            second.events.join("|"),
            "tag Site=b|movetext|san d4|result *"
        );
        assert!(r.read_game(&mut log).expect("io").is_none());
    }
}

#[test]
fn positions_count_lines_and_characters() {
    struct P(Vec<(String, u64, u32, u64)>);
    impl Visitor for P {
        type Output = ();
        fn tag(&mut self, name: &[u8], _: &str, at: Pos) {
            self.0.push((
                String::from_utf8_lossy(name).into(),
                at.line,
                at.column,
                at.game,
            ));
        }
        fn san(&mut self, san: &[u8], at: Pos) {
            self.0.push((
                String::from_utf8_lossy(san).into(),
                at.line,
                at.column,
                at.game,
            ));
        }
        fn end_game(&mut self) {}
    }
    let text = "[Event \"x\"]\n\n[White \"Jörg\"] 1.e4 {é} e5\n\n[Event \"y\"]\n1... Nf6 *";
    let mut p = P(Vec::new());
    let mut r = SliceReader::new(text.as_bytes());
    while r.read_game(&mut p).is_some() {}
    let got: Vec<_> =
        p.0.iter()
            .map(|(s, l, c, g)| (s.as_str(), *l, *c, *g))
            .collect();
    let want = [
        ("Event", 1, 1, 1),
        ("White", 3, 1, 1),
        ("e4", 3, 18, 1),
        ("e5", 3, 25, 1),
        ("Event", 5, 1, 2),
        ("Nf6", 6, 6, 2),
    ];
    assert_eq!(got, want);
}

#[test]
fn index_reads_the_roster_and_counts_plies() {
    let text = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.02\"]\n[Round \"3\"]\n[White \"W \\\"x\\\"\"]\n\
                [Black \"B\"]\n[Result \"1-0\"]\n[ECO \"C20\"]\n[WhiteElo \"2700\"]\n[BlackElo \"\"]\n\
                [PlyCount \"99\"]\n\n1. e4 {1. d4} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 ; 3. Bb5\n3.Bb5 a6?! 1-0\n\n1. d4 *";
    let idx = index(text.as_bytes());
    assert_eq!(idx.len(), 2);
    let e = &idx[0];
    assert_eq!(
        (e.number, e.offset, e.plies, e.outcome.map(|o| o.as_str())),
        (1, 0, 6, Some("1-0"))
    );
    let roster = [
        e.event(),
        e.site(),
        e.date(),
        e.round(),
        e.white(),
        e.black(),
        e.result(),
    ];
    assert_eq!(roster, ["E", "S", "2024.01.02", "3", "W \"x\"", "B", "1-0"]);
    assert_eq!([e.eco(), e.white_elo(), e.black_elo()], ["C20", "2700", ""]);
    assert!(text[..e.len as usize].ends_with("a6?! 1-0"));
    assert_eq!((idx[1].number, idx[1].plies, idx[1].white()), (2, 1, ""));
    read(text.as_bytes());
}

#[test]
fn every_nasty_file_reads_with_the_expected_game_count() {
    let Some(dir) =
        data_dirs::shared_data("nasty", "the lexical read of the upstream awkward files")
    else {
        return;
    };
    // Counted by inspection (grep for the first tag of each game, plus the tagless files).
    let expected: &[(&str, usize, usize)] = &[
        // (file, games, games with a lexical error)
        ("chesscom_no_blank_line_between_games.pgn", 334, 0),
        ("crlf_pgnmentor_fischer_head.pgn", 184, 1), // cut inside the last game's tags
        ("debian_pychess_mate_in_3_fen.pgn", 375, 0),
        ("debian_pychess_study_variations.pgn", 64, 0),
        ("illegal_move.pgn", 2, 0),
        ("lichess2016_no_event_tag.pgn", 60, 0),
        ("nonstandard_excluded.pgn", 26, 0),
        ("pgnextract_fools-mate.pgn", 1, 0),
        ("pgnextract_nested-comment.pgn", 1, 1), // comments do not nest: stray '}'
        ("pgnextract_test-allownullmoves.pgn", 2, 0),
        ("pgnextract_test-checkmate.pgn", 2, 0),
        ("pgnextract_test-fifty.pgn", 2, 0),
        ("pgnextract_test-fixresulttags-in.pgn", 5, 0),
        ("pgnextract_test-long-line.pgn", 1, 0),
        ("pgnextract_test-nagcomments.pgn", 1, 0),
        ("pgnextract_test-nobadresults.pgn", 9, 0),
        ("pgnextract_test-notags.pgn", 1, 0),
        ("pgnextract_test-promotion-in.pgn", 8, 0),
        ("pgnextract_test-repetition.pgn", 12, 0),
        ("pgnextract_test-setup-in.pgn", 2, 0),
        ("pgnextract_test-stalemate.pgn", 3, 0),
        ("pgnextract_test-ucE.pgn", 6, 0),
        ("pgnextract_test-ucS.pgn", 3, 0),
        ("pychess_anastasian-lewis.pgn", 1, 0),
        ("pychess_antichess-programfox.pgn", 2, 0),
        ("pychess_chessbase-empty-line.pgn", 1, 0),
        ("pychess_cutechess-fischerrandom.pgn", 4, 0),
        ("pychess_kasparov-deep-blue-1997.pgn", 6, 0),
        ("pychess_knightvuillaume-jannlee-zh-lichess.pgn", 1, 0),
        ("pychess_molinari-bordais-1979.pgn", 1, 0),
        ("pychess_nepomniachtchi-liren-game1.pgn", 1, 0),
        ("pychess_saturs-jannlee-zh-lichess.pgn", 1, 0),
        ("pychess_stockfish-learning.pgn", 1, 0),
        ("pychess_uci-moves.pgn", 1, 0),
        ("pychess_utf8-bom.pgn", 2, 0),
        ("tcec_engine_comments_one_game.pgn", 1, 0),
        ("tcec_fischerandom_one_game.pgn", 1, 0),
    ];
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("readable dir") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let &(_, games, bad) = expected
            .iter()
            .find(|e| e.0 == name)
            .unwrap_or_else(|| panic!("no expectation for {name}"));
        let got = read(&std::fs::read(&path).expect("readable file"));
        assert_eq!(got.len(), games, "{name}");
        assert_eq!(
            got.iter().filter(|g| !g.errors.is_empty()).count(),
            bad,
            "{name}"
        );
        seen += 1;
    }
    assert_eq!(seen, expected.len());
}

/// The real games, decompressed with `xz`; `None` (with a notice) when they are not beside the checkout.
fn real_games() -> Option<Vec<u8>> {
    let dir = data_dirs::shared_data("games", "the read of the 37,086 real games")?;
    let mut all = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    for f in files
        .iter()
        .filter(|f| f.to_string_lossy().ends_with(".pgn.xz"))
    {
        let out = std::process::Command::new("xz")
            .arg("-dc")
            .arg(f)
            .output()
            .expect("xz runs (it comes with the data)");
        assert!(out.status.success(), "xz -dc {}", f.display());
        all.extend_from_slice(&out.stdout);
    }
    Some(all)
}

#[test]
fn all_real_games_read_without_errors() {
    let Some(data) = real_games() else { return };
    let mut log = Log::default();
    let mut r = SliceReader::new(&data);
    let idx = index(&data);
    let mut n = 0;
    while let Some(g) = r.read_game(&mut log) {
        assert!(g.errors.is_empty(), "game {}: {:?}", n + 1, g.errors);
        assert_eq!((idx[n].offset, idx[n].plies), (g.offset, g.main_sans));
        n += 1;
    }
    assert_eq!(n, 37_086);
    assert_eq!(idx.len(), 37_086);
}

#[test]
fn line_comment_ending_a_game_reads_alike_in_one_pass() {
    // The blanks ending the game are not part of its last comment, in every door.
    let games = read(b"1-0;c \n[Event \"x\"]\n1. e4 *; d \r\n\n");
    assert_eq!(games[0].events, ["movetext", "result 1-0", ";c"]);
    assert_eq!(games[1].events.last().map(String::as_str), Some("; d"));
}

#[test]
fn a_tag_with_inner_quotes_reads_alike_when_its_line_outruns_the_buffer() {
    // The value runs to the line's last `"]`, past the 64 bytes a small streaming buffer
    // holds (128 once it grows to look ahead): the one-pass reader must not settle for the
    // `"]` it has at hand, and take what follows for a game.
    let rest = format!("1. e4 * {}", "x".repeat(200));
    let text = format!("[White \"A \"B\"] {rest} \"C\"]\n1. d4 *\n");
    let games = read(text.as_bytes());
    assert_eq!(games.len(), 1);
    assert_eq!(
        games[0].events,
        [
            format!("tag White=A \"B\"] {rest} \"C"),
            "movetext".into(),
            "san d4".into(),
            "result *".into()
        ]
    );
    // What the property test shrank to: one game, the rest of the line its tag's value.
    let soup = b"\xef\xbb\xbf[2...\"[Event \"x\"]2...1.[Event \"x\"][[[Site \"y\"][Site \"y\"]\
                 1-0$3[Event \"x\"][Event \"x\"][Event \"x\"][Event \"x\"]";
    let games = read(soup);
    assert_eq!(games.len(), 1);
    assert!(games[0].errors.is_empty());
    assert!(
        games[0].events[0].ends_with("[Event \"x\"][Event \"x"),
        "{:?}",
        games[0].events
    );
}
