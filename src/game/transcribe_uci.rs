//! The UCI-log form of free move text: what a GUI or an engine logged, read as the game
//! of its last `position` command.

use super::{err, reason, Transcript};
use crate::game::{Game, NodeId};
use crate::notation::{read_move, Lang};
use crate::position::Position;

/// The last `position startpos|fen … moves …` command of a UCI log, with its line
/// number and the byte offset where the command starts in that line.
fn last_uci_position(text: &str) -> Option<(usize, usize, &str)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            ["position startpos", "position fen "]
                .iter()
                .filter_map(|p| line.find(p))
                .min()
                .map(|at| (i + 1, at, line))
        })
        .last()
}

/// A UCI log (a GUI's or an engine's): the game is the last `position` command's
/// moves, followed by the `bestmove` answered to it, if any.
pub(super) fn transcribe_uci_log(text: &str, fen_given: Option<Position>) -> Option<Transcript> {
    let (line_no, at, line) = last_uci_position(text)?;
    let mut words = Vec::new();
    let mut col = line[..at].chars().count() + 1;
    for w in line[at..].split(' ') {
        if !w.is_empty() {
            words.push((w, col));
        }
        col += w.chars().count() + 1;
    }
    let mut start = fen_given.unwrap_or_default();
    let mut i = 2;
    if words.get(1).map(|w| w.0) == Some("fen") {
        let fen: Vec<&str> = words[2..]
            .iter()
            .map(|w| w.0)
            .take_while(|w| *w != "moves")
            .collect();
        i = 2 + fen.len();
        match Position::from_fen(&fen.join(" ")) {
            Ok(p) => start = p,
            Err(e) => {
                let mut game = Game::new(start);
                game.set_tag("Result", "*");
                return Some(Transcript {
                    start: (line_no, 1, String::new()),
                    game,
                    error: Some(err(
                        line_no,
                        words[1].1,
                        &fen.join(" "),
                        &format!("bad FEN: {e}"),
                    )),
                });
            }
        }
    }
    let mut moves: Vec<(usize, usize, &str)> = Vec::new();
    if words.get(i).map(|w| w.0) == Some("moves") {
        moves.extend(words[i + 1..].iter().map(|(w, c)| (line_no, *c, *w)));
    }
    // The engine's answer to that position, if the log has it.
    for (j, later) in text.lines().enumerate().skip(line_no) {
        if let Some(b) = later.find("bestmove ") {
            let mv = later[b + 9..].split_whitespace().next().unwrap_or("");
            if !mv.is_empty() && mv != "(none)" {
                let c = later[..b + 9].chars().count() + 1;
                moves.push((j + 1, c, mv));
            }
            break;
        }
    }
    let mut game = Game::new(start);
    if start != Position::start() {
        game.set_tag("SetUp", "1");
        game.set_tag("FEN", &start.fen());
    }
    let mut pos = start;
    let mut at_node = NodeId::ROOT;
    for (k, &(l, c, text)) in moves.iter().enumerate() {
        match read_move(text, &pos, Lang::english()) {
            Ok((mv, _)) => {
                at_node = game.add_move(at_node, mv, &pos);
                pos = pos.apply(mv).unwrap_or(pos);
            }
            Err(e) => {
                game.set_tag("Result", "*");
                let e = err(l, c, text, &reason(&e, text, &pos, Lang::english()));
                // The moves not played are kept in a comment, as for any transcript.
                let rest: Vec<&str> = moves[k..].iter().map(|m| m.2).collect();
                super::keep_unread(&mut game, at_node, &e, &rest.join(" "));
                return Some(Transcript {
                    start: (line_no, 1, String::new()),
                    game,
                    error: Some(e),
                });
            }
        }
    }
    game.set_tag("Result", "*");
    Some(Transcript {
        start: (line_no, 1, String::new()),
        game,
        error: None,
    })
}
