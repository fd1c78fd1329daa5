//! The recorder's screen drawn into a test terminal at 80×24 and 120×40, and
//! snapshotted; colours are checked by reading cells.

use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;
use scoresheet::app::{Action, App, Overlay, RecoverBox};
use scoresheet::config::Config;
use scoresheet::game::Game;
use scoresheet::position::Position;
use scoresheet::store::{Change, SaveError};
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};

fn app_with(start: Position, lines: &[&str]) -> App {
    let config = Config::defaults();
    let mut game = Game::new(start);
    game.set_tag("Event", "Club Rapid");
    game.set_tag("Date", "2026.11.21");
    game.set_tag("White", "Ann");
    game.set_tag("Black", "Bob");
    let mut app = App::new(settings(&config), game, Some("club.pgn".into()));
    describe_keys(&mut app, &config);
    for line in lines {
        for c in line.chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::PlayEntry);
    }
    app
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        app.update(Action::Type(c));
    }
}

fn draw(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| ui::draw(f, app, &Look::default())).unwrap();
    term
}

const MIDDLEGAME: &str = "e4 +1:29:40 c5 +1:29:50 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O Nbd7 g4 b5 g5 b4";

#[test]
fn start_position() {
    let app = app_with(Position::start(), &[]);
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("start_{w}x{h}"), term.backend());
    }
}

#[test]
fn middlegame_with_the_matching_moves_highlighted() {
    let mut app = app_with(Position::start(), &[MIDDLEGAME]);
    typed(&mut app, "N");
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("middlegame_{w}x{h}"), term.backend());
    }
    // The knights' squares are lit: c3 and its targets, in the hint colour.
    let term = draw(&app, 80, 24);
    let buf = term.backend().buffer();
    let palette = Look::default().palette();
    // With 3×1 squares and coordinates, c3 is at column 2 + 2*3 + 1, row 5.
    let (r, g, b) = palette.hint_light;
    let (rd, gd, bd) = palette.hint_dark;
    let bg = buf[(2 + 2 * 3 + 1, 5)].bg;
    assert!(
        bg == Color::Rgb(r, g, b) || bg == Color::Rgb(rd, gd, bd),
        "{bg:?}"
    );
    // The last move (…b4) is marked.
    let (lr, lg, lb) = palette.last_light;
    let (dr, dg, db) = palette.last_dark;
    let b4 = buf[(2 + 3 + 1, 4)].bg;
    assert!(
        b4 == Color::Rgb(lr, lg, lb) || b4 == Color::Rgb(dr, dg, db),
        "{b4:?}"
    );
}

#[test]
fn ambiguity_message() {
    let start = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
    let mut app = app_with(start, &[]);
    typed(&mut app, "Rd1");
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("ambiguous_{w}x{h}"), term.backend());
    }
}

#[test]
fn help_overlay() {
    let mut app = app_with(Position::start(), &["e4 e5"]);
    app.update(Action::Help);
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("help_{w}x{h}"), term.backend());
    }
}

#[test]
fn ascii_mode_and_the_256_colour_fallback() {
    let app = app_with(Position::start(), &["e4"]);
    let look = Look {
        ascii: true,
        truecolor: false,
        ..Look::default()
    };
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    term.draw(|f| ui::draw(f, &app, &look)).unwrap();
    let buf = term.backend().buffer();
    let row = |y: u16| {
        (0..28)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect::<String>()
    };
    assert_eq!(row(0).trim_end(), "8  r  n  b  q  k  b  n  r");
    assert_eq!(row(4).trim_end(), "4              P");
    assert!(
        matches!(buf[(3, 0)].bg, Color::Indexed(_)),
        "{:?}",
        buf[(3, 0)].bg
    );
}

#[test]
fn the_scoresheet_follows_the_cursor() {
    let moves = "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 \
        O-O-O Qe7 Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 \
        Rhe1 d4 Nd5 Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7";
    let mut app = app_with(Position::start(), &[moves]);
    let text = |app: &App| draw(app, 80, 24).backend().to_string();
    let end = text(&app);
    assert!(end.contains("29. Ra7"), "{end}");
    assert!(!end.contains(" 1. e4"), "{end}");
    app.update(Action::GoStart);
    app.update(Action::MoveForward);
    let start = text(&app);
    assert!(start.contains(" 1. e4"), "{start}");
    assert!(!start.contains("29. Ra7"), "{start}");
}

