//! Terminal input, read and decoded here rather than by crossterm's event
//! reader, which stalls in two ways a recorder cannot live with:
//!
//! - it reads 1,024 bytes per wake-up of an edge-triggered poll, so the rest of
//!   a longer burst (a pasted line) waits in the terminal until another key
//!   comes — the Enter at its end is not seen;
//! - after `ESC [ 200 ~` (a bracketed paste begins) it keeps every later byte
//!   until `ESC [ 201 ~`, with no bound and no way to reset it, so a paste whose
//!   end mark is lost swallows every key, Ctrl-C and `:q!` included
//!   (crossterm issue #1060).
//!
//! [`Reader`] hands over everything the terminal sent on each wake-up, and
//! [`Decoder`] turns bytes into crossterm key events (so the keymap is
//! unchanged) and pastes, with an idle timeout and a size bound on a paste
//! whose end mark never comes.

use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A paste with no end mark is closed after this long without input.
pub const PASTE_IDLE: Duration = Duration::from_millis(1000);
/// An escape sequence cut at the end of a read waits this long for its rest;
/// then a lone ESC is the Escape key.
const ESCAPE_WAIT: Duration = Duration::from_millis(30);
/// The most a paste keeps; the rest, up to its end mark, is dropped (and said).
pub const PASTE_LIMIT: usize = 16 << 20;
/// A control sequence longer than this is garbage, not a key.
const SEQUENCE_LIMIT: usize = 64;

const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";

/// What the terminal sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A key press.
    Key(KeyEvent),
    /// A bracketed paste.
    Paste(Pasted),
}

/// The text of a bracketed paste.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pasted {
    /// The text (invalid UTF-8 replaced).
    pub text: String,
    /// False when the end mark never came (closed after [`PASTE_IDLE`]).
    pub ended: bool,
    /// Bytes dropped beyond [`PASTE_LIMIT`].
    pub dropped: usize,
}

impl Pasted {
    /// True when all of it came: its end mark, and nothing dropped.
    pub fn whole(&self) -> bool {
        self.ended && self.dropped == 0
    }
}

/// A paste being collected.
#[derive(Debug)]
struct Paste {
    bytes: Vec<u8>,
    dropped: usize,
    /// The last bytes seen, to find an end mark split between two reads.
    tail: Vec<u8>,
}

/// Bytes to events. Feed it what was read; ask it when it wants to be woken
/// ([`Decoder::deadline`]) and let it close what timed out ([`Decoder::idle`]).
#[derive(Debug, Default)]
pub struct Decoder {
    /// Bytes of an unfinished key sequence or character.
    pending: Vec<u8>,
    paste: Option<Paste>,
    /// When the last bytes came.
    last: Option<Instant>,
}

/// How a sequence at the start of the pending bytes reads.
enum Step {
    /// A key, and how many bytes it took.
    Key(KeyEvent, usize),
    /// A bracketed paste starts; the mark's length.
    PasteStart(usize),
    /// Bytes that mean nothing here (a mouse report, a stray end mark).
    Skip(usize),
    /// Not enough bytes yet.
    Incomplete,
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, modifiers)
}

/// xterm's modifier parameter (1 + Shift 1, Alt 2, Ctrl 4).
fn modifiers_of(param: Option<u32>) -> KeyModifiers {
    let bits = param.unwrap_or(1).saturating_sub(1);
    let mut m = KeyModifiers::NONE;
    if bits & 1 != 0 {
        m |= KeyModifiers::SHIFT;
    }
    if bits & 2 != 0 {
        m |= KeyModifiers::ALT;
    }
    if bits & 4 != 0 {
        m |= KeyModifiers::CONTROL;
    }
    m
}

/// A single byte that is a key by itself (controls and ASCII).
fn control_key(byte: u8) -> Option<KeyEvent> {
    Some(match byte {
        // A line feed is Ctrl-J (in raw mode Enter sends a carriage return): the
        // comment editor's new line. Where nothing binds it, it acts as Enter
        // (`App::action_of`), for the terminals and pastes that end lines so.
        b'\r' => key(KeyCode::Enter, KeyModifiers::NONE),
        b'\t' => key(KeyCode::Tab, KeyModifiers::NONE),
        // Many terminals send ^H for Backspace; Ctrl-H erases too.
        0x7f | 0x08 => key(KeyCode::Backspace, KeyModifiers::NONE),
        0 => key(KeyCode::Char(' '), KeyModifiers::CONTROL),
        0x01..=0x1a => key(
            KeyCode::Char((byte - 1 + b'a') as char),
            KeyModifiers::CONTROL,
        ),
        0x1c..=0x1f => key(
            KeyCode::Char((byte - 0x1c + b'4') as char),
            KeyModifiers::CONTROL,
        ),
        0x20..=0x7e => {
            let c = byte as char;
            let shift = if c.is_ascii_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            key(KeyCode::Char(c), shift)
        }
        _ => return None,
    })
}

