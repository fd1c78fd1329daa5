//! The awkward files through the game builder and the writer, in two sets that the same
//! checks run over:
//!
//! - `tests/data/quirks/` (one line each in its `INDEX.txt`): files of our own, and a few
//!   copied where their licence allows (see its `SOURCE.md`), one per quirk that real files
//!   have. Every clone has them, so these checks always run.
//! - `../shared/data/nasty/`: the upstream files those quirks come from (python-chess,
//!   pgn-extract, Debian, real exports). They live beside our own checkouts and in CI only;
//!   elsewhere the checks over them say on the terminal that they were skipped.
//!
//! The standard files read without error and round-trip: read → write → read gives the
//! identical game (tags, start position, and every node of the tree: move, SAN, NAGs,
//! comments before and after, draw offer, variations), and writing the re-read game gives
//! the same text. The non-standard ones (Chess960, Antichess, Crazyhouse, nested comments)
//! give their clear, positioned error while the other games of the file survive.

mod common;
mod data_dirs;
use common::{same_game, sans};
use std::path::PathBuf;

use scoresheet::game::{Game, NodeId, SEVEN_TAG_ROSTER};
use scoresheet::pgn::{index, read_games, write_game_to_string, ReadGame};
use scoresheet::position::Move;

/// One file of the nasty set and what reading it must give.
struct Case {
    file: &'static str,
    /// Games in the file.
    games: usize,
    /// Games with at least one problem.
    bad: usize,
    /// What every problem's reason must contain (for the files with bad games).
    reason: &'static str,
}

const fn case(file: &'static str, games: usize, bad: usize, reason: &'static str) -> Case {
    Case {
        file,
        games,
        bad,
        reason,
    }
}

/// Every file of `tests/data/quirks/`. The counts were checked against the files (their
/// tag sections, results for the tagless ones, their `[Variant` tags) and python-chess.
const QUIRKS: &[Case] = &[
    case(
        "antichess.pgn",
        2,
        2,
        "variant \"Antichess\" is not supported",
    ),
    case("checkmate.pgn", 2, 0, ""),
    case(
        "chess960_games.pgn",
        3,
        3,
        "variant \"Chess960\" is not supported",
    ),
    case(
        "crazyhouse_drops.pgn",
        1,
        1,
        "variant \"Crazyhouse\" is not supported",
    ),
    // 183 whole games and the last one, cut inside its [Black tag.
    case(
        "crlf_pgnmentor_fischer_head.pgn",
        184,
        1,
        "malformed tag pair",
    ),
    case("empty_line_in_tags.pgn", 1, 0, ""),
    case("engine_comments.pgn", 1, 0, ""),
    case("fen_move_number_zero.pgn", 5, 0, ""),
    case("fifty_moves.pgn", 2, 0, ""),
    case(
        "fischerandom_engine_games.pgn",
        4,
        4,
        "variant \"fischerandom\" is not supported",
    ),
    case("fools_mate.pgn", 1, 0, ""),
    case("glued_move_numbers.pgn", 6, 0, ""),
    // Game 1 stops at 5. Ke3; game 2 is legal.
    case("illegal_move.pgn", 2, 1, "illegal"),
    case("lan_promotions.pgn", 8, 0, ""),
    case("leading_comment.pgn", 1, 0, ""),
    case("lichess2016_no_event_tag.pgn", 60, 0, ""),
    case("long_comment_line.pgn", 1, 0, ""),
    case("nags_between_comments.pgn", 1, 0, ""),
    // Comments do not nest in PGN: checked in `nested_comment_is_a_clear_error`.
    case("nested_comment.pgn", 1, 1, ""),
    // 12 games and 2 Chess960 games among them, with no blank line between games.
    case(
        "no_blank_line_between_games.pgn",
        14,
        2,
        "variant \"Chess960\" is not supported",
    ),
    case("null_moves.pgn", 2, 0, ""),
    case("one_line_games.pgn", 9, 0, ""),
    case("plycount_tag.pgn", 1, 0, ""),
    case("repetition.pgn", 4, 0, ""),
    case("result_disagrees.pgn", 5, 0, ""),
    case("setup_fen.pgn", 2, 0, ""),
    case("stalemate.pgn", 3, 0, ""),
    case("study_variations.pgn", 3, 0, ""),
    case("three_games.pgn", 3, 0, ""),
    case("uci_movetext.pgn", 1, 0, ""),
    case("utf8_bom.pgn", 2, 0, ""),
];