/// The result typed at the end is written under the last move, as on a paper scoresheet;
/// a game going on has none.
#[test]
fn the_scoresheet_ends_with_the_result() {
    let mut app = app_with(Position::start(), &["e4 e5 Qh5 Nc6 Bc4 Nf6"]);
    let text = |app: &App| draw(app, 80, 24).backend().to_string();
    let playing = text(&app);
    assert!(playing.contains("3. Bc4"), "{playing}");
    assert!(!playing.contains("1-0"), "{playing}");
    // Black resigns instead of being mated.
    typed(&mut app, "1-0");
    app.update(Action::PlayEntry);
    let over = text(&app);
    let last = over.lines().position(|l| l.contains("3. Bc4")).unwrap();
    assert!(
        over.lines().nth(last + 1).unwrap().contains("     1-0"),
        "{over}"
    );
}

#[test]
fn help_and_hints_follow_the_key_bindings() {
    let config = Config::from_toml_str("[keys]\nhelp = [\"F4\"]\nundo = [\"Alt-x\"]\n").unwrap();
    let mut app = App::new(settings(&config), Game::default(), None);
    describe_keys(&mut app, &config);
    app.update(Action::Help);
    let screen = draw(&app, 120, 40).backend().to_string();
    assert!(screen.contains("F4 help"), "{screen}");
    assert!(screen.contains("Alt-x undo"), "{screen}");
    assert!(!screen.contains("F1"), "{screen}");
}

fn draw_with(app: &App, look: &Look, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| ui::draw(f, app, look)).unwrap();
    term
}

/// The screen's rows as text (a wide letter's second cell is left out).
fn rows_of(term: &Terminal<TestBackend>) -> Vec<String> {
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            let mut row = String::new();
            let mut x = 0;
            while x < buf.area.width {
                let symbol = buf[(x, y)].symbol();
                row.push_str(symbol);
                x += (unicode_width::UnicodeWidthStr::width(symbol) as u16).max(1);
            }
            row
        })
        .collect()
}

/// Screens with everything that can be long or in the way at once.
fn crowded_apps() -> Vec<(&'static str, App)> {
    let plain = || {
        let mut plain = app_with(Position::start(), &["e4 e5"]);
        plain
            .game
            .set_tag("White", "Nepomniachtchi, Ian Alexandrovich 丁立人");
        plain.game.set_tag("WhiteElo", "2789");
        plain.game.set_tag("BlackElo", "2780");
        plain.game.set_tag(
            "Event",
            "世界象棋锦标赛 World Championship Match, game 14 of 14",
        );
        plain.opening = Some(
            "C20 King's Pawn Game: Wayward Queen Attack, Kiddie Countergambit and more".into(),
        );
        plain
    };
    let mut help = plain();
    help.update(Action::Help);
    let mut scrolled = plain();
    scrolled.update(Action::Help);
    scrolled.update(Action::PageForward);
    let mut long_entry = plain();
    typed(&mut long_entry, &"Nf3 Nc6 Bb5 a6 ".repeat(20));
    let mut comments = plain();
    for c in "{a long comment that goes on and on about the opening, 长评论 with wide letters, and a word like Abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz".chars() {
        comments.update(Action::Type(c));
    }
    comments.update(Action::PlayEntry);
    let mut message = plain();
    typed(&mut message, "Ke2 Ke7 Ke1 Ke8 Qh5 Qh4 Qxf7");
    message.update(Action::PlayEntry);
    let start = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
    let mut promotion = app_with(start, &[]);
    typed(&mut promotion, "e8");
    promotion.update(Action::PlayEntry);
    let mut recover = plain();
    recover.overlay = Overlay::Recover(RecoverBox {
        games: vec![
            "Ann – Bob, 2026.11.21, 60 moves, last written 21:04 (a long description of it)"
                .into();
            3
        ],
        broken: vec!["a journal that cannot be read: a long reason why, and what to do".into()],
        selected: 1,
        confirm_discard: false,
    });
    // The vim preset's mode takes room at the start of the entry line.
    let vim_config = Config::from_toml_str("[keys]\npreset = \"vim\"\n").unwrap();
    let mut vim_normal = plain();
    vim_normal.set_keymap(scoresheet::app::Keymap::new(&vim_config.keys).unwrap());
    let mut vim_insert = plain();
    vim_insert.set_keymap(scoresheet::app::Keymap::new(&vim_config.keys).unwrap());
    vim_insert.update(Action::InsertMode);
    typed(&mut vim_insert, &"Nf3 Nc6 Bb5 a6 ".repeat(20));
    vec![
        ("plain", plain()),
        ("vim normal", vim_normal),
        ("vim insert", vim_insert),
        ("help", help),
        ("scrolled help", scrolled),
        ("long entry", long_entry),
        ("long comment", comments),
        ("long message", message),
        ("promotion", promotion),
        ("recover", recover),
    ]
}

