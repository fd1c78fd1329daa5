use super::*;
use crate::game::annotation::ClockTime;
use crate::notation::Lang;
use crate::pgn::read_games;
use crate::ui::text;

fn game(movetext: &str) -> Game {
    let pgn = format!("[Event \"t\"]\n\n{movetext}\n");
    let mut games = read_games(pgn.as_bytes());
    assert_eq!(games.len(), 1);
    let read = games.remove(0);
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    read.game
}

fn options(layout: MoveLayout, width: u16) -> LayoutOptions {
    LayoutOptions {
        style: Notation::San,
        lang: Lang::english(),
        layout,
        width,
    }
}

fn lines(game: &Game, layout: MoveLayout, width: u16) -> Vec<String> {
    let laid = lay_out(game, &options(layout, width));
    (0..laid.len()).map(|i| laid.line_text(i)).collect()
}

/// The node of the move written `san` on the path of moves `path` (SANs from the
/// start, variations included), for finding a node in a test game.
fn node(game: &Game, path: &[&str]) -> NodeId {
    let mut at = NodeId::ROOT;
    for san in path {
        at = *game
            .node(at)
            .children
            .iter()
            .find(|c| game.node(**c).san == *san)
            .unwrap_or_else(|| panic!("no {san} after {at:?}"));
    }
    at
}

const NESTED: &str = "{Before the first move} 1. e4 e5 2. Nf3 {the usual} (2. f4 exf4 \
    (2... d5 3. exd5 (3. Nf3 dxe4 (3... Bg4 4. h3)) 3... Qxd5) 3. Nf3) 2... Nc6 \
    3. Bb5 $1 a6 $16 *";

#[test]
fn variations_are_inline_in_parentheses_with_numbers_where_a_reader_needs_them() {
    let g = game(NESTED);
    assert_eq!(
        lines(&g, MoveLayout::Inline, 200),
        [
            "Before the first move 1.e4 e5 2.Nf3 the usual (2.f4 exf4 (2...d5 3.exd5 \
          (3.Nf3 dxe4 (3...Bg4 4.h3)) 3...Qxd5) 3.Nf3) 2...Nc6 3.Bb5! a6 ±"
        ]
    );
}

#[test]
fn variations_are_indented_by_depth_each_on_its_own_lines() {
    let g = game(NESTED);
    assert_eq!(
        lines(&g, MoveLayout::Indented, 60),
        [
            "Before the first move 1.e4 e5 2.Nf3 the usual",
            "  (2.f4 exf4",
            "    (2...d5 3.exd5",
            "      (3.Nf3 dxe4",
            "        (3...Bg4 4.h3))",
            "    3...Qxd5)",
            "  3.Nf3)",
            "2...Nc6 3.Bb5! a6 ±",
        ]
    );
}

#[test]
fn too_deep_for_the_width_stays_inline_within_its_parent() {
    let g = game(NESTED);
    // 11 columns give one level of indentation; deeper levels stay inline.
    let shown = lines(&g, MoveLayout::Indented, 11);
    assert_eq!(shown[0], "Before the");
    assert!(shown.iter().any(|l| l.starts_with("  (2.f4")), "{shown:#?}");
    assert!(shown.iter().all(|l| !l.starts_with("   ")), "{shown:#?}");
    for line in &shown {
        assert!(text::width(line) <= 11, "{line:?}");
    }
    assert!(shown.iter().any(|l| l.contains("(3...Bg4")), "{shown:#?}");
}

#[test]
fn a_comment_before_a_variation_move_comes_after_the_parenthesis() {
    let g = game("1. e4 ({or} 1. d4 {solid} d5) 1... e5 *");
    assert_eq!(
        lines(&g, MoveLayout::Inline, 80),
        ["1.e4 (or 1.d4 solid 1...d5) 1...e5"]
    );
}

#[test]
fn clocks_and_evals_are_compact_and_commands_never_show() {
    let g = game(
        "1. e4 {[%clk 1:29:58] [%eval 0.35]} e5 {[%clk 0:03:12.4] [%eval #-3] \
         [%csl Ga4] [%cal Ge2e4] [%xyz 1] Fine} 2. Nf3 {[%emt 0:00:05]} *",
    );
    assert_eq!(
        lines(&g, MoveLayout::Inline, 80),
        ["1.e4 1:29:58 +0.35 e5 3:12.4 #-3 Fine 2.Nf3 +0:05"]
    );
    // A comment with only commands does not call for a number again.
    let g = game("1. e4 {[%clk 1:00:00]} e5 *");
    assert_eq!(lines(&g, MoveLayout::Inline, 80), ["1.e4 1:00:00 e5"]);
}