/// Every file of `../shared/data/nasty/`. The counts were checked against the files: game
/// counts against their tag sections (`[Event` lines, `[Site` for the lichess file, results
/// for the tagless ones), bad counts against their `[Variant` tags and INDEX.txt.
const NASTY: &[Case] = &[
    // 334 games; the 21 with [Variant "Chess960"] are refused, the 313 others read.
    case(
        "chesscom_no_blank_line_between_games.pgn",
        334,
        21,
        "variant \"Chess960\" is not supported",
    ),
    // 183 whole games and the last one, cut inside its [Black tag.
    case(
        "crlf_pgnmentor_fischer_head.pgn",
        184,
        1,
        "malformed tag pair",
    ),
    // 375 puzzles, each from a FEN whose move number is 0.
    case("debian_pychess_mate_in_3_fen.pgn", 375, 0, ""),
    case("debian_pychess_study_variations.pgn", 64, 0, ""),
    // Game 1 stops at 5. Ke3; game 2 is legal.
    case("illegal_move.pgn", 2, 1, "illegal"),
    case("lichess2016_no_event_tag.pgn", 60, 0, ""),
    case(
        "nonstandard_excluded.pgn",
        26,
        26,
        "variant \"Chess960\" is not supported",
    ),
    case("pgnextract_fools-mate.pgn", 1, 0, ""),
    // Comments do not nest in PGN: the first `}` closes the comment, then "which" is not
    // a move and the last `}` is stray. Checked in `nested_comment_is_a_clear_error`.
    case("pgnextract_nested-comment.pgn", 1, 1, ""),
    case("pgnextract_test-allownullmoves.pgn", 2, 0, ""),
    case("pgnextract_test-checkmate.pgn", 2, 0, ""),
    case("pgnextract_test-fifty.pgn", 2, 0, ""),
    case("pgnextract_test-fixresulttags-in.pgn", 5, 0, ""),
    case("pgnextract_test-long-line.pgn", 1, 0, ""),
    case("pgnextract_test-nagcomments.pgn", 1, 0, ""),
    case("pgnextract_test-nobadresults.pgn", 9, 0, ""),
    case("pgnextract_test-notags.pgn", 1, 0, ""),
    case("pgnextract_test-promotion-in.pgn", 8, 0, ""),
    case("pgnextract_test-repetition.pgn", 12, 0, ""),
    case("pgnextract_test-setup-in.pgn", 2, 0, ""),
    case("pgnextract_test-stalemate.pgn", 3, 0, ""),
    case("pgnextract_test-ucE.pgn", 6, 0, ""),
    case("pgnextract_test-ucS.pgn", 3, 0, ""),
    case("pychess_anastasian-lewis.pgn", 1, 0, ""),
    case(
        "pychess_antichess-programfox.pgn",
        2,
        2,
        "variant \"Antichess\" is not supported",
    ),
    case("pychess_chessbase-empty-line.pgn", 1, 0, ""),
    case(
        "pychess_cutechess-fischerrandom.pgn",
        4,
        4,
        "variant \"fischerandom\" is not supported",
    ),
    case("pychess_kasparov-deep-blue-1997.pgn", 6, 0, ""),
    case(
        "pychess_knightvuillaume-jannlee-zh-lichess.pgn",
        1,
        1,
        "variant \"Crazyhouse\" is not supported",
    ),
    case("pychess_molinari-bordais-1979.pgn", 1, 0, ""),
    case("pychess_nepomniachtchi-liren-game1.pgn", 1, 0, ""),
    case(
        "pychess_saturs-jannlee-zh-lichess.pgn",
        1,
        1,
        "variant \"Crazyhouse\" is not supported",
    ),
    case("pychess_stockfish-learning.pgn", 1, 0, ""),
    case("pychess_uci-moves.pgn", 1, 0, ""),
    case("pychess_utf8-bom.pgn", 2, 0, ""),
    case("tcec_engine_comments_one_game.pgn", 1, 0, ""),
    case(
        "tcec_fischerandom_one_game.pgn",
        1,
        1,
        "variant \"fischerandom\" is not supported",
    ),
];

/// A set of awkward files: a directory and its table.
struct Set {
    dir: PathBuf,
    cases: &'static [Case],
}

