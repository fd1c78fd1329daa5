//! The best lines of a search, checked against the position they are about:
//! each `info` with a score and a line becomes a [`PvLine`] whose moves are legal.

use std::time::Duration;

use chess::{ChessMove, Color};

use super::uci::{parse_uci_move, Bound, Info, Score};
use crate::notation::{format, Lang, Style};
use crate::position::{Move, Position};

/// One of the best lines, as the engine last gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PvLine {
    /// Its rank among the lines (1 = best).
    pub multipv: u32,
    /// Search depth.
    pub depth: u32,
    /// Selective depth, if given.
    pub seldepth: Option<u32>,
    /// The score from the side to move's point of view (as UCI gives it).
    pub score: Score,
    /// Whether the score is a bound.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time searched.
    pub time: Option<Duration>,
    /// The moves, legal from the position (an engine's line is cut at the first
    /// move that is not).
    pub pv: Vec<ChessMove>,
}

impl PvLine {
    /// Reads an `info` about `pos`: `None` when it has no score (the `currmove` and
    /// `string` infos). A score without a line is kept (some engines send them apart;
    /// a mated position has no line).
    pub fn from_info(info: &Info, pos: &Position) -> Option<PvLine> {
        let score = info.score?;
        let pv = legal_prefix(pos, &info.pv);
        Some(PvLine {
            multipv: info.multipv.unwrap_or(1),
            depth: info.depth.unwrap_or(0),
            seldepth: info.seldepth,
            score,
            bound: info.bound,
            nodes: info.nodes,
            nps: info.nps,
            time: info.time,
            pv,
        })
    }

    /// The score from White's point of view, `pos` being the position searched.
    pub fn white_score(&self, pos: &Position) -> Score {
        self.score.white(pos.side_to_move())
    }

    /// Whether [`PvLine::white_score`] is exact or a bound, from White's side.
    pub fn white_bound(&self, pos: &Position) -> Bound {
        self.bound.white(pos.side_to_move())
    }
}

/// The moves of a UCI line that are legal one after the other from `pos`.
pub fn legal_prefix(pos: &Position, pv: &[String]) -> Vec<ChessMove> {
    let mut out = Vec::with_capacity(pv.len());
    let mut at = *pos;
    for text in pv {
        let Some(mv) = parse_uci_move(&at, text) else {
            break;
        };
        out.push(mv);
        at = at.play(mv);
    }
    out
}

/// A line written as a player reads it, with move numbers, in a style and language:
/// `12. Nf3 Nc6 13. d4` or, from Black's move, `12... Nc6 13. d4`.
pub fn line_text(pos: &Position, pv: &[ChessMove], style: Style, lang: &Lang) -> String {
    let mut out = String::new();
    let mut at = *pos;
    for (i, mv) in pv.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        let white = at.side_to_move() == Color::White;
        if white {
            out.push_str(&format!("{}. ", at.fullmove_number()));
        } else if i == 0 {
            out.push_str(&format!("{}... ", at.fullmove_number()));
        }
        out.push_str(&format(&at, Move::Normal(*mv), style, lang));
        at = at.play(*mv);
    }
    out
}

/// The moves of a line, each in a style and language, without numbers.
pub fn line_moves(pos: &Position, pv: &[ChessMove], style: Style, lang: &Lang) -> Vec<String> {
    let mut at = *pos;
    pv.iter()
        .map(|mv| {
            let text = format(&at, Move::Normal(*mv), style, lang);
            at = at.play(*mv);
            text
        })
        .collect()
}

/// The best lines of a position, kept up to date from `info` lines, a whole iteration
/// (depth) at a time: an engine sends the best line of the next depth first and the others
/// after it, and shown as they came, the lines flickered (the others gone a moment) or
/// mixed depths (a deeper best line scored below a shallower second one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    /// The position searched.
    pub position: Position,
    /// The lines shown, ordered by rank (index 0 is the best line): the last whole
    /// iteration, or the first one as it comes.
    pub lines: Vec<PvLine>,
    /// The lines of the deeper iteration under way, until it has as many as `lines`.
    pending: Vec<PvLine>,
}