#[test]
fn compact_values() {
    assert_eq!(compact_clock(ClockTime::from_secs(5025)), "1:23:45");
    assert_eq!(compact_clock(ClockTime::from_secs(192)), "3:12");
    assert_eq!(compact_clock(ClockTime::from_tenths(9)), "0:00.9");
    let eval = |text| compact_eval(crate::game::annotation::Eval::parse(text).unwrap());
    assert_eq!(eval("0.35"), "+0.35");
    assert_eq!(eval("-1.2,20"), "-1.20");
    assert_eq!(eval("0"), "0.00");
    assert_eq!(eval("#-3"), "#-3");
    assert_eq!(eval("#4"), "#4");
}

#[test]
fn comments_wrap_by_display_width_and_long_words_are_cut() {
    let g = game("1. e4 {丁立人 丁立人丁立人 abcdefghijklmnopqrstuvwxyz} e5 *");
    let shown = lines(&g, MoveLayout::Inline, 10);
    for line in &shown {
        assert!(text::width(line) <= 10, "{line:?} in {shown:#?}");
    }
    assert_eq!(
        shown,
        [
            "1.e4",
            "丁立人",
            "丁立人丁立",
            "人",
            "abcdefghij",
            "klmnopqrst",
            "uvwxyz",
            "1...e5"
        ]
    );
}

#[test]
fn every_move_is_on_the_line_the_layout_says() {
    let g = game(NESTED);
    for layout in [MoveLayout::Inline, MoveLayout::Indented] {
        for width in [8, 20, 40, 80] {
            let laid = lay_out(&g, &options(layout, width));
            let mut seen = 0;
            for line in 0..laid.len() {
                for (piece, text) in laid.pieces(line) {
                    if piece.kind == Kind::Move {
                        let id = piece.node.unwrap();
                        assert_eq!(laid.line_of(id), Some(line), "{text}");
                        assert_eq!(g.node(id).san, text);
                        seen += 1;
                    }
                }
            }
            assert_eq!(seen, g.len() - 1, "every move shown once");
            assert_eq!(laid.line_of(NodeId::ROOT), None);
        }
    }
}

#[test]
fn a_click_finds_the_move_under_it() {
    let g = game(NESTED);
    let laid = lay_out(&g, &options(MoveLayout::Indented, 60));
    // "  (2.f4 exf4": f4 at columns 5–6, exf4 from 8.
    let f4 = node(&g, &["e4", "e5", "f4"]);
    let exf4 = node(&g, &["e4", "e5", "f4", "exf4"]);
    assert_eq!(laid.node_at(1, 0), None);
    assert_eq!(
        laid.node_at(1, 3),
        Some(f4),
        "the number belongs to its move"
    );
    assert_eq!(laid.node_at(1, 6), Some(f4));
    assert_eq!(laid.node_at(1, 9), Some(exf4));
    assert_eq!(laid.node_at(1, 50), Some(exf4));
}

#[test]
fn the_notation_and_language_asked_for_are_used() {
    let g = game("1. e4 e5 2. Nf3 (2. Bc4 Nf6) 2... Nc6 *");
    let laid = |style, lang| {
        let laid = lay_out(
            &g,
            &LayoutOptions {
                style,
                lang,
                layout: MoveLayout::Inline,
                width: 80,
            },
        );
        laid.line_text(0)
    };
    let german = Lang::by_code("de").unwrap();
    assert_eq!(
        laid(Notation::San, german),
        "1.e4 e5 2.Sf3 (2.Lc4 Sf6) 2...Sc6"
    );
    assert_eq!(
        laid(Notation::Figurine, Lang::english()),
        "1.e4 e5 2.♘f3 (2.♗c4 ♞f6) 2...♞c6"
    );
    assert_eq!(
        laid(Notation::Lan, Lang::english()),
        "1.e2-e4 e7-e5 2.Ng1-f3 (2.Bf1-c4 Ng8-f6) 2...Nb8-c6"
    );
}