impl Set {
    fn read(&self, file: &str) -> Vec<u8> {
        let path = self.dir.join(file);
        std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
    }
}

/// Our own awkward files: always there.
fn quirks() -> Set {
    Set {
        dir: data_dirs::quirks_dir(),
        cases: QUIRKS,
    }
}

/// The upstream awkward files, when they are beside the checkout.
fn nasty(check: &str) -> Option<Set> {
    Some(Set {
        dir: data_dirs::shared_data("nasty", check)?,
        cases: NASTY,
    })
}

/// One of our own awkward files.
fn quirk(file: &str) -> Vec<u8> {
    quirks().read(file)
}

fn fixture(file: &str) -> Vec<u8> {
    let path = data_dirs::fixture(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Checks the export format of one written game: the Seven Tag Roster first and in
/// order, SetUp and FEN for a set-up start, a blank line, the result token matching the
/// Result tag. (Line width: [`long_movetext_line`].)
fn check_export_format(text: &str, game: &Game) -> Result<(), String> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, name) in SEVEN_TAG_ROSTER.iter().enumerate() {
        let want = format!("[{name} \"");
        if !lines.get(i).is_some_and(|l| l.starts_with(&want)) {
            return Err(format!("line {} is not the {name} tag", i + 1));
        }
    }
    if game.has_setup() {
        // The FEN as the file wrote it (a move number 0 stays), else the start's own.
        let fen = game
            .tag("FEN")
            .map_or_else(|| game.start.fen(), str::to_string);
        let fen = format!("[FEN \"{fen}\"]");
        if !lines.contains(&"[SetUp \"1\"]") || !lines.contains(&fen.as_str()) {
            return Err(format!("a set-up game without SetUp \"1\" and {fen}"));
        }
    }
    if !lines.contains(&"") {
        return Err("no blank line after the tags".into());
    }
    let last = text.split_whitespace().last().unwrap_or("");
    let result = game.tag("Result").unwrap_or("*");
    // A token and a tag of two results, as read, are both kept (a disagreement `check`
    // reports), the one place the written game is not export format.
    let kept = game.written_result();
    if last != result && kept != Some(last) {
        return Err(format!("result token {last} but Result tag {result}"));
    }
    Ok(())
}

/// The first movetext line longer than 80 characters, unless a comment is on it (a
/// comment is one token, and a token longer than a line has to stand alone).
fn long_movetext_line(text: &str) -> Option<String> {
    let movetext = text.split_once("\n\n").map_or("", |(_, m)| m);
    let mut in_comment = false;
    for line in movetext.lines() {
        let touches_comment = in_comment || line.contains('{');
        for c in line.chars() {
            match c {
                '{' => in_comment = true,
                '}' => in_comment = false,
                _ => {}
            }
        }
        if line.chars().count() > 80 && !touches_comment {
            return Some(format!("{} characters: {line}", line.chars().count()));
        }
    }
    None
}

/// Read → write → read: the identical game, a stable written form, export format.
/// Returns the written text.
fn round_trip(game: &Game, what: &str) -> String {
    let text = write_game_to_string(game);
    let again = read_games(text.as_bytes());
    assert_eq!(
        again.len(),
        1,
        "{what}: the written game reads as {} games:\n{text}",
        again.len()
    );
    let r = &again[0];
    assert!(
        r.errors.is_empty() && r.complete,
        "{what}: the written game does not read cleanly: {:?}\n{text}",
        r.errors
    );
    if let Err(e) = same_game(game, &r.game) {
        panic!("{what}: not the same game after a round trip: {e}\n{text}");
    }
    assert_eq!(
        write_game_to_string(&r.game),
        text,
        "{what}: writing the re-read game gives other text"
    );
    if let Err(e) = check_export_format(&text, game) {
        panic!("{what}: {e}\n{text}");
    }
    text
}

/// The deepest nesting of variations in a game (0: main line only).
fn variation_depth(game: &Game) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(NodeId::ROOT, 0)];
    while let Some((id, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        for (i, c) in game.node(id).children.iter().enumerate() {
            stack.push((*c, depth + usize::from(i > 0)));
        }
    }
    deepest
}

fn bad_games(games: &[ReadGame]) -> Vec<&ReadGame> {
    games.iter().filter(|g| !g.errors.is_empty()).collect()
}

