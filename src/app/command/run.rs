//! The handlers of [`COMMANDS`](super::COMMANDS), one per command: each takes the
//! text after the command's name and whether it was typed with `!`.

use super::super::{App, Effect, Inside, Overlay};
use crate::notation::Style;

pub fn write(app: &mut App, rest: &str, bang: bool) -> Effect {
    app.write_command(rest, false, bang)
}

pub fn write_quit(app: &mut App, rest: &str, bang: bool) -> Effect {
    app.write_command(rest, true, bang)
}

pub fn quit(app: &mut App, _: &str, bang: bool) -> Effect {
    if bang {
        Effect::Quit { discard: true }
    } else if app.unsaved && !app.game.is_empty() {
        app.refuse(format!(
            "the game is not saved: {} to save it, :q! to quit without it",
            app.save_command()
        ));
        Effect::None
    } else {
        Effect::Quit { discard: false }
    }
}

pub fn edit(app: &mut App, rest: &str, bang: bool) -> Effect {
    if app.keeps_unsaved("e", bang) {
        return Effect::None;
    }
    match super::edit_args(rest) {
        Ok((path, Some(number))) => Effect::Load { path, number },
        Ok((path, None)) => Effect::Browse { path },
        Err(why) => {
            app.refuse(why);
            Effect::None
        }
    }
}

pub fn new_game(app: &mut App, _: &str, bang: bool) -> Effect {
    if app.keeps_unsaved("new", bang) {
        return Effect::None;
    }
    app.next_game();
    Effect::NewGame
}

pub fn jump(app: &mut App, number: &str, _: bool) -> Effect {
    app.jump_command(number);
    Effect::None
}

pub fn recover(_: &mut App, _: &str, _: bool) -> Effect {
    Effect::Recovery(super::super::Recovery::Offer)
}

pub fn tag(app: &mut App, rest: &str, _: bool) -> Effect {
    app.tag_command(rest);
    Effect::None
}

pub fn result(app: &mut App, rest: &str, bang: bool) -> Effect {
    app.result_command(rest, bang);
    Effect::None
}

pub fn clk(app: &mut App, rest: &str, _: bool) -> Effect {
    app.clock_command(rest, false);
    Effect::None
}

pub fn emt(app: &mut App, rest: &str, _: bool) -> Effect {
    app.clock_command(rest, true);
    Effect::None
}

pub fn comment(app: &mut App, rest: &str, _: bool) -> Effect {
    app.set_typed_comment(rest);
    Effect::None
}

pub fn fen(app: &mut App, rest: &str, bang: bool) -> Effect {
    app.fen_command(rest, bang);
    Effect::None
}

pub fn flip(app: &mut App, _: &str, _: bool) -> Effect {
    app.flipped = !app.flipped;
    Effect::None
}

pub fn lang(app: &mut App, rest: &str, _: bool) -> Effect {
    app.lang_command(rest);
    Effect::None
}

pub fn notation(app: &mut App, rest: &str, _: bool) -> Effect {
    match Style::by_name(rest) {
        Some(style @ (Style::San | Style::Figurine | Style::Lan)) => {
            app.settings.display = style;
        }
        _ => app.refuse(format!(
            "{rest:?}: the scoresheet shows san, figurine or lan"
        )),
    }
    Effect::None
}

pub fn inside(app: &mut App, rest: &str, _: bool) -> Effect {
    match rest {
        "variation" => app.inside = Inside::Variation,
        "replace" => app.inside = Inside::Replace,
        _ => {
            app.refuse("inside variation, or inside replace");
            return Effect::None;
        }
    }
    app.inform(match app.inside {
        Inside::Variation => "a move typed inside the game now starts a variation",
        Inside::Replace => "a move typed inside the game now replaces the next one",
    });
    Effect::None
}

pub fn undo(app: &mut App, _: &str, _: bool) -> Effect {
    app.undo()
}

pub fn redo(app: &mut App, _: &str, _: bool) -> Effect {
    app.redo()
}

pub fn timer(app: &mut App, _: &str, _: bool) -> Effect {
    app.toggle_timer()
}