/// A character at the start of `bytes` (UTF-8).
fn char_step(bytes: &[u8]) -> Step {
    if let Some(k) = control_key(bytes[0]) {
        return Step::Key(k, 1);
    }
    let len = match bytes[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Step::Skip(1),
    };
    if bytes.len() < len {
        // Continuation bytes so far must be valid, or this is garbage.
        return if bytes[1..].iter().all(|b| b & 0xc0 == 0x80) {
            Step::Incomplete
        } else {
            Step::Skip(1)
        };
    }
    match std::str::from_utf8(&bytes[..len])
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(c) => Step::Key(key(KeyCode::Char(c), KeyModifiers::NONE), len),
        None => Step::Skip(1),
    }
}

/// `ESC [ params final`: cursor keys, `~` keys, F1–F4, CSI u.
fn csi_step(bytes: &[u8]) -> Step {
    // bytes starts with ESC [
    let mut end = 2;
    while end < bytes.len() && (0x20..=0x3f).contains(&bytes[end]) {
        end += 1;
    }
    if end == bytes.len() {
        return if end > SEQUENCE_LIMIT {
            Step::Skip(end)
        } else {
            Step::Incomplete
        };
    }
    let last = bytes[end];
    if !(0x40..=0x7e).contains(&last) {
        // A control byte inside a sequence: drop what came before it.
        return Step::Skip(end);
    }
    let len = end + 1;
    let params: Vec<Option<u32>> = std::str::from_utf8(&bytes[2..end])
        .unwrap_or("")
        .split(';')
        .map(|p| p.split(':').next().and_then(|n| n.parse().ok()))
        .collect();
    let first = params.first().copied().flatten();
    let mods = modifiers_of(params.get(1).copied().flatten());
    let code = match last {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        b'P' => KeyCode::F(1),
        b'Q' => KeyCode::F(2),
        b'R' if params.len() < 2 || first == Some(1) => KeyCode::F(3),
        b'S' => KeyCode::F(4),
        b'Z' => return Step::Key(key(KeyCode::BackTab, KeyModifiers::SHIFT), len),
        b'~' => match first {
            Some(200) => return Step::PasteStart(len),
            Some(1 | 7) => KeyCode::Home,
            Some(2) => KeyCode::Insert,
            Some(3) => KeyCode::Delete,
            Some(4 | 8) => KeyCode::End,
            Some(5) => KeyCode::PageUp,
            Some(6) => KeyCode::PageDown,
            Some(n @ 11..=15) => KeyCode::F((n - 10) as u8),
            Some(n @ 17..=21) => KeyCode::F((n - 11) as u8),
            Some(n @ 23..=24) => KeyCode::F((n - 12) as u8),
            _ => return Step::Skip(len),
        },
        // The kitty keyboard protocol's form: CSI code ; modifiers u.
        b'u' => match first.and_then(char::from_u32) {
            Some('\r') => KeyCode::Enter,
            Some('\t') => KeyCode::Tab,
            Some('\x1b') => KeyCode::Esc,
            Some('\x7f') => KeyCode::Backspace,
            Some(c) if !c.is_control() => KeyCode::Char(c),
            _ => return Step::Skip(len),
        },
        _ => return Step::Skip(len),
    };
    Step::Key(key(code, mods), len)
}

/// The step at the start of `bytes` (not empty).
fn step(bytes: &[u8]) -> Step {
    if bytes[0] != 0x1b {
        return char_step(bytes);
    }
    let Some(&next) = bytes.get(1) else {
        return Step::Incomplete;
    };
    match next {
        b'[' => csi_step(bytes),
        b'O' => match bytes.get(2) {
            None => Step::Incomplete,
            Some(&b) => {
                let code = match b {
                    b'P'..=b'S' => KeyCode::F(b - b'P' + 1),
                    b'A' => KeyCode::Up,
                    b'B' => KeyCode::Down,
                    b'C' => KeyCode::Right,
                    b'D' => KeyCode::Left,
                    b'H' => KeyCode::Home,
                    b'F' => KeyCode::End,
                    _ => return Step::Skip(3),
                };
                Step::Key(key(code, KeyModifiers::NONE), 3)
            }
        },
        // ESC ESC: the first is the Escape key.
        0x1b => Step::Key(key(KeyCode::Esc, KeyModifiers::NONE), 1),
        // ESC and a key: Alt and that key.
        _ => match char_step(&bytes[1..]) {
            Step::Key(mut k, n) => {
                k.modifiers |= KeyModifiers::ALT;
                Step::Key(k, n + 1)
            }
            Step::Skip(n) => Step::Skip(n + 1),
            other => other,
        },
    }
}