#[test]
fn every_size_down_to_one_by_one_draws_without_panicking() {
    let looks = [
        Look::default(),
        Look {
            color: false,
            ascii: true,
            square: ui::SquareSize::Large,
            ..Look::default()
        },
    ];
    // Every width at the heights where the layout changes, and every height at
    // the widths where it changes (the edges of each part, and common sizes).
    let heights: Vec<u16> = (1..=14).chain([16, 18, 24, 30, 33, 40, 45]).collect();
    let widths: Vec<u16> = (1..=22)
        .chain([
            26, 27, 28, 29, 30, 40, 51, 52, 53, 54, 60, 79, 80, 81, 100, 120, 130,
        ])
        .collect();
    let mut sizes: Vec<(u16, u16)> = Vec::new();
    for &h in &heights {
        sizes.extend((1..=130).map(|w| (w, h)));
    }
    for &w in &widths {
        sizes.extend((1..=45).map(|h| (w, h)));
    }
    for (what, app) in crowded_apps() {
        for (i, &(width, height)) in sizes.iter().enumerate() {
            // The plain screen at every size of the set, the others at a quarter;
            // the two looks take turns.
            if what != "plain" && i % 4 != 0 {
                continue;
            }
            let turn = if what == "plain" { i } else { i / 4 };
            let look = &looks[turn % 2];
            let term = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                draw_with(&app, look, width, height)
            }))
            .unwrap_or_else(|_| panic!("{what} at {width}×{height} panicked"));
            let text = rows_of(&term).concat();
            assert!(
                !text.trim().is_empty(),
                "{what} at {width}×{height} drew nothing"
            );
            if width < ui::MIN_WIDTH || height < ui::MIN_HEIGHT {
                // The whole request, however it wraps.
                let asked = ui::enlarge_lines(width, height, 0).join(" ");
                let rows = rows_of(&term).join(" ");
                let said = rows.split_whitespace().collect::<Vec<_>>().join(" ");
                assert_eq!(said, asked, "{what} at {width}×{height}");
            } else if what == "plain" {
                // The entry line is always there to type on.
                assert!(text.contains("2. ▏"), "{what} at {width}×{height}: {text}");
            }
        }
    }
}

#[test]
fn a_small_terminal_keeps_the_entry_line_and_asks_for_room_for_the_board() {
    let app = app_with(Position::start(), &["e4 e5 Nf3"]);
    for (w, h) in [(80, 9), (40, 12), (20, 4), (12, 3)] {
        let term = draw(&app, w, h);
        insta::assert_snapshot!(format!("small_{w}x{h}"), term.backend());
    }
}

/// A position with a check, a last move and candidates: 1.e4 f6 2.d4 Kf7 3.Qh5+,
/// then `Ke6` typed (the king's move is lit).
fn check_app() -> App {
    let mut app = app_with(Position::start(), &["e4 f6 d4 Kf7 Qh5+"]);
    typed(&mut app, "Ke6");
    app
}

/// The board's part of a row: its first 28 cells.
fn head(row: &str) -> String {
    row.chars().take(28).collect()
}

