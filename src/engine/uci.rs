//! The UCI protocol as text: what an engine says (`id`, `uciok`, `readyok`, `info`,
//! `bestmove`) read into typed lines, and the commands sent to it written out.
//!
//! Reading is forgiving, as the protocol asks: unknown tokens inside an `info` line
//! are skipped, and a line that is not UCI at all is [`EngineLine::Other`], which the
//! callers ignore (engines print banners and debug text).

use std::fmt::Write;
use std::time::Duration;

use chess::{ChessMove, Piece};

use crate::position::{parse_square, Position};

/// A score as the engine gives it: from the side to move's point of view.
///
/// The shape is scalachess's `Score` (lichess): `Mate(0)` means the side this score
/// speaks for is checkmated, and [`Score::MateGiven`] is its inverse (the side has
/// checkmated), so that turning a score round never loses who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in so many moves: positive when this side mates, negative when it is
    /// mated, 0 when it is checkmated already.
    Mate(i32),
    /// This side has given checkmate (the inverse of `Mate(0)`).
    MateGiven,
}

impl Score {
    /// The same score seen from the other side.
    pub fn invert(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(0) => Score::MateGiven,
            Score::Mate(n) => Score::Mate(-n),
            Score::MateGiven => Score::Mate(0),
        }
    }

    /// The score from White's point of view, given whose move it was when the
    /// engine gave it.
    pub fn white(self, side_to_move: chess::Color) -> Score {
        if side_to_move == chess::Color::White {
            self
        } else {
            self.invert()
        }
    }

    /// The score as a player reads it, from the side it speaks for: `+0.17`,
    /// `-1.50`, `#3`, `#-3`; `mated` and `mate` once the game is over.
    pub fn display(self) -> String {
        match self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "+" };
                let abs = cp.unsigned_abs();
                format!("{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Score::Mate(0) => "mated".to_string(),
            Score::Mate(n) => format!("#{n}"),
            Score::MateGiven => "mate".to_string(),
        }
    }
}

/// A PGN `[%eval]` score (White's point of view) as a White-view [`Score`]. `#0`
/// cannot say who is mated: it reads as `Mate(0)`, White mated; use
/// [`Score::white`] with the side to move when that matters.
impl From<crate::game::annotation::Score> for Score {
    fn from(score: crate::game::annotation::Score) -> Score {
        match score {
            crate::game::annotation::Score::Pawns(cp) => Score::Cp(cp),
            crate::game::annotation::Score::Mate(n) => Score::Mate(n),
        }
    }
}

impl Score {
    /// A White-view score as PGN's `[%eval]` writes it: `#0` for a mate given or
    /// suffered (python-chess reads `#0` by whose turn it is).
    pub fn to_pgn(self) -> crate::game::annotation::Score {
        match self {
            Score::Cp(cp) => crate::game::annotation::Score::Pawns(cp),
            Score::Mate(n) => crate::game::annotation::Score::Mate(n),
            Score::MateGiven => crate::game::annotation::Score::Mate(0),
        }
    }
}

/// Whether a score is exact or only a bound (the engine's `lowerbound` /
/// `upperbound`, sent while a search fails high or low).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    /// The score itself.
    #[default]
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

impl Bound {
    /// The bound seen from White's side, `side_to_move` being the side the engine
    /// scored for: a lower bound for Black is an upper bound for White.
    pub fn white(self, side_to_move: chess::Color) -> Bound {
        match (self, side_to_move) {
            (Bound::Lower, chess::Color::Black) => Bound::Upper,
            (Bound::Upper, chess::Color::Black) => Bound::Lower,
            (bound, _) => bound,
        }
    }

    /// What goes before a score: `≥` for a lower bound, `≤` for an upper one
    /// (`>=`, `<=` in ASCII), nothing for an exact score.
    pub fn prefix(self, ascii: bool) -> &'static str {
        match (self, ascii) {
            (Bound::Exact, _) => "",
            (Bound::Lower, false) => "≥",
            (Bound::Upper, false) => "≤",
            (Bound::Lower, true) => ">=",
            (Bound::Upper, true) => "<=",
        }
    }
}

/// One `info` line: every field is optional, as engines send what they have.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info {
    /// Search depth in plies.
    pub depth: Option<u32>,
    /// Selective search depth.
    pub seldepth: Option<u32>,
    /// Which of the best lines this is (1 = best); 1 when the engine omits it.
    pub multipv: Option<u32>,
    /// The score from the side to move's point of view.
    pub score: Option<Score>,
    /// Whether `score` is a bound.
    pub bound: Bound,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time searched.
    pub time: Option<Duration>,
    /// The principal variation, as UCI move texts (checked against a position by
    /// [`super::pv`]).
    pub pv: Vec<String>,
    /// The text after `string`, when the line is an `info string`.
    pub string: Option<String>,
}

