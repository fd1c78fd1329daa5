//! The move text of a large annotated game (300 moves, 200 variations with
//! nested ones inside, a clock and an evaluation on every move, comments):
//! laying it all out (what an edit costs) and a navigation keystroke with the
//! layout kept (what a step costs: finding the cursor's line and drawing the
//! rows shown). The target for a keystroke end to end is 1 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::StatefulWidget;
use scoresheet::game::{Game, NodeId};
use scoresheet::notation::{Lang, Style};
use scoresheet::pgn::read_games;
use scoresheet::ui::movetext::{lay_out, LayoutOptions, MoveLayout, MoveText, MoveTextState};

/// A 300-ply game of knight moves (legal in every position it reaches) with an
/// alternative on 200 plies, each holding a nested variation.
fn large_game() -> Game {
    let knights = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut pgn = String::from("[Event \"bench\"]\n\n{A long annotated game.} ");
    for ply in 0..300usize {
        let number = ply / 2 + 1;
        let white = ply % 2 == 0;
        if white {
            pgn.push_str(&format!("{number}. "));
        } else {
            pgn.push_str(&format!("{number}... "));
        }
        pgn.push_str(knights[ply % 4]);
        pgn.push_str(&format!(
            " {{[%clk 1:{:02}:{:02}] [%eval 0.{:02}]",
            59 - ply % 60,
            ply % 60,
            ply % 100
        ));
        if ply % 5 == 0 {
            pgn.push_str(" a comment of some length, as annotators write them, to be wrapped");
        }
        pgn.push_str("} ");
        if ply < 200 {
            let next = number + 1;
            if white {
                pgn.push_str(&format!(
                    "({{or}} {number}. a3 a6 ({number}... h6 {next}. h3) {next}. h3 $1 {{fine}}) "
                ));
            } else {
                pgn.push_str(&format!(
                    "({number}... a6 $5 {next}. a3 ({next}. h3 h6 $14) {next}... h6) "
                ));
            }
        }
    }
    pgn.push_str("*\n");
    let read = read_games(pgn.as_bytes()).remove(0);
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    assert_eq!(read.game.mainline().len(), 300);
    read.game
}

fn layout(c: &mut Criterion) {
    let game = large_game();
    for layout in [MoveLayout::Inline, MoveLayout::Indented] {
        let options = LayoutOptions {
            style: Style::San,
            lang: Lang::english(),
            layout,
            width: 51,
        };
        c.bench_function(&format!("lay out a large game, {layout:?}"), |b| {
            b.iter(|| lay_out(&game, &options))
        });
        let figurine = LayoutOptions {
            style: Style::Figurine,
            ..options
        };
        c.bench_function(
            &format!("lay out a large game in figurine, {layout:?}"),
            |b| b.iter(|| lay_out(&game, &figurine)),
        );
    }
}

fn keystroke(c: &mut Criterion) {
    let game = large_game();
    // Every move in text order: a walk through the whole game.
    let mut order = Vec::new();
    let mut stack = vec![NodeId::ROOT];
    while let Some(at) = stack.pop() {
        order.push(at);
        stack.extend(game.node(at).children.iter().rev());
    }
    let area = Rect::new(0, 0, 51, 22);
    let mut buf = Buffer::empty(area);
    let mut state = MoveTextState::default();
    let mut i = 0;
    c.bench_function("step a move and draw the move text 51x22", |b| {
        b.iter(|| {
            i = (i + 1) % order.len();
            let widget = MoveText {
                game: &game,
                cursor: order[i],
                style: Style::San,
                lang: Lang::english(),
                layout: MoveLayout::Indented,
                color: true,
            };
            buf.reset();
            widget.render(area, &mut buf, &mut state);
        })
    });
}

criterion_group!(benches, layout, keystroke);
criterion_main!(benches);