#[test]
fn without_colour_the_sides_and_the_marks_still_read() {
    let app = check_app();
    let look = Look {
        color: false,
        ..Look::default()
    };
    let term = draw_with(&app, &look, 80, 24);
    insta::assert_snapshot!("no_color_80x24", term.backend());
    let buf = term.backend().buffer();
    for cell in buf.content() {
        assert_eq!(cell.fg, Color::Reset, "{cell:?}");
        assert_eq!(cell.bg, Color::Reset, "{cell:?}");
    }
    let rows = rows_of(&term);
    // White's pieces are outlines, Black's filled; the king in check between
    // `> <`, the last move (Qd1-h5) in brackets, the typed move's square (e6)
    // in parentheses.
    assert_eq!(head(&rows[7]), "1  ♖  ♘  ♗ [·] ♔  ♗  ♘  ♖   ");
    assert_eq!(head(&rows[4]), "4  ·  ·  ·  ♙  ♙  ·  ·  ·   ");
    assert_eq!(head(&rows[0]), "8  ♜  ♞  ♝  ♛  ·  ♝  ♞  ♜   ");
    assert_eq!(head(&rows[1]), "7  ♟  ♟  ♟  ♟  ♟ >♚< ♟  ♟   ");
    assert_eq!(head(&rows[3]), "5  ·  ·  ·  ·  ·  ·  · [♕]  ");
    assert_eq!(head(&rows[2]), "6  ·  ·  ·  · (·) ♟  ·  ·   ");
    // The check is in reverse video too.
    let king = buf[(2 + 5 * 3 + 1, 1)].modifier;
    assert!(
        king.contains(ratatui::style::Modifier::REVERSED),
        "{king:?}"
    );
}

#[test]
fn ascii_board_shows_the_side_by_case() {
    let app = check_app();
    let look = Look {
        ascii: true,
        color: false,
        ..Look::default()
    };
    let term = draw_with(&app, &look, 80, 24);
    insta::assert_snapshot!("ascii_no_color_80x24", term.backend());
    let rows = rows_of(&term);
    assert!(
        rows[0].starts_with("8  r  n  b  q  .  b  n  r"),
        "{}",
        rows[0]
    );
    assert!(
        rows[1].starts_with("7  p  p  p  p  p >k< p  p"),
        "{}",
        rows[1]
    );
    assert!(
        rows[7].starts_with("1  R  N  B [.] K  B  N  R"),
        "{}",
        rows[7]
    );
}

#[test]
fn wide_letters_and_long_names_do_not_push_things_off_the_screen() {
    let mut app = app_with(Position::start(), &["e4 e5"]);
    app.file = Some("棋譜/クラブの対局.pgn".into());
    app.opening = Some(
        "C20 King's Pawn Game: Wayward Queen Attack, Kiddie Countergambit, and a name this long"
            .into(),
    );
    app.game
        .set_tag("White", "Nepomniachtchi, Ian Alexandrovich");
    app.game.set_tag("WhiteElo", "2789");
    app.game.set_tag("Black", "丁立人丁立人丁立人丁立人");
    app.game.set_tag("BlackElo", "2780");
    let term = draw(&app, 80, 24);
    insta::assert_snapshot!("long_names_80x24", term.backend());
    let rows = rows_of(&term);
    let opening_row = &rows[20];
    // The file ends at the right edge, whole, with its unsaved mark.
    assert!(
        opening_row.ends_with("クラブの対局.pgn [+]"),
        "{opening_row}"
    );
    assert!(
        opening_row.starts_with("C20 King's Pawn Game"),
        "{opening_row}"
    );
    // The ratings are whole beside the cut names.
    let screen = rows.concat();
    assert!(screen.contains("(2789)"), "{screen}");
    assert!(screen.contains("(2780)"), "{screen}");
}

#[test]
fn long_comments_wrap_in_the_scoresheet() {
    let mut app = app_with(Position::start(), &["e4"]);
    typed(
        &mut app,
        "{the most popular first move, it frees the queen and the bishop and fights for the centre at once",
    );
    app.update(Action::PlayEntry);
    let screen = draw(&app, 80, 24).backend().to_string();
    assert!(screen.contains("{the most popular"), "{screen}");
    assert!(screen.contains("at once}"), "{screen}");
}

#[test]
fn a_long_message_wraps_to_a_second_row_with_its_advice() {
    let mut app = app_with(Position::start(), &[]);
    typed(&mut app, ":notation nonsense-that-is-long");
    app.update(Action::PlayEntry);
    app.update(Action::ClearEntry);
    app.refuse("the game is not saved: :w first, or :new! to leave it (the journal keeps it for scoresheet recover)");
    let screen = draw(&app, 80, 24).backend().to_string();
    assert!(screen.contains("scoresheet recover)"), "{screen}");
}