/// What a `bestmove` line says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestMove {
    /// The move, as UCI text; `None` for `(none)` / `0000` (no legal move).
    pub best: Option<String>,
    /// The move the engine expects in reply, if it says.
    pub ponder: Option<String>,
}

/// One line from the engine, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineLine {
    /// `id name …` / `id author …`.
    Id {
        /// `name` or `author`.
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `option name … type …`, kept as written (the names matter; the rest is for display).
    Option(String),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info …`.
    Info(Box<Info>),
    /// `bestmove …`.
    BestMove(BestMove),
    /// Anything else (banners, debug output, nonsense): kept for error messages.
    Other(String),
}

/// Reads one line from the engine.
pub fn parse_line(line: &str) -> EngineLine {
    let line = line.trim();
    let mut words = line.split_ascii_whitespace();
    match words.next() {
        Some("uciok") => EngineLine::UciOk,
        Some("readyok") => EngineLine::ReadyOk,
        Some("id") => match words.next() {
            Some(key @ ("name" | "author")) => EngineLine::Id {
                key: key.to_string(),
                value: rest_after(line, 2).to_string(),
            },
            _ => EngineLine::Other(line.to_string()),
        },
        Some("option") => EngineLine::Option(rest_after(line, 1).to_string()),
        Some("info") => EngineLine::Info(Box::new(parse_info(line))),
        Some("bestmove") => {
            let best = words
                .next()
                .filter(|m| *m != "(none)" && *m != "0000")
                .map(str::to_string);
            let ponder = match words.next() {
                Some("ponder") => words.next().map(str::to_string),
                _ => None,
            };
            EngineLine::BestMove(BestMove { best, ponder })
        }
        _ => EngineLine::Other(line.to_string()),
    }
}

/// The text of `line` after its first `n` words.
fn rest_after(line: &str, n: usize) -> &str {
    let mut rest = line.trim_start();
    for _ in 0..n {
        rest = rest.trim_start();
        rest = rest.find(char::is_whitespace).map_or("", |i| &rest[i..]);
    }
    rest.trim()
}

/// The words that start a new field of an `info` line (so that a `pv` ends there).
const INFO_KEYS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "wdl",
];

/// Reads an `info` line (with or without the leading `info`); fields that do not
/// read are left out rather than failing the line.
pub fn parse_info(line: &str) -> Info {
    let mut info = Info::default();
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let mut i = usize::from(words.first() == Some(&"info"));
    let num = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
    while i < words.len() {
        let key = words[i];
        i += 1;
        match key {
            "depth" => info.depth = num(i).and_then(|n| u32::try_from(n).ok()),
            "seldepth" => info.seldepth = num(i).and_then(|n| u32::try_from(n).ok()),
            "multipv" => info.multipv = num(i).and_then(|n| u32::try_from(n).ok()),
            "nodes" => info.nodes = num(i),
            "nps" => info.nps = num(i),
            "time" => info.time = num(i).map(Duration::from_millis),
            "score" => {
                let value = words.get(i + 1).and_then(|w| w.parse::<i32>().ok());
                info.score = match (words.get(i), value) {
                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                i += 2;
                match words.get(i) {
                    Some(&"lowerbound") => {
                        info.bound = Bound::Lower;
                        i += 1;
                    }
                    Some(&"upperbound") => {
                        info.bound = Bound::Upper;
                        i += 1;
                    }
                    _ => {}
                }
                continue;
            }
            "pv" => {
                while i < words.len() && !INFO_KEYS.contains(&words[i]) {
                    info.pv.push(words[i].to_string());
                    i += 1;
                }
                continue;
            }
            "string" => {
                info.string = Some(words[i..].join(" "));
                break;
            }
            _ => continue,
        }
        i += 1;
    }
    info
}

/// How long a search goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// To this depth in plies.
    Depth(u32),
    /// This many nodes: with one thread, the same answer every time.
    Nodes(u64),
    /// This long.
    MoveTime(Duration),
    /// Until told to stop.
    Infinite,
}

impl Limit {
    /// The `go` command for this limit.
    pub fn go_command(self) -> String {
        match self {
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::MoveTime(t) => format!("go movetime {}", t.as_millis().max(1)),
            Limit::Infinite => "go infinite".to_string(),
        }
    }
}

/// The `position` command: `position startpos moves …` from the standard start (so
/// the engine sees the game's history, for repetitions), `position fen … moves …`
/// otherwise.
pub fn position_command(start: &Position, moves: &[ChessMove]) -> String {
    let mut out = if *start == Position::start() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", start.fen())
    };
    if !moves.is_empty() {
        out.push_str(" moves");
        for m in moves {
            let _ = write!(out, " {}", uci_text(*m));
        }
    }
    out
}

/// A move as UCI writes it: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
pub fn uci_text(m: ChessMove) -> String {
    let mut s = format!("{}{}", m.get_source(), m.get_dest());
    if let Some(p) = m.get_promotion() {
        s.push(crate::position::piece_char(p));
    }
    s
}

/// Reads a UCI move text as a legal move of `pos`; `None` when it is not one.
pub fn parse_uci_move(pos: &Position, text: &str) -> Option<ChessMove> {
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return None;
    }
    let from = parse_square(&text[0..2])?;
    let to = parse_square(&text[2..4])?;
    let promotion = match text.as_bytes().get(4) {
        None => None,
        Some(b'q' | b'Q') => Some(Piece::Queen),
        Some(b'r' | b'R') => Some(Piece::Rook),
        Some(b'b' | b'B') => Some(Piece::Bishop),
        Some(b'n' | b'N') => Some(Piece::Knight),
        Some(_) => return None,
    };
    let mv = ChessMove::new(from, to, promotion);
    pos.is_legal(mv).then_some(mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_read_every_field() {
        let info = parse_info(
            "info depth 20 seldepth 31 multipv 2 score cp -35 upperbound nodes 123456 \
             nps 987654 hashfull 12 tbhits 0 time 125 pv e2e4 e7e5 g1f3",
        );
        assert_eq!(info.depth, Some(20));
        assert_eq!(info.seldepth, Some(31));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some(Score::Cp(-35)));
        assert_eq!(info.bound, Bound::Upper);
        assert_eq!(info.nodes, Some(123456));
        assert_eq!(info.nps, Some(987654));
        assert_eq!(info.time, Some(Duration::from_millis(125)));
        assert_eq!(info.pv, ["e2e4", "e7e5", "g1f3"]);
    }

    #[test]
    fn mate_scores_and_lower_bounds() {
        let info = parse_info("info depth 5 score mate -3 lowerbound pv h7h8q");
        assert_eq!(info.score, Some(Score::Mate(-3)));
        assert_eq!(info.bound, Bound::Lower);
        assert_eq!(info.pv, ["h7h8q"]);
        let info = parse_info("info depth 0 score mate 0");
        assert_eq!(info.score, Some(Score::Mate(0)));
    }

    #[test]
    fn a_pv_stops_at_the_next_field_and_bad_fields_are_skipped() {
        let info = parse_info("info pv e2e4 e7e5 depth x nodes 10 score cp");
        assert_eq!(info.pv, ["e2e4", "e7e5"]);
        assert_eq!(info.depth, None);
        assert_eq!(info.nodes, Some(10));
        assert_eq!(info.score, None);
    }

    #[test]
    fn info_string_takes_the_rest_of_the_line() {
        let info = parse_info("info string NNUE evaluation using nn.nnue enabled");
        assert_eq!(
            info.string.as_deref(),
            Some("NNUE evaluation using nn.nnue enabled")
        );
    }

    #[test]
    fn other_lines() {
        assert_eq!(parse_line("uciok"), EngineLine::UciOk);
        assert_eq!(parse_line("  readyok \r"), EngineLine::ReadyOk);
        assert_eq!(
            parse_line("id name Stockfish 15.1"),
            EngineLine::Id {
                key: "name".into(),
                value: "Stockfish 15.1".into()
            }
        );
        assert_eq!(
            parse_line("bestmove e2e4 ponder e7e5"),
            EngineLine::BestMove(BestMove {
                best: Some("e2e4".into()),
                ponder: Some("e7e5".into())
            })
        );
        assert_eq!(
            parse_line("bestmove (none)"),
            EngineLine::BestMove(BestMove {
                best: None,
                ponder: None
            })
        );
        assert_eq!(
            parse_line("Stockfish 15.1 by the Stockfish developers"),
            EngineLine::Other("Stockfish 15.1 by the Stockfish developers".into())
        );
    }

    #[test]
    fn scores_turn_round_without_losing_the_winner() {
        use chess::Color::*;
        assert_eq!(Score::Cp(30).white(Black), Score::Cp(-30));
        assert_eq!(Score::Mate(3).white(Black), Score::Mate(-3));
        assert_eq!(Score::Mate(0).white(Black), Score::MateGiven);
        assert_eq!(Score::Mate(0).white(White), Score::Mate(0));
        assert_eq!(Score::Cp(-5).display(), "-0.05");
        assert_eq!(Score::Cp(123).display(), "+1.23");
        assert_eq!(Score::Mate(-2).display(), "#-2");
    }

    #[test]
    fn commands() {
        let start = Position::start();
        let e4 = parse_uci_move(&start, "e2e4").unwrap();
        assert_eq!(
            position_command(&start, &[e4]),
            "position startpos moves e2e4"
        );
        let after = start.play(e4);
        assert_eq!(
            position_command(&after, &[]),
            format!("position fen {}", after.fen())
        );
        assert_eq!(parse_uci_move(&start, "e2e5"), None);
        assert_eq!(parse_uci_move(&start, "e2"), None);
        assert_eq!(Limit::Nodes(5000).go_command(), "go nodes 5000");
        assert_eq!(
            Limit::MoveTime(Duration::from_millis(250)).go_command(),
            "go movetime 250"
        );
    }
}