/// The table lists every `.pgn` file of the set's directory, and its `INDEX.txt` every file.
fn table_lists_every_file(set: &Set) {
    let entries =
        std::fs::read_dir(&set.dir).unwrap_or_else(|e| panic!("{}: {e}", set.dir.display()));
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pgn"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = set.cases.iter().map(|c| c.file.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed, "{}", set.dir.display());
    let index = String::from_utf8(set.read("INDEX.txt")).expect("INDEX.txt is UTF-8");
    for c in set.cases {
        assert!(index.contains(c.file), "{} is not in INDEX.txt", c.file);
    }
}

/// Reads one file of the table and checks the counts and every problem's position.
fn check_case(set: &Set, c: &Case) {
    let data = set.read(c.file);
    let games = read_games(&data);
    let bad = bad_games(&games);
    assert_eq!(
        (games.len(), bad.len()),
        (c.games, c.bad),
        "{}: (games, games with errors)",
        c.file
    );
    // The index finds the same games.
    assert_eq!(index(&data).len(), c.games, "{}: index", c.file);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.number, i as u64 + 1, "{}: numbering", c.file);
        // Every problem is positioned and says what and why.
        for e in &g.errors {
            assert!(
                e.pos.line > 0 && e.pos.column > 0 && e.pos.game == g.number,
                "{}: game {}: badly positioned {e:?}",
                c.file,
                g.number
            );
            assert!(!e.token.is_empty() && !e.reason.is_empty(), "{e:?}");
            assert!(
                e.reason.contains(c.reason),
                "{}: game {}: reason {:?} does not contain {:?}",
                c.file,
                g.number,
                e.reason,
                c.reason
            );
        }
        if g.errors.is_empty() {
            assert!(g.complete, "{}: game {} incomplete", c.file, g.number);
        } else {
            assert!(!g.complete, "{}: game {} complete", c.file, g.number);
        }
    }
}

/// Every game of the set read without error round-trips, and its main line is what the
/// index counted. Returns how many games were round-tripped.
fn round_trip_set(set: &Set) -> usize {
    let mut total = 0;
    for c in set.cases {
        let data = set.read(c.file);
        let entries = index(&data);
        for g in read_games(&data).iter().filter(|g| g.errors.is_empty()) {
            let what = format!("{} game {}", c.file, g.number);
            round_trip(&g.game, &what);
            assert_eq!(g.plies as usize, g.game.mainline().len(), "{what}");
            assert_eq!(
                g.plies,
                entries[g.number as usize - 1].plies,
                "{what}: plies"
            );
            total += 1;
        }
    }
    // Every clean game of the table was round-tripped, so the loop cannot pass empty.
    let clean: usize = set.cases.iter().map(|c| c.games - c.bad).sum();
    assert_eq!(total, clean);
    total
}

/// The written movetext lines of every game of the set fit in 80 columns.
fn lines_fit_in_80_columns(set: &Set) {
    let mut long = Vec::new();
    for c in set.cases {
        for g in read_games(&set.read(c.file)) {
            if let Some(line) = long_movetext_line(&write_game_to_string(&g.game)) {
                long.push(format!("{} game {}: {line}", c.file, g.number));
            }
        }
    }
    assert!(
        long.is_empty(),
        "{} games:\n{}",
        long.len(),
        long.join("\n")
    );
}

#[test]
fn quirks_the_table_lists_every_file() {
    table_lists_every_file(&quirks());
}

#[test]
fn quirks_every_file_gives_the_expected_games_and_problems() {
    let set = quirks();
    for c in set.cases {
        check_case(&set, c);
    }
}

#[test]
fn quirks_every_game_read_without_error_round_trips() {
    assert_eq!(round_trip_set(&quirks()), 320);
}

#[test]
fn quirks_written_movetext_lines_fit_in_80_columns() {
    lines_fit_in_80_columns(&quirks());
}

#[test]
fn shared_nasty_the_table_lists_every_file() {
    if let Some(set) = nasty("the table of the upstream awkward files") {
        table_lists_every_file(&set);
    }
}

#[test]
fn shared_nasty_every_file_gives_the_expected_games_and_problems() {
    if let Some(set) = nasty("the counts of the upstream awkward files") {
        for c in set.cases {
            check_case(&set, c);
        }
    }
}

#[test]
fn shared_nasty_every_game_read_without_error_round_trips() {
    if let Some(set) = nasty("the round trip of the upstream awkward files") {
        assert_eq!(round_trip_set(&set), 694 + 375);
    }
}