/// A pasted game with a move that cannot be played: Enter leaves the line to be fixed
/// and the screen says which move and why, not that Enter would play it.
#[test]
fn a_refused_long_line_shows_why_it_was_refused() {
    let mut app = app_with(Position::start(), &[]);
    typed(
        &mut app,
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Qh9 Nf6",
    );
    app.update(Action::PlayEntry);
    assert!(app.game.is_empty(), "nothing is played from a refused line");
    let screen = draw(&app, 80, 24).backend().to_string();
    assert!(screen.contains("Qh9:"), "{screen}");
    assert!(!screen.contains("Enter reads it whole"), "{screen}");
    // Editing the line keeps the reason until the line is read again.
    app.update(Action::EraseChar);
    let screen = draw(&app, 80, 24).backend().to_string();
    assert!(screen.contains("Qh9:"), "{screen}");
}

#[test]
fn the_longest_refusals_keep_their_advice_at_80x24() {
    // The save refused because the file changed on disk: its advice comes last.
    for change in [
        Change::Edited,
        Change::Shorter { size: 12 },
        Change::Copies { count: 12 },
    ] {
        let mut app = app_with(Position::start(), &["e4 e5"]);
        let refusal = SaveError::ChangedOnDisk {
            path: "/home/me/chess/club-championship-2026/round-7.pgn".into(),
            offset: 120_431,
            len: 776,
            change,
        };
        app.refuse(refusal.to_string());
        let screen = draw(&app, 80, 24).backend().to_string();
        // Wrapped over rows: compared without the blanks and the rows' quotes.
        let text: String = screen
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '"')
            .collect();
        assert!(
            text.contains(":e!FILEreadsthefileagain(thejournalkeepsyourgame)"),
            "{screen}"
        );
    }
}

#[test]
fn help_scrolls_and_lists_every_command_with_its_bang_form() {
    let mut app = app_with(Position::start(), &["e4 e5"]);
    app.update(Action::Help);
    let mut seen = String::new();
    for _ in 0..40 {
        seen.push_str(&draw(&app, 80, 24).backend().to_string());
        app.update(Action::PageForward);
    }
    assert_eq!(app.overlay, Overlay::Help, "scrolling keeps the help open");
    for c in scoresheet::app::command::COMMANDS {
        assert!(
            seen.contains(&format!(":{}", c.name)),
            ":{} missing",
            c.name
        );
        if !c.bang.is_empty() {
            assert!(
                seen.contains(&format!(":{}!", c.name)),
                ":{}! missing",
                c.name
            );
        }
    }
    for (form, _) in scoresheet::app::help::ENTRY_SYNTAX {
        assert!(seen.contains(form), "{form} missing");
    }
    // Descriptions are whole (wrapped, never cut with an ellipsis).
    assert!(seen.contains("Mark the move a mistake (?)"), "{seen}");
    // Scrolled to the end and back to the top.
    app.update(Action::GoStart);
    let top = draw(&app, 80, 24).backend().to_string();
    assert!(top.contains("Keys"), "{top}");
    app.update(Action::Cancel);
    assert_eq!(app.overlay, Overlay::None);
}

#[test]
fn control_characters_from_a_file_never_reach_the_terminal() {
    // A game opened from a file may hold anything in its tags and comments: an escape
    // sequence drawn as it is would be obeyed by the terminal.
    let mut app = app_with(Position::start(), &["e4"]);
    app.game.set_tag("White", "x\u{1b}[2Jy");
    app.game.set_tag("Event", "bell\u{7}");
    let e4 = app.game.mainline()[0];
    app.game.set_comment_text(e4, "a\u{1b}]0;title\u{7}b");
    let term = draw(&app, 120, 40);
    let buf = term.backend().buffer();
    let mut seen = String::new();
    for cell in buf.content() {
        assert!(
            !cell.symbol().chars().any(char::is_control),
            "a control character in a cell: {:?}",
            cell.symbol()
        );
        seen.push_str(cell.symbol());
    }
    // The rest of the text is still there.
    assert!(seen.contains("[2Jy"), "{seen}");
}

#[test]
fn guessing_the_move_hides_the_game_and_shows_the_training_panel() {
    let mut app = app_with(Position::start(), &["e4 e5 Nf3 Nc6 Bb5 a6"]);
    // A finished game: its result would tell how it ends.
    app.game.set_tag("Result", "1-0");
    for line in [":train guess white", "e4", "Nc3"] {
        typed(&mut app, line);
        app.update(Action::PlayEntry);
    }
    for (w, h) in [(80, 24), (120, 40)] {
        let term = draw(&app, w, h);
        let text = format!("{:?}", term.backend());
        // The hidden moves are nowhere on the screen; the panel holds the score.
        assert!(!text.contains("Nf3") && !text.contains("Bb5"), "{text}");
        assert!(
            !text.contains("1-0"),
            "the result gives the end away: {text}"
        );
        assert!(text.contains("Guess the move: White"), "{text}");
        insta::assert_snapshot!(format!("training_guess_{w}x{h}"), term.backend());
    }
    // Every size draws (down to 1×1) while training.
    for w in 1..=40 {
        for h in 1..=14 {
            draw(&app, w, h);
        }
    }
}