/// Adds to a paste what came in the same read after its end mark. Nobody types that
/// fast: bytes sent with the paste are the paste's, even after an end mark inside the
/// pasted text (`e6 ESC[201~ :q! Enter`, which a terminal that does not strip ESC from a
/// paste sends as it is), so a paste never runs a command. Marks among them are dropped.
fn absorb(pasted: &mut Pasted, rest: &[u8]) {
    if rest.is_empty() {
        return;
    }
    let mut bytes = rest.to_vec();
    for mark in [PASTE_END, PASTE_START] {
        while let Some(i) = memchr::memmem::find(&bytes, mark) {
            bytes.drain(i..i + mark.len());
        }
    }
    pasted.text.push_str(&String::from_utf8_lossy(&bytes));
}

impl Decoder {
    /// A decoder with nothing pending.
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Decodes `bytes` read at `now`; what is complete comes out, the rest waits.
    pub fn feed(&mut self, bytes: &[u8], now: Instant) -> Vec<Input> {
        self.last = Some(now);
        let mut out = Vec::new();
        if self.paste.is_some() {
            match self.collect(bytes) {
                Some((mut pasted, used)) => {
                    absorb(&mut pasted, &bytes[used..]);
                    out.push(Input::Paste(pasted));
                    return out;
                }
                None => return out,
            }
        }
        self.pending.extend_from_slice(bytes);
        let mut at = 0;
        while at < self.pending.len() {
            match step(&self.pending[at..]) {
                Step::Key(k, n) => {
                    out.push(Input::Key(k));
                    at += n;
                }
                Step::Skip(n) => at += n,
                Step::Incomplete => break,
                Step::PasteStart(n) => {
                    self.paste = Some(Paste {
                        bytes: Vec::new(),
                        dropped: 0,
                        tail: Vec::new(),
                    });
                    // What follows the mark is the paste's (and so is the rest of this
                    // read: see `absorb`).
                    let after = self.pending.split_off(at + n);
                    self.pending.clear();
                    match self.collect(&after) {
                        Some((mut pasted, used)) => {
                            absorb(&mut pasted, &after[used..]);
                            out.push(Input::Paste(pasted));
                            return out;
                        }
                        None => return out,
                    }
                }
            }
        }
        self.pending.drain(..at);
        out
    }

    /// Adds bytes to the open paste; the paste and the bytes used when its end
    /// mark came.
    fn collect(&mut self, bytes: &[u8]) -> Option<(Pasted, usize)> {
        let paste = self.paste.as_mut()?;
        // The end mark may start in the bytes seen before.
        let mut window = std::mem::take(&mut paste.tail);
        let before = window.len();
        window.extend_from_slice(bytes);
        let found = memchr::memmem::find(&window, PASTE_END);
        let take = match found {
            Some(i) => i.saturating_sub(before).min(bytes.len()),
            None => bytes.len(),
        };
        if let Some(i) = found {
            // Part of the text may be in the kept tail (not yet in `bytes`).
            let cut = before.saturating_sub(i);
            let from_dropped = cut.min(paste.dropped);
            paste.dropped -= from_dropped;
            let keep = paste.bytes.len().saturating_sub(cut - from_dropped);
            paste.bytes.truncate(keep);
        }
        let room = PASTE_LIMIT.saturating_sub(paste.bytes.len());
        let chunk = &bytes[..take];
        paste
            .bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
        paste.dropped += chunk.len().saturating_sub(room);
        match found {
            Some(i) => {
                let used = i + PASTE_END.len() - before;
                let paste = self.paste.take()?;
                Some((
                    Pasted {
                        text: String::from_utf8_lossy(&paste.bytes).into_owned(),
                        ended: true,
                        dropped: paste.dropped,
                    },
                    used,
                ))
            }
            None => {
                let keep = window.len().min(PASTE_END.len() - 1);
                paste.tail = window[window.len() - keep..].to_vec();
                None
            }
        }
    }

