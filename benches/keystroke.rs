//! One keystroke on the recorder: `update` plus a full draw at 80×24 and
//! 120×40, in a middlegame with a long scoresheet (the target: ≤ 1 ms median),
//! a key at the end of a very long entry line, and a key typed in the comment box on
//! a comment of 10 MB (one paragraph, and lines of a sentence each).

use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use scoresheet::app::{Action, App, Msg};
use scoresheet::config::Config;
use scoresheet::game::Game;
use scoresheet::tui::{describe_keys, settings};
use scoresheet::ui::{self, Look};

/// A 60-move game (a real one, Kasparov–Topalov, Wijk aan Zee 1999, to move 44,
/// then quiet moves) so that the scoresheet scrolls.
const GAME: &str = "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 \
O-O-O Qe7 Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 Rhe1 d4 \
Nd5 Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 Rxb7 Qc4 Qxf6 Kxa3 \
Qxa6+ Kxb4 c3+ Kxc3 Qa1+ Kd2 Qb2+ Kd1 Bf1 Rd2 Rd7 Rxd7 Bxc4 bxc4 Qxh8 Rd3 Qa8 c3 Qa4+ Ke1 f4 \
f5 Kc1 Rd2 Qa7";

fn recorder() -> App {
    let config = Config::defaults();
    let mut app = App::new(settings(&config), Game::default(), None);
    describe_keys(&mut app, &config);
    for c in GAME.chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::PlayEntry);
    assert!(app.game.mainline().len() > 80, "{}", app.message.text);
    app
}

fn keystroke(c: &mut Criterion) {
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let mut app = recorder();
        let look = Look::default();
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        // Typing a move letter by letter and erasing it: live feedback each time.
        let keys = [
            Action::Type('N'),
            Action::Type('f'),
            Action::Type('3'),
            Action::EraseChar,
            Action::EraseChar,
            Action::EraseChar,
        ];
        let mut i = 0;
        c.bench_function(&format!("type a key and draw {w}x{h}"), |b| {
            b.iter(|| {
                app.update(keys[i % keys.len()]);
                i += 1;
                term.draw(|f| ui::draw(f, &app, &look)).unwrap();
            })
        });
        let mut back = true;
        c.bench_function(&format!("walk a move and draw {w}x{h}"), |b| {
            b.iter(|| {
                app.update(if back {
                    Action::MoveBack
                } else {
                    Action::MoveForward
                });
                back = !back;
                term.draw(|f| ui::draw(f, &app, &look)).unwrap();
            })
        });
    }
}

/// A key typed at the end of a 10,000-move line (a paste in a terminal
/// without bracketed paste arrives as such keys): the live feedback must not
/// grow with the line.
fn long_line(c: &mut Criterion) {
    let config = Config::defaults();
    let mut app = App::new(settings(&config), Game::default(), None);
    for ch in "Nf3 Nf6 Ng1 Ng8 ".repeat(2500).chars() {
        app.update(Action::Type(ch));
    }
    let mut type_it = true;
    c.bench_function("type a key at the end of a 10,000-move line", |b| {
        b.iter(|| {
            app.update(if type_it {
                Action::Type('N')
            } else {
                Action::EraseChar
            });
            type_it = !type_it;
        })
    });
}

/// A 10,000-move line pasted and played: each move's position follows from
/// the one before, so the cost grows with the line, not with its square.
fn pasted_game(c: &mut Criterion) {
    let config = Config::defaults();
    let line = "Nf3 Nf6 Ng1 Ng8 ".repeat(2500);
    let mut group = c.benchmark_group("paste");
    group.sample_size(10);
    group.bench_function("play a pasted 10,000-move line", |b| {
        b.iter(|| {
            let mut app = App::new(settings(&config), Game::default(), None);
            app.update(Msg::Paste {
                text: line.clone(),
                whole: true,
            });
            assert_eq!(app.game.mainline().len(), 10_000);
        })
    });
    group.finish();
}

/// A character typed and erased in the comment box (Ctrl-K) over a comment of 10 MB,
/// with the box drawn at 120×40 each time: the text-area rewraps what it shows.
fn huge_comment(c: &mut Criterion) {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let sentence = "White keeps the bishop pair and the open file for the rooks. ";
    let one_line = sentence.repeat(10_000_000 / sentence.len());
    let lines = format!("{}\n", sentence.trim_end()).repeat(10_000_000 / sentence.len());
    let mut group = c.benchmark_group("comment box");
    group.sample_size(10);
    for (name, text) in [("one paragraph", one_line), ("short lines", lines)] {
        let mut app = recorder();
        let last = app.game.mainline().last().copied().unwrap();
        app.game.set_comment_text(last, &text);
        app.update(Action::EditComment);
        let look = Look::default();
        let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
        term.draw(|f| ui::draw(f, &app, &look)).unwrap();
        let keys = [
            KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE),
            KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE),
        ];
        let mut i = 0;
        group.bench_function(
            format!("type a key in a 10 MB comment ({name}) and draw"),
            |b| {
                b.iter(|| {
                    app.update(Msg::Key(keys[i % 2]));
                    i += 1;
                    term.draw(|f| ui::draw(f, &app, &look)).unwrap();
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, keystroke, long_line, pasted_game, huge_comment);
criterion_main!(benches);
