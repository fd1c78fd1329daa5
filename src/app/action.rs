//! Everything the user can ask for, each declared once in [`ACTIONS`]: its
//! stable kebab-case name (the key of the `[keys]` table in the configuration),
//! its one-line description, the screens it works on, its default keys, its
//! label on the hint line and its handler. The [`Action`] enum, the keymap, the
//! help screen, the hint line, `config.example.toml` and the README's key table
//! all come from this one list: adding an action is one entry here.

use super::{App, Effect, Screen};
use crate::catalog::Column;
use crate::game::notes::CommentPlace;

/// The screens an action works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screens(u8);

impl Screens {
    /// The game (recording or reading one).
    pub const GAME: Screens = Screens(1);
    /// The list of a file's games.
    pub const LIST: Screens = Screens(2);
    /// Every screen.
    pub const ALL: Screens = Screens(3);

    /// True when the action works on `screen`.
    pub fn has(self, screen: Screen) -> bool {
        self.0
            & match screen {
                Screen::Game => 1,
                Screen::List => 2,
            }
            != 0
    }

    /// The screens' names, for the help and the README (`game`, `list`, `all`).
    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "game",
            2 => "list",
            _ => "all",
        }
    }
}

/// An action's declaration.
pub struct Decl {
    /// The kebab-case name used in `[keys]`.
    pub name: &'static str,
    /// What it does, in one line.
    pub doc: &'static str,
    /// Where it works.
    pub screens: Screens,
    /// Its default keys, as written in `[keys]`.
    pub keys: &'static [&'static str],
    /// The keys `[keys] preset = "vim"` adds (a character among them acts in
    /// normal mode only: in insert mode it types).
    pub vim: &'static [&'static str],
    /// Its short label on the hint line; empty when it is not there.
    pub hint: &'static str,
    /// The action.
    pub action: Action,
    /// What it does to the app.
    pub run: fn(&mut App) -> Effect,
}

macro_rules! actions {
    ($(
        $variant:ident $name:literal on $screens:ident keys [$($key:literal),*]
            $(vim [$($vim:literal),*])? hint $hint:literal
            doc $doc:literal => $run:expr;
    )*) => {
        /// One thing the user asks for: a character typed, or a declared action.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Action {
            /// A character typed on the entry line (not bindable: it is the text itself).
            Type(char),
            $(
                #[doc = $doc]
                $variant,
            )*
        }

        /// Every action, in the order the help screen lists them.
        pub const ACTIONS: &[Decl] = &[$(
            Decl {
                name: $name,
                doc: $doc,
                screens: Screens::$screens,
                keys: &[$($key),*],
                vim: &[$($($vim),*)?],
                hint: $hint,
                action: Action::$variant,
                run: $run,
            },
        )*];
    };
}