#[test]
fn shared_nasty_written_movetext_lines_fit_in_80_columns() {
    if let Some(set) = nasty("the line width of the upstream awkward files") {
        lines_fit_in_80_columns(&set);
    }
}

#[test]
fn variant_games_are_refused_where_their_variant_tag_is() {
    // Each refusal points at the [Variant] line, column 1, with the variant as the token.
    for (file, name, lines) in [
        ("antichess.pgn", "Antichess", vec![7, 18]),
        (
            "fischerandom_engine_games.pgn",
            "fischerandom",
            vec![11, 27, 43, 59],
        ),
        ("crazyhouse_drops.pgn", "Crazyhouse", vec![7]),
        ("chess960_games.pgn", "Chess960", vec![8, 21, 34]),
    ] {
        let games = read_games(&quirk(file));
        let got: Vec<(u64, u32, &str)> = games
            .iter()
            .flat_map(|g| &g.errors)
            .map(|e| (e.pos.line, e.pos.column, e.token.as_str()))
            .collect();
        let want: Vec<(u64, u32, &str)> = lines.iter().map(|l| (*l, 1, name)).collect();
        assert_eq!(got, want, "{file}");
        for g in &games {
            assert_eq!(
                g.errors[0].reason,
                format!("variant \"{name}\" is not supported: only standard chess")
            );
            assert_eq!(g.plies, 0, "{file}: a variant game is not played");
        }
    }
}

#[test]
fn illegal_move_stops_game_one_at_ke3_and_game_two_survives() {
    let games = read_games(&quirk("illegal_move.pgn"));
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.errors.len(), 1, "{:?}", g.errors);
    let e = &g.errors[0];
    assert_eq!((e.pos.line, e.pos.column), (9, 47));
    assert_eq!(e.token, "Ke3");
    assert!(e.reason.contains("illegal"), "{}", e.reason);
    assert!(e.reason.contains("move 5, White to play"), "{}", e.reason);
    assert!(!g.complete);
    // The moves before the error are kept.
    assert_eq!(g.plies, 8);
    let line = g.game.mainline();
    assert_eq!(
        sans(&g.game, &line),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]
    );
    // The readable part round-trips on its own.
    round_trip(&g.game, "illegal_move game 1, readable part");
    let g2 = &games[1];
    assert!(g2.errors.is_empty() && g2.complete);
    assert_eq!(g2.game.tag("Event"), Some("legal test"));
    assert_eq!(
        sans(&g2.game, &g2.game.mainline()),
        ["e4", "e5", "Nf3", "Nc6"]
    );
}

#[test]
fn nested_comment_is_a_clear_error() {
    // d4 { a comment holding { another comment } and then some
    // words after it. } *
    let games = read_games(&quirk("nested_comment.pgn"));
    assert_eq!(games.len(), 1);
    let g = &games[0];
    let first = &g.errors[0];
    assert_eq!((first.pos.line, first.pos.column), (1, 44));
    assert_eq!(first.token, "and");
    assert!(first.reason.starts_with("not a move"), "{}", first.reason);
    let last = g.errors.last().expect("errors");
    assert_eq!(
        (last.pos.line, last.pos.column, last.token.as_str()),
        (2, 17, "}")
    );
    // What came before is kept: d4 and the comment up to the first `}`.
    let line = g.game.mainline();
    assert_eq!(sans(&g.game, &line), ["d4"]);
    assert_eq!(
        g.game.node(line[0]).comments_after,
        [" a comment holding { another comment "]
    );
}

#[test]
fn crlf_file_reads_cleanly_and_its_truncated_last_game_is_reported() {
    let games = read_games(&quirk("crlf_pgnmentor_fischer_head.pgn"));
    assert_eq!(games.len(), 184);
    for g in &games[..183] {
        assert!(g.errors.is_empty() && g.complete, "game {}", g.number);
        for (name, value) in &g.game.tags {
            assert!(!value.contains('\r'), "game {}: {name} {value:?}", g.number);
        }
    }
    let g1 = &games[0].game;
    // Empty Elo tags stay empty, and are written so.
    assert_eq!(g1.tag("WhiteElo"), Some(""));
    let text = round_trip(g1, "crlf game 1");
    assert!(!text.contains('\r'));
    assert!(text.contains("[WhiteElo \"\"]\n"), "{text}");
    let last = &games[183];
    assert_eq!(last.errors.len(), 1);
    let e = &last.errors[0];
    assert_eq!((e.pos.line, e.pos.column), (3315, 1));
    assert!(e.token.starts_with("[Black \"Fischer,"), "{:?}", e.token);
    assert_eq!(e.reason, "malformed tag pair");
    assert!(!last.complete);
}

