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