#[test]
fn a_game_starting_with_black_numbers_its_first_move() {
    let pgn = "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7\"]\n\n7... e5 8. Nf3 *\n";
    let g = read_games(pgn.as_bytes()).remove(0).game;
    assert_eq!(lines(&g, MoveLayout::Inline, 80), ["7...e5 8.Nf3"]);
}

#[test]
fn nesting_five_thousand_deep_does_not_overflow() {
    // At each level a pawn move is the main line and a knight move the
    // variation, and the next level branches inside that variation.
    let mut g = Game::default();
    let (mut at, mut pos) = (NodeId::ROOT, g.start);
    let knight = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for level in 0..5000 {
        let pawn_move = if level % 2 == 0 { "a3" } else { "a6" };
        let (p, _) = crate::notation::read_move(pawn_move, &pos, Lang::english()).unwrap();
        let (n, _) = crate::notation::read_move(knight[level % 4], &pos, Lang::english()).unwrap();
        g.add_move(at, p, &pos);
        at = g.add_move(at, n, &pos);
        pos = pos.apply(n).unwrap();
    }
    for layout in [MoveLayout::Inline, MoveLayout::Indented] {
        let laid = lay_out(&g, &options(layout, 40));
        let last = laid.line_of(at).expect("the deepest move is shown");
        assert!(
            laid.line_text(last).contains("Ng8"),
            "{}",
            laid.line_text(last)
        );
    }
}

#[test]
fn the_layout_is_kept_until_the_game_changes() {
    let mut g = game(NESTED);
    let mut state = MoveTextState::default();
    let opts = options(MoveLayout::Inline, 200);
    let before = state.laid(&g, opts).line_text(0);
    // A copy (as undo keeps) has the same version and the same tree.
    let copy = g.clone();
    assert_eq!(state.laid(&copy, opts).line_text(0), before);
    let e4 = node(&g, &["e4"]);
    g.set_comment_text(e4, "best by test");
    let after = state.laid(&g, opts).line_text(0);
    assert!(after.contains("1.e4 best by test 1...e5"), "{after}");
    // Back to the copy: the old text again.
    assert_eq!(state.laid(&copy, opts).line_text(0), before);
}

#[test]
fn scrolling_moves_only_as_far_as_needed() {
    // 20 lines, 5 shown: a line of context around the cursor.
    assert_eq!(scroll_top(0, 0, 5, 20), 0);
    assert_eq!(scroll_top(0, 3, 5, 20), 0);
    assert_eq!(scroll_top(0, 4, 5, 20), 1);
    assert_eq!(scroll_top(10, 12, 5, 20), 10);
    assert_eq!(scroll_top(10, 10, 5, 20), 9);
    assert_eq!(scroll_top(0, 19, 5, 20), 15);
    assert_eq!(scroll_top(18, 19, 5, 20), 15, "no empty rows at the bottom");
    assert_eq!(scroll_top(7, 2, 1, 20), 2, "one row: the cursor's");
    assert_eq!(scroll_top(3, 1, 5, 3), 0);
}

#[test]
fn the_current_move_is_drawn_in_reverse_video_and_kept_in_view() {
    let g = game(NESTED);
    let deep = node(&g, &["e4", "e5", "f4", "d5", "Nf3", "Bg4"]);
    let widget = MoveText {
        game: &g,
        cursor: deep,
        style: Notation::San,
        lang: Lang::english(),
        layout: MoveLayout::Indented,
        color: false,
    };
    let area = Rect::new(0, 0, 30, 3);
    let mut buf = Buffer::empty(area);
    let mut state = MoveTextState::default();
    StatefulWidget::render(widget, area, &mut buf, &mut state);
    let row = |y: u16| -> String { (0..30).map(|x| buf[(x, y)].symbol()).collect() };
    let shown: Vec<String> = (0..3).map(row).collect();
    let at = shown
        .iter()
        .position(|l| l.contains("(3...Bg4 4.h3)"))
        .unwrap_or_else(|| panic!("{shown:#?}"));
    let x = shown[at].find("Bg4").unwrap() as u16;
    assert!(buf[(x, at as u16)].modifier.contains(Modifier::REVERSED));
    assert!(!buf[(x - 1, at as u16)]
        .modifier
        .contains(Modifier::REVERSED));
    assert!(state.top > 0);
}