impl Lines {
    /// No lines yet for `position`.
    pub fn new(position: Position) -> Self {
        Lines {
            position,
            lines: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Takes in an `info`; true when it changed a line.
    ///
    /// A bound for the best line (sent while the engine's search window fails high
    /// or low, often with a line one move long) does not replace an exact best
    /// line: the pane would flicker between a full line and a stub, and a score
    /// taken at the end of a search would be a bound. It is kept only while there
    /// is nothing better. The other lines keep bounds, as an engine may never send
    /// them exact.
    pub fn update(&mut self, info: &Info) -> bool {
        let Some(line) = PvLine::from_info(info, &self.position) else {
            return false;
        };
        let current = if self.pending.is_empty() {
            &self.lines
        } else {
            &self.pending
        };
        if line.multipv == 1
            && line.bound != Bound::Exact
            && current
                .first()
                .is_some_and(|best| best.multipv == 1 && best.bound == Bound::Exact)
        {
            return false;
        }
        let shown = self.lines.first().map(|best| best.depth);
        if shown.is_none_or(|depth| line.depth <= depth) {
            // The iteration shown (the first, as it comes), or a line of it again.
            put(&mut self.lines, line);
            return true;
        }
        // A deeper iteration: gathered apart (one deeper still starts it again), and shown
        // once it has its best line and as many as the one shown.
        if self.pending.first().is_some_and(|p| p.depth != line.depth) {
            self.pending.clear();
        }
        put(&mut self.pending, line);
        let whole = self.pending.len() >= self.lines.len();
        if whole && self.pending.first().is_some_and(|p| p.multipv == 1) {
            self.lines = std::mem::take(&mut self.pending);
            return true;
        }
        false
    }

    /// The best line shown, if any.
    pub fn best(&self) -> Option<&PvLine> {
        self.lines.first()
    }

    /// The lines, best first.
    pub fn into_vec(self) -> Vec<PvLine> {
        self.lines
    }
}

/// Puts `line` in `lines` in its rank's place (replacing the line of that rank).
fn put(lines: &mut Vec<PvLine>, line: PvLine) {
    match lines.iter_mut().find(|l| l.multipv == line.multipv) {
        Some(slot) => *slot = line,
        None => {
            lines.push(line);
            lines.sort_by_key(|l| l.multipv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::uci::parse_info;

    #[test]
    fn a_line_reads_in_any_language_with_move_numbers() {
        let pos = Position::start();
        let pv = legal_prefix(&pos, &["g1f3".into(), "g8f6".into(), "d2d4".into()]);
        assert_eq!(
            line_text(&pos, &pv, Style::San, Lang::english()),
            "1. Nf3 Nf6 2. d4"
        );
        let de = Lang::by_code("de").unwrap();
        assert_eq!(line_text(&pos, &pv, Style::San, de), "1. Sf3 Sf6 2. d4");
        let after = pos.play(pv[0]);
        assert_eq!(
            line_text(&after, &pv[1..], Style::San, Lang::english()),
            "1... Nf6 2. d4"
        );
    }

    #[test]
    fn a_line_is_cut_at_its_first_illegal_move() {
        let pos = Position::start();
        let pv = legal_prefix(&pos, &["e2e4".into(), "e2e4".into(), "e7e5".into()]);
        assert_eq!(pv.len(), 1);
    }

    #[test]
    fn lines_show_a_whole_iteration_at_a_time() {
        let mut lines = Lines::new(Position::start());
        assert!(!lines.update(&parse_info("info depth 3 currmove e2e4 currmovenumber 1")));
        lines.update(&parse_info("info depth 3 multipv 1 score cp 30 pv e2e4"));
        lines.update(&parse_info("info depth 3 multipv 2 score cp 20 pv d2d4"));
        assert_eq!(lines.lines.len(), 2);
        let depths = |l: &Lines| l.lines.iter().map(|p| p.depth).collect::<Vec<_>>();
        // The best line of depth 4 waits for the second: depth 3's two stay shown, not
        // one line of each depth, nor one alone.
        assert!(!lines.update(&parse_info("info depth 4 multipv 1 score cp 25 pv d2d4")));
        assert_eq!(depths(&lines), [3, 3]);
        assert_eq!(lines.best().unwrap().score, Score::Cp(30));
        // A line of depth 3 again still refines what is shown.
        assert!(lines.update(&parse_info("info depth 3 multipv 2 score cp 21 pv d2d4")));
        assert_eq!(lines.lines[1].score, Score::Cp(21));
        // Depth 5 starts before depth 4 is whole: depth 4's line goes.
        lines.update(&parse_info("info depth 5 multipv 1 score cp 26 pv d2d4"));
        assert!(lines.update(&parse_info("info depth 5 multipv 2 score cp 22 pv e2e4")));
        assert_eq!(depths(&lines), [5, 5]);
        assert_eq!(lines.lines[1].score, Score::Cp(22));
        assert_eq!(
            lines.best().unwrap().white_score(&lines.position),
            Score::Cp(26)
        );
    }

    #[test]
    fn a_bound_does_not_replace_an_exact_best_line() {
        let mut lines = Lines::new(Position::start());
        lines.update(&parse_info(
            "info depth 1 multipv 1 score cp 40 lowerbound pv e2e4",
        ));
        assert_eq!(
            lines.best().unwrap().bound,
            Bound::Lower,
            "kept while alone"
        );
        lines.update(&parse_info(
            "info depth 20 multipv 1 score cp 30 pv e2e4 e7e5 g1f3",
        ));
        assert!(!lines.update(&parse_info(
            "info depth 21 multipv 1 score cp 55 lowerbound pv d2d4"
        )));
        let best = lines.best().unwrap();
        assert_eq!(
            (best.depth, best.score, best.pv.len()),
            (20, Score::Cp(30), 3)
        );
        // A second line may come as a bound only.
        assert!(lines.update(&parse_info(
            "info depth 20 multipv 2 score cp 10 upperbound pv d2d4"
        )));
        assert_eq!(lines.lines[1].bound, Bound::Upper);
    }

    #[test]
    fn bounds_turn_round_for_white() {
        let black = Position::start().play(legal_prefix(&Position::start(), &["e2e4".into()])[0]);
        let mut lines = Lines::new(black);
        lines.update(&parse_info(
            "info depth 9 multipv 1 score cp 20 lowerbound pv e7e5",
        ));
        let best = lines.best().unwrap();
        assert_eq!(best.white_score(&black), Score::Cp(-20));
        assert_eq!(
            best.white_bound(&black),
            Bound::Upper,
            "Black at least -> White at most"
        );
        assert_eq!(Bound::Upper.prefix(false), "≤");
        assert_eq!(Bound::Lower.prefix(true), ">=");
    }
}