#[test]
fn bom_is_skipped() {
    let data = quirk("utf8_bom.pgn");
    assert!(data.starts_with(b"\xEF\xBB\xBF"));
    let games = read_games(&data);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].game.tags[0], ("Event".into(), "A".into()));
    assert_eq!(games[1].game.tag("Event"), Some("B"));
    assert_eq!(games[0].game.tag("White"), Some("Müller, Jürgen"));
    assert_eq!((games[0].start.line, games[0].start.column), (1, 1));
    let text = round_trip(&games[0].game, "bom game 1");
    assert!(text.starts_with("[Event \"A\"]\n"));
}

#[test]
fn games_without_a_blank_line_between_them_are_separate() {
    let data = quirk("no_blank_line_between_games.pgn");
    assert!(!String::from_utf8_lossy(&data).contains("\n\n[Event"));
    let games = read_games(&data);
    assert_eq!(games.len(), 14);
    let (g1, g2) = (&games[0], &games[1]);
    assert_eq!(g1.game.tag("White"), Some("thibault"));
    assert_eq!(g1.game.tag("Result"), Some("0-1"));
    assert!(g1.complete && g2.complete);
    assert_eq!(g2.game.tags[0].0, "Event");
    assert_ne!(g1.game.tag("Date"), g2.game.tag("Date"));
    assert!(!g1.game.is_empty() && !g2.game.is_empty());
}

#[test]
fn clock_comments_are_kept_verbatim() {
    let games = read_games(&quirk("no_blank_line_between_games.pgn"));
    let g = &games[0].game;
    let line = g.mainline();
    assert_eq!(g.node(line[0]).san, "e4");
    assert_eq!(g.node(line[0]).comments_after, ["[%clk 0:01:00]"]);
    assert_eq!(g.node(line[5]).comments_after, ["[%clk 0:00:57]"]);
    let text = round_trip(g, "no blank line, game 1");
    assert!(text.contains("1. e4 {[%clk 0:01:00]} 1... e5 {[%clk 0:01:00]} 2. f4"));
}

#[test]
fn glued_move_numbers_are_read() {
    // "1.e4 d5 2.f4 ..." with no space after the number.
    let data = quirk("glued_move_numbers.pgn");
    assert!(data.windows(5).any(|w| w == b"2.f4 "));
    let games = read_games(&data);
    assert_eq!(games.len(), 6);
    let g = games
        .iter()
        .find(|g| g.game.tag("Event") == Some("Glued 1"))
        .expect("game 1");
    assert!(g.errors.is_empty());
    let line = g.game.mainline();
    assert_eq!(sans(&g.game, &line[..3]), ["e4", "d5", "f4"]);
    let text = round_trip(&g.game, "glued game 1");
    assert!(text.contains("\n1. e4 d5 2. f4 "), "{text}");
}

#[test]
fn null_moves_round_trip_in_main_line_and_variations() {
    let games = read_games(&quirk("null_moves.pgn"));
    assert_eq!(games.len(), 2);
    // From a set-up position: 1. e4 -- 2. e5 (2. Kd2 -- 3. Kd3) 2... Kd7 *
    let g = &games[0].game;
    let line = g.mainline();
    assert_eq!(g.node(line[1]).mv, Move::Null);
    assert_eq!(sans(g, &line), ["e4", "--", "e5", "Kd7"]);
    let text = round_trip(g, "null moves game 1");
    assert!(
        text.contains("1. e4 -- 2. e5 (2. Kd2 -- 3. Kd3) 2... Kd7 *"),
        "{text}"
    );
    // 1. e4 e5 2. -- Nc6 (2... -- 3. Nf3) 3. Nf3 *
    let g = &games[1].game;
    let line = g.mainline();
    assert_eq!(sans(g, &line), ["e4", "e5", "--", "Nc6", "Nf3"]);
    let alternatives = &g.node(line[2]).children;
    assert_eq!(sans(g, alternatives), ["Nc6", "--"]);
    let text = round_trip(g, "null moves game 2");
    assert!(
        text.contains("1. e4 e5 2. -- Nc6 (2... -- 3. Nf3) 3. Nf3 *"),
        "{text}"
    );
}