    /// When the decoder wants [`Decoder::idle`] called if nothing comes before.
    pub fn deadline(&self) -> Option<Instant> {
        let last = self.last?;
        if self.paste.is_some() {
            Some(last + PASTE_IDLE)
        } else if !self.pending.is_empty() {
            Some(last + ESCAPE_WAIT)
        } else {
            None
        }
    }

    /// Nothing came until `now`: closes a paste past [`PASTE_IDLE`] and reads
    /// a cut sequence past its wait (a lone ESC is the Escape key).
    pub fn idle(&mut self, now: Instant) -> Vec<Input> {
        let mut out = Vec::new();
        let Some(deadline) = self.deadline() else {
            return out;
        };
        if now < deadline {
            return out;
        }
        if let Some(paste) = self.paste.take() {
            let mut bytes = paste.bytes;
            // The start of an end mark at the very end is not text.
            if let Some(cut) = (1..PASTE_END.len())
                .rev()
                .find(|&cut| bytes.ends_with(&PASTE_END[..cut]))
            {
                bytes.truncate(bytes.len() - cut);
            }
            out.push(Input::Paste(Pasted {
                text: String::from_utf8_lossy(&bytes).into_owned(),
                ended: false,
                dropped: paste.dropped,
            }));
            return out;
        }
        let pending = std::mem::take(&mut self.pending);
        if pending == [0x1b] {
            out.push(Input::Key(key(KeyCode::Esc, KeyModifiers::NONE)));
        } else if pending.first() == Some(&0x1b) && pending.len() > 1 && pending[1] != b'[' {
            // ESC and a cut character: Escape, then the rest is lost.
            out.push(Input::Key(key(KeyCode::Esc, KeyModifiers::NONE)));
        }
        // Any other cut sequence or character is garbage.
        out
    }
}

/// Reads the terminal (standard input) and decodes it. A thread of its own
/// reads whatever the terminal has, as soon as it has it (a blocking read
/// returns all that is there, up to 64 KiB), so nothing waits in the terminal
/// for a later key; it works alike on every Unix, where `poll(2)` on a terminal
/// does not (macOS).
pub struct Reader {
    chunks: Receiver<io::Result<Vec<u8>>>,
    decoder: Decoder,
}

impl Reader {
    /// A reader of standard input, which must be the terminal.
    pub fn stdin() -> Reader {
        let (send, chunks) = mpsc::channel();
        // A resized terminal wakes the loop at once, to draw at the new size;
        // an empty chunk says so.
        if let Ok(mut resized) =
            signal_hook::iterator::Signals::new([signal_hook::consts::SIGWINCH])
        {
            let wake = send.clone();
            std::thread::spawn(move || {
                for _ in resized.forever() {
                    if wake.send(Ok(Vec::new())).is_err() {
                        return;
                    }
                }
            });
        }
        std::thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            let mut buf = vec![0; 64 * 1024];
            loop {
                let chunk = match stdin.read(&mut buf) {
                    Ok(0) => Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the terminal closed",
                    )),
                    Ok(n) => Ok(buf[..n].to_vec()),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let end = chunk.is_err();
                if send.send(chunk).is_err() || end {
                    return;
                }
            }
        });
        Reader {
            chunks,
            decoder: Decoder::new(),
        }
    }

    fn take(&mut self, chunk: Vec<u8>, out: &mut Vec<Input>) {
        // An empty chunk is a resize: no input, and no reset of the timeouts.
        if !chunk.is_empty() {
            out.extend(self.decoder.feed(&chunk, Instant::now()));
        }
    }

    /// Waits up to `timeout` for input, then takes everything read so far (a
    /// whole paste, however long, with the Enter after it) and returns what it
    /// decodes to; empty when nothing came, or when the terminal was resized
    /// (the caller draws again in either case). Fails when the terminal is gone.
    pub fn read(&mut self, timeout: Duration) -> io::Result<Vec<Input>> {
        let wait = match self.decoder.deadline() {
            Some(deadline) => timeout.min(deadline.saturating_duration_since(Instant::now())),
            None => timeout,
        };
        let mut out = Vec::new();
        let first = match self.chunks.recv_timeout(wait) {
            Ok(chunk) => Some(chunk),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the terminal closed",
                ))
            }
        };
        if let Some(chunk) = first {
            self.take(chunk?, &mut out);
            // Drain: whatever else has come, without waiting.
            while let Ok(chunk) = self.chunks.try_recv() {
                self.take(chunk?, &mut out);
            }
        }
        out.extend(self.decoder.idle(Instant::now()));
        Ok(out)
    }
}

#[cfg(test)]
#[path = "input_tests.rs"]
mod tests;