/// A drill of your mistakes shows positions from other games than the one set aside:
/// the line under the board says training, not the set-aside game's file and its
/// unsaved mark (which named another game than the board's).
#[test]
fn a_drill_names_no_game_of_the_file_set_aside() {
    use scoresheet::app::Done;
    use scoresheet::study::train::Exercise;
    let mut app = app_with(Position::start(), &["d4 d5 c4"]);
    let before = format!("{:?}", draw(&app, 80, 24).backend());
    assert!(before.contains("club.pgn [+]"), "{before}");
    app.update(Done::Drill {
        exercises: vec![Exercise {
            fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2".into(),
            played: "f2f4".into(),
            answers: Vec::new(),
            before: Some(55.0),
            lost: 12.5,
            source: "Me – Them, 2017.05.19, 2.f4".into(),
            line: vec!["e2e4".into(), "e7e5".into()],
            start: None,
            recency: None,
        }],
        due: 0,
        note: "drill: 1 new".into(),
        record: false,
    });
    for (w, h) in [(80, 24), (120, 40)] {
        let text = format!("{:?}", draw(&app, w, h).backend());
        assert!(text.contains("training: your mistakes"), "{text}");
        assert!(!text.contains("club.pgn"), "{text}");
    }
}

/// With `[keys] preset = "vim"` the entry line starts with the mode; normal mode
/// has no cursor (nothing types there) and its hints name the letters.
#[test]
fn vim_preset_shows_its_mode() {
    let config = Config::from_toml_str("[keys]\npreset = \"vim\"\n").unwrap();
    let mut game = Game::default();
    game.set_tag("Date", "2026.11.21");
    let mut app = App::new(settings(&config), game, Some("club.pgn".into()));
    describe_keys(&mut app, &config);
    app.update(Action::InsertMode);
    typed(&mut app, "e4 e5");
    app.update(Action::PlayEntry);
    typed(&mut app, "N");
    let insert = draw(&app, 80, 24);
    insta::assert_snapshot!("vim_insert_80x24", insert.backend());
    app.update(Action::Cancel);
    let normal = draw(&app, 80, 24);
    insta::assert_snapshot!("vim_normal_80x24", normal.backend());
    app.update(Action::Help);
    let help = draw(&app, 80, 24).backend().to_string();
    assert!(help.contains("Modes (vim preset)"), "{help}");
    assert!(help.contains("NORMAL (now)"), "{help}");
    assert!(help.contains("↑↓ kj PgUp PgDn scroll"), "{help}");
}

/// The recovery box says what typing does under it: over a new game a move starts
/// it; over a game read from a file (`scoresheet FILE` of one game) it goes on that
/// game's entry line, and starts nothing new.
#[test]
fn the_recovery_box_says_what_typing_does_under_it() {
    let boxed = |mut app: App| {
        app.overlay = Overlay::Recover(RecoverBox {
            games: vec!["Ann – Bob, 2026.11.21, 60 moves, last written 21:04".into()],
            broken: Vec::new(),
            selected: 0,
            confirm_discard: false,
        });
        format!("{:?}", draw(&app, 120, 40).backend())
    };
    let over_new = boxed(app_with(Position::start(), &[]));
    assert!(over_new.contains("typing starts a new game"), "{over_new}");
    let over_game = boxed(app_with(Position::start(), &["e4 e5 Nf3"]));
    assert!(!over_game.contains("new game"), "{over_game}");
    assert!(
        over_game.contains("typing goes on the entry line"),
        "{over_game}"
    );
    // `scoresheet train FILE` offers the box over the drill.
    let mut training = app_with(Position::start(), &["e4 e5 Nf3"]);
    typed(&mut training, ":train guess white");
    training.update(Action::PlayEntry);
    let over_drill = boxed(training);
    assert!(
        over_drill.contains("typing answers the exercise"),
        "{over_drill}"
    );
}