#[test]
fn black_to_move_start_is_written_with_n_dots() {
    // A fixture: FEN with Black to move at move 23, a comment, a variation.
    let games = read_games(&fixture("cli_black_to_move.pgn"));
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    assert_eq!(g.game.start.fullmove_number(), 23);
    let text = round_trip(&g.game, "black to move");
    // Black's first move is numbered "23...", and again after a variation and a comment;
    // the line is full at 80 columns.
    let movetext = text.split("\n\n").nth(1).unwrap_or("");
    assert_eq!(
        movetext,
        "23... Kg8 24. Rxe8+ $1 (24. Qf3 Kh8) 24... Qxe8 25. h3 {Luft.} 25... Qe1+\n26. Qxe1 *"
    );
    assert!(text.contains("[SetUp \"1\"]\n"));
    assert!(text.contains(&format!("[FEN \"{}\"]\n", g.game.start.fen())));
}

#[test]
fn lichess_study_keeps_nested_variations_comments_and_nags() {
    let games = read_games(&quirk("study_variations.pgn"));
    assert_eq!(games.len(), 3);
    let from_fen = games.iter().filter(|g| g.game.has_setup()).count();
    assert_eq!(from_fen, 2);
    let deepest = games.iter().map(|g| variation_depth(&g.game)).max();
    assert!(deepest >= Some(2), "no nested variation found: {deepest:?}");
    // Chapter 1: {The opposition decides. [%csl ...]} 1. Ke3! {[%cal Gf2e3]} (1. e4? ...)
    // 1... Kd5 $10 (1... Kf5 2. Kd4 (2. Kf3 Ke5 $10) 2... Ke6 3. Ke4 $14) 2. Kf4 ...
    let g = &games[0].game;
    let line = g.mainline();
    let first = g.node(line[0]);
    assert_eq!(
        (first.san.as_str(), first.nags.as_slice()),
        ("Ke3", &[1u8][..])
    );
    assert_eq!(first.comments_after, [" [%cal Gf2e3] "]);
    assert_eq!(sans(g, &g.node(NodeId::ROOT).children), ["Ke3", "e4"]);
    assert_eq!(sans(g, &g.node(line[0]).children), ["Kd5", "Kf5"]);
    // Leading comment before the first move.
    assert!(g.node(NodeId::ROOT).comments_after[0].contains("The opposition decides."));
    // Every chapter round-trips, the deepest ones included.
    for g in &games {
        round_trip(&g.game, &format!("study chapter {}", g.number));
    }
}

#[test]
fn latin1_bytes_become_the_right_unicode() {
    // White "Müller, Jürgen" and a comment "Schöne Kombination, Großmeister!" in ISO 8859-1.
    let data = fixture("cli_latin1.pgn");
    assert!(
        std::str::from_utf8(&data).is_err(),
        "the fixture must not be UTF-8"
    );
    let games = read_games(&data);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    assert_eq!(g.game.tag("White"), Some("Müller, Jürgen"));
    assert_eq!(g.game.tag("Site"), Some("Köln"));
    let line = g.game.mainline();
    assert_eq!(
        g.game.node(line[0]).comments_after,
        ["Schöne Kombination, Großmeister!"]
    );
    let text = round_trip(&g.game, "latin-1");
    assert!(text.contains("[White \"Müller, Jürgen\"]"));
    assert!(text.contains("{Schöne Kombination, Großmeister!}"));
}

#[test]
fn long_comment_lines_and_engine_comments_are_kept() {
    let games = read_games(&quirk("long_comment_line.pgn"));
    let g = &games[0].game;
    let line = g.mainline();
    let c = &g.node(line[0]).comments_after[0];
    assert!(c.len() > 255 && c.contains("runs on and on"), "{c}");
    let games = read_games(&quirk("engine_comments.pgn"));
    let g = &games[0].game;
    let chars: usize = g
        .mainline()
        .iter()
        .flat_map(|id| &g.node(*id).comments_after)
        .map(|c| c.len())
        .sum();
    assert!(chars > 9_000, "engine comments: {chars} bytes");
}

