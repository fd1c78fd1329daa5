//! What a refusal says: the true reason, and advice that works when it is followed.

use super::*;

/// A move given with its from-square that its piece cannot make is refused for that,
/// not for what it would do to the king; a pinned piece keeps the pin as its reason.
#[test]
fn a_long_algebraic_move_out_of_reach_says_so() {
    for (typed, why) in [
        (
            "g1f4",
            "g1f4: illegal: the white knight on g1 cannot reach f4",
        ),
        (
            "Ng1-f4",
            "Ng1-f4: illegal: the white knight on g1 cannot reach f4",
        ),
        (
            "d2d5",
            "d2d5: illegal: the white pawn on d2 cannot go to d5",
        ),
    ] {
        let mut app = app();
        type_line(&mut app, typed);
        assert!(app.message.error);
        assert_eq!(app.message.text, why);
        assert!(app.game.is_empty());
    }
    let pinned = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
    let mut app = App::new(Settings::default(), Game::new(pinned), None);
    type_line(&mut app, "e2f4");
    assert!(
        app.message.text.contains("the knight on e2 is pinned"),
        "{}",
        app.message.text
    );
}

/// With no file yet, the advice to save first names `:w FILE.pgn` (a bare `:w` is
/// refused there: no file to write to), as `:q`'s does; with a file, a bare `:w`.
#[test]
fn the_advice_to_save_first_names_a_command_that_works() {
    let paste = || Msg::Paste {
        text: "[White \"Ann\"]\n\n1. d4 d5 *\n".into(),
        whole: true,
    };
    for (file, save) in [(None, ":w FILE.pgn first"), (Some("club.pgn"), ":w first")] {
        let mut app = App::new(
            Settings::default(),
            Game::default(),
            file.map(PathBuf::from),
        );
        type_line(&mut app, "e4");
        for line in [":e other.pgn", ":new"] {
            assert_eq!(type_line(&mut app, line), Effect::None, "{line}");
            assert!(app.message.error);
            assert!(
                app.message.text.contains(save),
                "{line}: {}",
                app.message.text
            );
            app.update(Action::ClearEntry);
        }
        assert_eq!(app.update(paste()), Effect::None);
        assert!(app.message.error);
        assert!(app.message.text.contains(save), "{}", app.message.text);
        // Followed, the advice saves.
        let written = save.trim_end_matches(" first");
        assert!(matches!(type_line(&mut app, written), Effect::Save { .. }));
    }
    // Ctrl-Q on an unsaved game without a file says the same.
    let mut app = app();
    type_line(&mut app, "e4");
    app.update(Action::Quit);
    assert!(
        app.message.text.contains(":w FILE.pgn to save"),
        "{}",
        app.message.text
    );
}