#[test]
fn a_click_on_the_screen_finds_the_move_drawn_there() {
    let g = game(NESTED);
    let deep = node(&g, &["e4", "e5", "f4", "d5", "Nf3", "Bg4"]);
    let widget = MoveText {
        game: &g,
        cursor: deep,
        style: Notation::San,
        lang: Lang::english(),
        layout: MoveLayout::Indented,
        color: true,
    };
    let area = Rect::new(0, 0, 30, 3);
    let mut buf = Buffer::empty(area);
    let mut state = MoveTextState::default();
    assert_eq!(state.node_at(0, 0), None, "nothing drawn yet");
    StatefulWidget::render(widget, area, &mut buf, &mut state);
    for y in 0..3u16 {
        let row: String = (0..30).map(|x| buf[(x, y)].symbol()).collect();
        if let Some(x) = row.find("Bg4") {
            assert_eq!(state.node_at(usize::from(y), x), Some(deep), "{row}");
            return;
        }
    }
    panic!("Bg4 not drawn");
}

#[test]
fn layouts_by_name() {
    assert_eq!(MoveLayout::by_name("Inline"), Some(MoveLayout::Inline));
    assert_eq!(MoveLayout::by_name("indented"), Some(MoveLayout::Indented));
    assert_eq!(MoveLayout::by_name("sideways"), None);
}

#[test]
fn move_assessments_are_attached_and_other_glyphs_stand_apart() {
    let g = game("1. e4 $7 e5 $32 $8 2. Nf3 $3 $18 *");
    assert_eq!(
        lines(&g, MoveLayout::Inline, 80),
        ["1.e4□ e5 ⟳ $8 2.Nf3!! +-"]
    );
}

/// A comment of 10 MB is laid out only as far as the move list shows it: its start, about
/// [`text::COMMENT_SHOWN`] bytes of it, then `…`, whatever its length; the moves around
/// it are all there.
#[test]
fn a_huge_comment_is_laid_out_only_as_far_as_shown() {
    let words = "the knight is strong on this square ".repeat(10_000_000 / 36);
    for (place, movetext) in [
        ("after a move", format!("1. e4 {{{words}}} e5 2. Nf3 *")),
        ("before the first", format!("{{{words}}} 1. e4 e5 2. Nf3 *")),
        (
            "in a variation",
            format!("1. e4 ({{{words}}} 1. d4) e5 2. Nf3 *"),
        ),
    ] {
        let game = game(&movetext);
        for layout in [MoveLayout::Inline, MoveLayout::Indented] {
            let lines = lines(&game, layout, 80);
            let laid: usize = lines.iter().map(|l| l.len()).sum();
            assert!(
                laid < 20 * 1024,
                "{place}: {laid} bytes laid out in {} lines",
                lines.len()
            );
            let text = lines.join("\n");
            assert!(text.contains("the knight is strong"), "{place}");
            assert!(text.contains('…'), "{place}: the cut is said");
            assert!(
                text.contains("Nf3"),
                "{place}: the moves after it are there"
            );
        }
    }
}

/// A finished game's text ends with its result, after the main line and its variations,
/// as a printed game does; an unfinished one (`*`) ends with its last move.
#[test]
fn a_finished_game_ends_with_its_result() {
    let with_result = |result: &str| {
        let pgn = format!("[Result \"{result}\"]\n\n1. e4 e5 (1... c5) 2. Nf3 {result}\n");
        read_games(pgn.as_bytes()).remove(0).game
    };
    for (tag, shown) in [("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "½-½")] {
        let g = with_result(tag);
        assert_eq!(
            lines(&g, MoveLayout::Inline, 80),
            [format!("1.e4 e5 (1...c5) 2.Nf3 {shown}")],
            "{tag}"
        );
        let indented = lines(&g, MoveLayout::Indented, 80);
        assert_eq!(indented.last().unwrap(), &format!("2.Nf3 {shown}"), "{tag}");
    }
    assert_eq!(
        lines(&with_result("*"), MoveLayout::Inline, 80),
        ["1.e4 e5 (1...c5) 2.Nf3"]
    );
}