#[test]
fn tagless_and_one_line_games_get_a_roster() {
    // [Result "1-0"] e4 0-1: the Result tag and the token are both kept as read (a
    // disagreement `check` reports), the roster filled in.
    let games = read_games(&quirk("one_line_games.pgn"));
    let g = &games[3].game;
    assert_eq!(g.tag("Result"), Some("1-0"));
    assert_eq!(g.tag("Event"), Some("?"));
    assert_eq!(g.tag("Date"), Some("????.??.??"));
    let text = round_trip(g, "one-line game 4");
    assert!(text.ends_with("\n1. d4 0-1\n\n"), "{text}");
    // [Result "*"] d4 1-0: the tag knew nothing, the token's result is the game's.
    let text = round_trip(&games[6].game, "one-line game 7");
    assert!(
        text.contains("[Result \"1-0\"]") && text.ends_with("\n1. d4 1-0\n\n"),
        "{text}"
    );
    // [Result "1-0"] d4 *: the token says nothing, the tag's result is written.
    let text = round_trip(&games[0].game, "one-line game 1");
    assert!(text.ends_with("\n1. d4 1-0\n\n"), "{text}");
    // No tags at all: the result comes from the movetext.
    let games = read_games(&quirk("nags_between_comments.pgn"));
    let g = &games[0].game;
    assert_eq!(g.tag("Result"), Some("*"));
    let line = g.mainline();
    let c4 = g.node(line[0]);
    assert_eq!(c4.nags, [1, 6]);
    assert_eq!(c4.comments_after.len(), 3);
    // No Event tag in the lichess export: an Event "?" is written first.
    let games = read_games(&quirk("lichess2016_no_event_tag.pgn"));
    let text = round_trip(&games[0].game, "lichess 2016 game 1");
    assert!(text.starts_with("[Event \"?\"]\n[Site \""), "{text}");
}

#[test]
fn long_algebraic_promotions_and_uci_movetext_are_read() {
    // 6k1/2P5/6K1: c7c8R and c7c8Q mate on the back rank.
    let games = read_games(&quirk("lan_promotions.pgn"));
    let got: Vec<String> = games
        .iter()
        .map(|g| g.game.node(g.game.mainline()[0]).san.clone())
        .collect();
    assert_eq!(
        got,
        ["c8=R#", "c8=N", "c8=B", "c8=Q#", "c8=R#", "c8=N", "c8=B", "c8=Q#"]
    );
    let games = read_games(&quirk("uci_movetext.pgn"));
    let g = &games[0].game;
    assert_eq!(sans(g, &g.mainline()[..3]), ["e4", "c5", "Nf3"]);
}

#[test]
fn escaped_tag_values_round_trip() {
    let pgn = b"[Event \"Quotes \\\"and\\\" backslash \\\\ here\"]\n[Result \"*\"]\n\n1. e4 *\n";
    let games = read_games(pgn);
    let g = &games[0].game;
    assert_eq!(g.tag("Event"), Some("Quotes \"and\" backslash \\ here"));
    let text = round_trip(g, "escaped tags");
    assert!(text.starts_with("[Event \"Quotes \\\"and\\\" backslash \\\\ here\"]\n"));
}

/// A parsed game, read → written → read again.
fn reread(pgn: &[u8]) -> (Game, Game, String) {
    let games = read_games(pgn);
    assert_eq!(games.len(), 1);
    assert!(games[0].errors.is_empty(), "{:?}", games[0].errors);
    let text = write_game_to_string(&games[0].game);
    let again = read_games(text.as_bytes());
    assert_eq!(again.len(), 1, "{text}");
    (games[0].game.clone(), again[0].game.clone(), text)
}

#[test]
fn a_result_tag_that_is_not_a_result_does_not_become_a_nag() {
    let (first, second, text) = reread(b"[Event \"e\"]\n[Result \"?\"]\n\n1. e4 e5 *\n");
    if let Err(e) = same_game(&first, &second) {
        panic!("{e}\n{text}");
    }
}

#[test]
fn a_line_comment_holding_a_closing_brace_round_trips() {
    let (first, second, text) = reread(b"[Event \"e\"]\n[Result \"*\"]\n\n1. e4 ; a } b\ne5 *\n");
    let e4 = first.mainline()[0];
    assert_eq!(first.node(e4).comments_after, [" a } b"]);
    if let Err(e) = same_game(&first, &second) {
        panic!("{e}\n{text}");
    }
}