actions! {
    Help "help" on ALL keys ["F1", "?"] hint "help"
        doc "Show the keys and commands" => |app| {
            app.overlay = super::Overlay::Help;
            app.help_scroll.top.set(0);
            Effect::None
        };
    PlayEntry "play-entry" on GAME keys ["Enter"] hint ""
        doc "Play the move or run the command on the entry line" => App::play_entry;
    EraseChar "erase-char" on ALL keys ["Backspace"] hint ""
        doc "Erase the last character of the entry line (of the filter, on the list)" => |app| {
            if app.screen == Screen::List {
                return app.list_erase();
            }
            app.entry.pop();
            Effect::None
        };
    ClearEntry "clear-entry" on ALL keys ["Ctrl-u"] hint ""
        doc "Clear the entry line (on the list: the command, else the filter being typed)" => |app| {
            if app.screen == Screen::List && app.entry.is_empty() {
                return app.list_clear_filter();
            }
            app.entry.clear();
            Effect::None
        };
    Cancel "cancel" on ALL keys ["Esc"] hint ""
        doc "Close the overlay or clear the entry line (on the list: close the filter line, then take off a :search, then clear the filter; on an empty line, stop :annotate or the search for your mistakes; vim preset: back to normal mode)" => |app| {
            if app.screen == Screen::List {
                if app.esc_stops_gathering() {
                    return Effect::None;
                }
                return app.list_cancel();
            }
            if app.leave_insert() || app.esc_stops_gathering() {
                return Effect::None;
            }
            // Esc on an empty line stops an annotation under way.
            if app.entry.is_empty() && app.annotating.is_some() {
                app.stop_annotating();
                return Effect::None;
            }
            app.entry.clear();
            app.message = super::Message::default();
            Effect::None
        };
    HistoryPrev "history-prev" on GAME keys ["Up"] vim ["k"] hint ""
        doc "At a fork (nothing typed), choose the move above; else recall the previous entry (not in normal mode)"
        => |app| app.up_down(true);
    HistoryNext "history-next" on GAME keys ["Down"] vim ["j"] hint ""
        doc "At a fork (nothing typed), choose the move below; else recall the next entry (not in normal mode)"
        => |app| app.up_down(false);
    MoveBack "move-back" on GAME keys ["Left"] vim ["h"] hint "back"
        doc "Go back one move" => |app| app.walk(-1);
    MoveForward "move-forward" on GAME keys ["Right"] vim ["l"] hint "forward"
        doc "Go forward one move (at a fork, the move chosen with Up/Down)" => |app| app.walk(1);
    PageBack "page-back" on GAME keys ["PageUp"] hint ""
        doc "Go back ten moves" => |app| app.walk(-20);
    PageForward "page-forward" on GAME keys ["PageDown"] hint ""
        doc "Go forward ten moves" => |app| app.walk(20);
    GoStart "go-start" on GAME keys ["Home"] vim ["0", "g"] hint ""
        doc "Go to the start of the game" => |app| app.go(crate::game::NodeId::ROOT);
    GoEnd "go-end" on GAME keys ["End"] vim ["$", "G"] hint ""
        doc "Go to the end of the line" => |app| app.go(app.line_end(app.cursor));
    EnterVariation "enter-variation" on GAME keys ["Shift-Right"] vim ["L"] hint ""
        doc "Go into the variation at this move (at a fork, the one chosen)"
        => App::enter_variation;
    LeaveVariation "leave-variation" on GAME keys ["Shift-Left"] vim ["H"] hint ""
        doc "Leave this variation: back to the move it branches from" => App::leave_variation;
    NextVariation "next-variation" on GAME keys ["Tab"] hint ""
        doc "Switch to the next variation at this move" => App::next_variation;
    Undo "undo" on GAME keys ["Ctrl-z"] vim ["u"] hint "undo"
        doc "Undo the last change to the game" => App::undo;
    Redo "redo" on GAME keys ["Ctrl-y"] vim ["Ctrl-r"] hint ""
        doc "Redo the change last undone" => App::redo;
    TakeBack "take-back" on GAME keys ["Ctrl-t"] hint ""
        doc "Take back the last move" => App::take_back;
    DeleteFromHere "delete-from-here" on GAME keys ["Delete"] vim ["D"] hint ""
        doc "Delete this move and everything after it" => App::delete_from_here;
    PromoteVariation "promote-variation" on GAME keys ["Ctrl-p"] hint ""
        doc "Promote this variation one place: above the line before it (the main line, for the first variation)" => App::promote_variation;
    DemoteVariation "demote-variation" on GAME keys ["Alt-P"] hint ""
        doc "Demote this variation below the next line" => App::demote_variation;
    DeleteVariation "delete-variation" on GAME keys ["Shift-Delete"] hint ""
        doc "Delete the variation this move is in, from where it branches" => App::delete_variation;
    ToggleReplace "toggle-replace" on GAME keys ["Insert"] hint "variation/replace"
        doc "Switch between adding a variation and replacing moves when typing inside the game"
        => App::toggle_replace;
    CopyFen "copy-fen" on GAME keys ["Alt-f"] hint ""
        doc "Copy this position's FEN to the clipboard (OSC 52)"
        => |app| app.copy(crate::pgn::writer::Clip::Fen);
    CopyGame "copy-game" on GAME keys ["Alt-g"] hint ""
        doc "Copy the game's PGN to the clipboard" => |app| app.copy(crate::pgn::writer::Clip::Game);
    CopyLine "copy-line" on GAME keys ["Alt-l"] hint ""
        doc "Copy the PGN of the line to this move (and on), without the other variations"
        => |app| app.copy(crate::pgn::writer::Clip::Line);
    Snap "snap" on GAME keys ["Alt-s"] hint ""
        doc "Append this position to NAME.fen beside the game's file" => App::snap;
    NextView "next-view" on GAME keys ["F3"] hint ""
        doc "Show the moves as a scoresheet, as text, or indented by variation, in turn"
        => App::next_view;
    FlipBoard "flip-board" on GAME keys ["Ctrl-f"] vim ["f"] hint ""
        doc "Turn the board around" => |app| {
            app.flipped = !app.flipped;
            Effect::None
        };
    NagGood "nag-good" on GAME keys ["Alt-1"] hint ""
        doc "Mark the move good (!)" => |app| app.mark_nag(1);
    NagMistake "nag-mistake" on GAME keys ["Alt-2"] hint ""
        doc "Mark the move a mistake (?)" => |app| app.mark_nag(2);
    NagBrilliant "nag-brilliant" on GAME keys ["Alt-3"] hint ""
        doc "Mark the move brilliant (!!)" => |app| app.mark_nag(3);
    NagBlunder "nag-blunder" on GAME keys ["Alt-4"] hint ""
        doc "Mark the move a blunder (??)" => |app| app.mark_nag(4);
    NagInteresting "nag-interesting" on GAME keys ["Alt-5"] hint ""
        doc "Mark the move interesting (!?)" => |app| app.mark_nag(5);
    NagDubious "nag-dubious" on GAME keys ["Alt-6"] hint ""
        doc "Mark the move dubious (?!)" => |app| app.mark_nag(6);
    NagClear "nag-clear" on GAME keys ["Alt-0"] hint ""
        doc "Remove the move's marks" => |app| app.mark_nag(0);
    ToggleDrawOffer "toggle-draw-offer" on GAME keys ["Alt-d"] hint "(=)"
        doc "Mark or unmark a draw offer (=) with this move" => App::toggle_draw_offer;
    EditComment "edit-comment" on GAME keys ["Ctrl-k"] hint ""
        doc "Edit the comment after this move in a box (Enter done, Alt-Enter or Ctrl-J new line, Esc cancel)"
        => |app| app.open_comment(CommentPlace::After);
    EditCommentBefore "edit-comment-before" on GAME keys ["Alt-k"] hint ""
        doc "Edit the comment before this move" => |app| app.open_comment(CommentPlace::Before);
    EditTags "edit-tags" on GAME keys ["F2"] hint ""
        doc "Edit the tags in a form (Enter edits a value, Ctrl-S done, Esc cancel)"
        => App::open_tags;
    NagOnly "nag-only-move" on GAME keys ["Alt-7"] hint ""
        doc "Mark the only move (□)" => |app| app.toggle_nag(7);
    NagWhiteBetter "nag-white-better" on GAME keys ["Alt-w"] hint ""
        doc "White stands better: ⩲, ±, +-, none in turn" => |app| app.cycle_nag(&[14, 16, 18]);
    NagBlackBetter "nag-black-better" on GAME keys ["Alt-b"] hint ""
        doc "Black stands better: ⩱, ∓, -+, none in turn" => |app| app.cycle_nag(&[15, 17, 19]);
    NagEqual "nag-equal" on GAME keys ["Alt-e"] hint ""
        doc "The position is equal (=)" => |app| app.toggle_nag(10);
    NagUnclear "nag-unclear" on GAME keys ["Alt-u"] hint ""
        doc "The position is unclear (∞)" => |app| app.toggle_nag(13);
    NagZugzwang "nag-zugzwang" on GAME keys ["Alt-z"] hint ""
        doc "Zugzwang: White's, Black's, none in turn (⨀)" => |app| app.cycle_nag(&[22, 23]);
    NagDevelopment "nag-development" on GAME keys ["Alt-v"] hint ""
        doc "Development advantage: White's, Black's, none in turn (⟳)" => |app| app.cycle_nag(&[32, 33]);
    NagInitiative "nag-initiative" on GAME keys ["Alt-i"] hint ""
        doc "Initiative: White's, Black's, none in turn (↑)" => |app| app.cycle_nag(&[36, 37]);
    NagAttack "nag-attack" on GAME keys ["Alt-a"] hint ""
        doc "Attack: White's, Black's, none in turn (→)" => |app| app.cycle_nag(&[40, 41]);
    NagCounterplay "nag-counterplay" on GAME keys ["Alt-c"] hint ""
        doc "Counterplay: White's, Black's, none in turn (⇆)" => |app| app.cycle_nag(&[132, 133]);
    NagTimeTrouble "nag-time-trouble" on GAME keys ["Alt-t"] hint ""
        doc "Time trouble: White's, Black's, none in turn (⊕)" => |app| app.cycle_nag(&[138, 139]);
    NagNovelty "nag-novelty" on GAME keys ["Alt-n"] hint ""
        doc "A novelty (N)" => |app| app.toggle_nag(146);
    NagClearPosition "nag-clear-position" on GAME keys ["Alt-9"] hint ""
        doc "Remove the position marks, keeping ! or ?" => App::clear_position_nags;
    Engine "engine" on GAME keys ["Ctrl-e"] hint ""
        doc "Open or close the engine's analysis pane (it follows the moves)" => App::toggle_engine;
    EnginePlay "engine-play" on GAME keys ["Alt-m"] vim ["Space"] hint ""
        doc "Play the engine's best move (inside the game: as a variation)"
        => App::play_engine_move;
    ToggleTimer "toggle-timer" on GAME keys ["F5"] hint ""
        doc "Start or stop the move timer" => App::toggle_timer;
    TreePane "tree-pane" on GAME keys ["Alt-y"] hint ""
        doc "Show or hide the opening tree of the open file (Enter on an empty line plays its move)"
        => App::toggle_tree;
    TreeDown "tree-down" on GAME keys ["Alt-j"] hint ""
        doc "Select the next move of the opening tree" => |app| app.tree_step(1);
    TreeUp "tree-up" on GAME keys ["Alt-h"] hint ""
        doc "Select the previous move of the opening tree" => |app| app.tree_step(-1);
    Save "save" on GAME keys ["Ctrl-s"] hint "save"
        doc "Write the game to its file" => |app| app.run_command("w");
    List "list" on ALL keys ["Ctrl-l"] hint "list/game"
        doc "Show the file's game list; from the list, back to the game" => App::toggle_list;
    NextGame "next-game" on GAME keys ["Alt-Down"] hint ""
        doc "Open the next game of the list" => |app| app.step_game(true);
    PreviousGame "previous-game" on GAME keys ["Alt-Up"] hint ""
        doc "Open the previous game of the list" => |app| app.step_game(false);
    OpenGame "open-game" on LIST keys ["Enter"] hint "open"
        doc "Open the selected game (while filtering: keep the filter, close its line)"
        => App::open_selected;
    Filter "filter" on LIST keys ["/"] hint "filter"
        doc "Filter: words, or white: black: player: event: site: eco: result: year: elo: plies: pos:"
        => App::start_filter;
    ListUp "list-up" on LIST keys ["Up", "k"] hint ""
        doc "Select the game above" => |app| app.list_step(-1);
    ListDown "list-down" on LIST keys ["Down", "j"] hint ""
        doc "Select the game below" => |app| app.list_step(1);
    ListPageUp "list-page-up" on LIST keys ["PageUp"] hint ""
        doc "A page of games up" => |app| app.list_page(-1);
    ListPageDown "list-page-down" on LIST keys ["PageDown"] hint ""
        doc "A page of games down" => |app| app.list_page(1);
    ListFirst "list-first" on LIST keys ["Home", "g"] hint ""
        doc "Select the first game" => |app| app.list_to(false);
    ListLast "list-last" on LIST keys ["End", "G"] hint ""
        doc "Select the last game" => |app| app.list_to(true);
    SortNumber "sort-number" on LIST keys ["n"] hint ""
        doc "Sort by game number (again: reversed)" => |app| app.sort_list(Column::Number);
    SortWhite "sort-white" on LIST keys ["w"] hint "sort"
        doc "Sort by White (again: reversed)" => |app| app.sort_list(Column::White);
    SortWhiteElo "sort-white-elo" on LIST keys ["W"] hint ""
        doc "Sort by White's Elo, the highest first (again: reversed)" => |app| app.sort_list(Column::WhiteElo);
    SortBlack "sort-black" on LIST keys ["b"] hint ""
        doc "Sort by Black (again: reversed)" => |app| app.sort_list(Column::Black);
    SortBlackElo "sort-black-elo" on LIST keys ["B"] hint ""
        doc "Sort by Black's Elo, the highest first (again: reversed)" => |app| app.sort_list(Column::BlackElo);
    SortResult "sort-result" on LIST keys ["r"] hint ""
        doc "Sort by result (again: reversed)" => |app| app.sort_list(Column::Result);
    SortDate "sort-date" on LIST keys ["d"] hint ""
        doc "Sort by date, the latest first (again: reversed)" => |app| app.sort_list(Column::Date);
    SortEvent "sort-event" on LIST keys ["e"] hint ""
        doc "Sort by event (again: reversed)" => |app| app.sort_list(Column::Event);
    SortRound "sort-round" on LIST keys ["u"] hint ""
        doc "Sort by round (again: reversed)" => |app| app.sort_list(Column::Round);
    SortSite "sort-site" on LIST keys ["s"] hint ""
        doc "Sort by site (again: reversed)" => |app| app.sort_list(Column::Site);
    SortEco "sort-eco" on LIST keys ["c"] hint ""
        doc "Sort by ECO code (again: reversed)" => |app| app.sort_list(Column::Eco);
    SortOpening "sort-opening" on LIST keys ["o"] hint ""
        doc "Sort by opening name (again: reversed)" => |app| app.sort_list(Column::Opening);
    SortPlies "sort-plies" on LIST keys ["p"] hint ""
        doc "Sort by length in half-moves (again: reversed)" => |app| app.sort_list(Column::Plies);
    Train "train" on ALL keys ["F7"] hint ""
        doc "Drill your mistakes: the exercises due, then those of your last 50 games in the open file ([training] name); again: stop training"
        => App::train_key;
    TrainReveal "train-reveal" on GAME keys ["Alt-r"] hint "reveal/next"
        doc "Training: show the hidden move, or the exercise's answer, then go on to the next"
        => App::train_reveal;
    InsertMode "insert-mode" on GAME keys [] vim ["i", "a"] hint ""
        doc "Vim preset: type a move on the entry line (insert mode; Enter plays it and stays, Esc goes back to normal mode)"
        => App::insert_mode;
    CommandLine "command-line" on ALL keys [":"] hint ""
        doc "Start a :command on the entry line, on the list too (where letters sort); vim preset: Enter runs it and goes back to normal mode"
        => App::command_line;
    Quit "quit" on ALL keys ["Ctrl-c"] hint "quit"
        doc "Quit (asks again while the game is unsaved)" => App::quit_key;
}

impl Action {
    /// The declaration of an action (`None` for typed text).
    pub fn decl(self) -> Option<&'static Decl> {
        ACTIONS.iter().find(|d| d.action == self)
    }

    /// The action a configuration name stands for.
    pub fn from_name(name: &str) -> Option<Action> {
        ACTIONS.iter().find(|d| d.name == name).map(|d| d.action)
    }

    /// The stable name of a declared action (`None` for typed text).
    pub fn name(self) -> Option<&'static str> {
        self.decl().map(|d| d.name)
    }
}