pub fn copy(app: &mut App, rest: &str, _: bool) -> Effect {
    use crate::pgn::writer::Clip;
    match rest {
        "" | "fen" => app.copy(Clip::Fen),
        "game" | "pgn" => app.copy(Clip::Game),
        "line" => app.copy(Clip::Line),
        _ => {
            app.refuse(format!("{rest:?}: :copy fen, :copy game or :copy line"));
            Effect::None
        }
    }
}

pub fn snap(app: &mut App, _: &str, _: bool) -> Effect {
    app.snap()
}

pub fn view(app: &mut App, rest: &str, _: bool) -> Effect {
    match super::super::MovesView::by_name(rest) {
        Some(view) => {
            app.moves_view = view;
            app.view_chosen = true;
        }
        None => app.refuse(format!(
            "{rest:?}: :view sheet, :view text or :view indented"
        )),
    }
    Effect::None
}

pub fn annotate(app: &mut App, rest: &str, _: bool) -> Effect {
    app.annotate_command(rest)
}

pub fn tags(app: &mut App, _: &str, _: bool) -> Effect {
    app.open_tags()
}

pub fn list(app: &mut App, _: &str, _: bool) -> Effect {
    app.toggle_list()
}

pub fn search(app: &mut App, _: &str, _: bool) -> Effect {
    app.search_position()
}

pub fn tree(app: &mut App, _: &str, _: bool) -> Effect {
    app.toggle_tree()
}

pub fn next(app: &mut App, _: &str, _: bool) -> Effect {
    app.step_game(true)
}

pub fn prev(app: &mut App, _: &str, _: bool) -> Effect {
    app.step_game(false)
}

pub fn help(app: &mut App, _: &str, _: bool) -> Effect {
    app.overlay = Overlay::Help;
    app.help_scroll.top.set(0);
    Effect::None
}

pub fn train(app: &mut App, rest: &str, _: bool) -> Effect {
    let (what, arg) = match rest.split_once(char::is_whitespace) {
        Some((what, arg)) => (what, arg.trim()),
        None => (rest, ""),
    };
    match what {
        "guess" => match arg {
            "" => app.start_guess(None),
            "white" | "w" => app.start_guess(Some(chess::Color::White)),
            "black" | "b" => app.start_guess(Some(chess::Color::Black)),
            _ => {
                app.refuse(format!(
                    "unknown side '{}' for :train guess: white or black",
                    crate::message::shown(arg)
                ));
                Effect::None
            }
        },
        "mistakes" | "" if app.training() && what.is_empty() => app.stop_training(),
        "mistakes" | "" => {
            // A count first, when given: `:train mistakes 50 games.pgn`, `all`.
            let (last, arg) = match arg.split_once(char::is_whitespace).unwrap_or((arg, "")) {
                ("all", rest) => (None, rest.trim()),
                (n, rest) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                    match n.parse::<usize>() {
                        Ok(n) if n > 0 => (Some(n), rest.trim()),
                        _ => {
                            app.refuse(format!(
                                ":train mistakes {n}: give a number of games above 0, or all"
                            ));
                            return Effect::None;
                        }
                    }
                }
                _ => (Some(crate::study::train::mistakes::DEFAULT_LAST), arg),
            };
            let file = if arg.is_empty() {
                app.training_file()
            } else {
                Some(super::file_arg(arg))
            };
            app.ask_drill(file, last)
        }
        "stop" if app.stop_gathering() => Effect::None,
        "reveal" | "next" => app.train_reveal(),
        "stop" => app.stop_training(),
        _ => {
            app.refuse(format!(
                "unknown :train '{}': guess [white|black], mistakes [N|all] [FILE], reveal, stop",
                crate::message::shown(what)
            ));
            Effect::None
        }
    }
}

pub fn engine(app: &mut App, rest: &str, _: bool) -> Effect {
    match rest {
        "" => app.toggle_engine(),
        "restart" => app.restart_engine(),
        "play" => app.play_engine_move(),
        other => {
            app.refuse(format!(
                "unknown :engine {other:?}: :engine opens or closes the pane, \
                 :engine restart, :engine play"
            ));
            Effect::None
        }
    }
}
