//! Copying text to the clipboard of the computer the user sits at, with the terminal's
//! OSC 52 escape sequence (`ESC ] 52 ; c ; BASE64 BEL`): the terminal, not this program,
//! owns that clipboard, so copying works over SSH and needs no `xclip` or `pbcopy`.
//!
//! OSC 52 has no answer: nothing says whether the terminal took the text. A terminal that
//! does not know the sequence ignores it (GNOME Terminal and the other VTE terminals do),
//! so sending it is always harmless; the README lists which terminals act on it.
//!
//! Terminal multiplexers sit between this program and the terminal:
//!
//! - **tmux** acts on a plain OSC 52 itself when its `set-clipboard` option is `on` (the
//!   default, `external`, ignores applications), and passes a sequence wrapped as
//!   `ESC P tmux ; … ESC \` (every ESC inside doubled) through to the terminal when
//!   `allow-passthrough` is `on` (tmux 3.3 and later; off by default). Which of the two
//!   is set cannot be asked, so both forms are sent, the plain one first: either one
//!   reaching the terminal sets the clipboard, and when both do it is set twice to the
//!   same text (tmux drops the [`RESET`] that starts each form, so in kitty the
//!   passthrough's own reset keeps the two from being joined).
//! - **GNU screen** does not act on OSC 52 but passes a `ESC P … ESC \` string through;
//!   it cuts long strings (256 bytes in old versions, 768 in newer ones), so the
//!   sequence is sent in pieces of [`SCREEN_CHUNK`] bytes, each in its own string, which
//!   the terminal receives back to back as one sequence (the way hterm's `osc52.sh` does
//!   it).
//!
//! The size is capped at [`MAX_TEXT`] bytes of text (the sequence then stays within
//! 100,000 bytes, the cap of hterm and of the common `osc52` scripts; some terminals
//! and multiplexers drop longer sequences without a word). A longer text is refused
//! with its size, rather than sent and silently lost.

use std::ffi::OsStr;
use std::io::Write;

use base64::Engine as _;

/// The most bytes of text copied: its base64 form (99,992 bytes) with the sequence's
/// 8 bytes of framing makes 100,000 bytes (after the short [`RESET`]).
pub const MAX_TEXT: usize = 74_994;

/// The most bytes of the sequence sent in one screen string (what hterm's `osc52.sh`
/// uses; under the 256 bytes of the oldest screen still about).
pub const SCREEN_CHUNK: usize = 76;

/// What starts each copy: an OSC 52 with a payload that is not base64, which kitty
/// takes as "a new text starts here" (it joins successive writes otherwise).
pub const RESET: &[u8] = b"\x1b]52;c;!\x07";

/// The multiplexer, if any, between this program and the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mux {
    /// None: the sequence goes straight to the terminal.
    None,
    /// tmux (`$TMUX` is set).
    Tmux,
    /// GNU screen (`$STY` is set, `$TMUX` is not).
    Screen,
}

impl Mux {
    /// The multiplexer this process runs in, from the environment.
    pub fn from_env() -> Mux {
        Mux::detect(
            std::env::var_os("TMUX").as_deref(),
            std::env::var_os("STY").as_deref(),
        )
    }

    /// The multiplexer for these values of `$TMUX` and `$STY` (an empty value counts as
    /// unset). tmux wins when both are set: the variables are inherited, so both mean
    /// one runs inside the other, and tmux is the more common inner one.
    pub fn detect(tmux: Option<&OsStr>, sty: Option<&OsStr>) -> Mux {
        let set = |v: Option<&OsStr>| v.is_some_and(|v| !v.is_empty());
        if set(tmux) {
            Mux::Tmux
        } else if set(sty) {
            Mux::Screen
        } else {
            Mux::None
        }
    }
}

/// Why text was not copied.
#[derive(Debug, thiserror::Error)]
pub enum ClipboardError {
    /// Nothing to copy (an empty OSC 52 would clear the clipboard).
    #[error("nothing to copy")]
    Empty,
    /// The text is longer than terminals reliably accept.
    #[error(
        "{len} bytes is too long to copy through the terminal (at most {max} bytes; \
         terminals drop longer clipboard sequences)"
    )]
    TooLong {
        /// The text's size in bytes.
        len: usize,
        /// [`MAX_TEXT`].
        max: usize,
    },
    /// The terminal could not be written to.
    #[error("cannot write to the terminal: {0}")]
    Io(#[from] std::io::Error),
}

/// The bytes that ask the terminal to put `text` on its clipboard, framed for `mux`.
pub fn sequence(text: &str, mux: Mux) -> Result<Vec<u8>, ClipboardError> {
    if text.is_empty() {
        return Err(ClipboardError::Empty);
    }
    if text.len() > MAX_TEXT {
        return Err(ClipboardError::TooLong {
            len: text.len(),
            max: MAX_TEXT,
        });
    }
    // kitty joins successive OSC 52 writes into one text; an invalid payload (`!`)
    // first starts a new one there, and every other terminal ignores it (xterm clears
    // its selection, which the real payload sets right after).
    let mut osc = RESET.to_vec();
    osc.extend_from_slice(b"\x1b]52;c;");
    osc.extend_from_slice(
        base64::engine::general_purpose::STANDARD
            .encode(text)
            .as_bytes(),
    );
    // BEL ends the sequence: every terminal with OSC 52 takes it (ST, `ESC \`, is not
    // taken by all), and inside a tmux or screen string it needs no escaping.
    osc.push(0x07);
    Ok(match mux {
        Mux::None => osc,
        Mux::Tmux => {
            let mut out = osc.clone();
            out.extend_from_slice(b"\x1bPtmux;");
            for &b in &osc {
                if b == 0x1b {
                    out.push(0x1b);
                }
                out.push(b);
            }
            out.extend_from_slice(b"\x1b\\");
            out
        }
        Mux::Screen => {
            let mut out = Vec::with_capacity(osc.len() + osc.len() / SCREEN_CHUNK * 4 + 4);
            for chunk in osc.chunks(SCREEN_CHUNK) {
                out.extend_from_slice(b"\x1bP");
                out.extend_from_slice(chunk);
                out.extend_from_slice(b"\x1b\\");
            }
            out
        }
    })
}

/// Puts `text` on the terminal's clipboard: writes the sequence to `out` (the
/// terminal: standard output, which the screen is drawn on) in one write, then
/// flushes it. Returns how many bytes of text were copied.
pub fn copy(out: &mut impl Write, text: &str, mux: Mux) -> Result<usize, ClipboardError> {
    let bytes = sequence(text, mux)?;
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_sequence_is_osc_52_with_base64_and_bel() {
        // "hello" in base64 is "aGVsbG8=".
        // The reset first (kitty would join this text to the last one copied).
        assert_eq!(
            sequence("hello", Mux::None).unwrap(),
            b"\x1b]52;c;!\x07\x1b]52;c;aGVsbG8=\x07".to_vec()
        );
        // Text beyond ASCII is sent as its UTF-8 bytes: "♔" is E2 99 94.
        assert_eq!(
            sequence("♔", Mux::None).unwrap(),
            b"\x1b]52;c;!\x07\x1b]52;c;4pmU\x07".to_vec()
        );
    }

    #[test]
    fn tmux_gets_the_plain_sequence_and_the_passthrough_one() {
        let got = sequence("hello", Mux::Tmux).unwrap();
        let plain = b"\x1b]52;c;!\x07\x1b]52;c;aGVsbG8=\x07";
        // Every ESC inside the passthrough string is doubled.
        let wrapped = b"\x1bPtmux;\x1b\x1b]52;c;!\x07\x1b\x1b]52;c;aGVsbG8=\x07\x1b\\";
        let want = [&plain[..], &wrapped[..]].concat();
        assert_eq!(got, want);
    }

    #[test]
    fn screen_gets_the_sequence_in_pieces_each_in_its_own_string() {
        let text = "x".repeat(100);
        let got = sequence(&text, Mux::Screen).unwrap();
        let plain = sequence(&text, Mux::None).unwrap();
        assert!(
            plain.len() > 2 * SCREEN_CHUNK,
            "the test needs three pieces"
        );
        let mut want = Vec::new();
        for piece in plain.chunks(SCREEN_CHUNK) {
            want.extend_from_slice(b"\x1bP");
            want.extend_from_slice(piece);
            want.extend_from_slice(b"\x1b\\");
        }
        assert_eq!(got, want);
        // Unwrapped, the pieces are the plain sequence again.
        let unwrapped: Vec<u8> = got
            .chunks(SCREEN_CHUNK + 4)
            .flat_map(|c| c[2..c.len() - 2].to_vec())
            .collect();
        assert_eq!(unwrapped, plain);
    }

    #[test]
    fn the_size_cap_is_at_the_documented_limit() {
        let most = "a".repeat(MAX_TEXT);
        let seq = sequence(&most, Mux::None).unwrap();
        assert_eq!(seq.len(), RESET.len() + 100_000);
        let over = "a".repeat(MAX_TEXT + 1);
        match sequence(&over, Mux::None) {
            Err(ClipboardError::TooLong { len, max }) => {
                assert_eq!((len, max), (MAX_TEXT + 1, MAX_TEXT));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            sequence("", Mux::None),
            Err(ClipboardError::Empty)
        ));
    }

    #[test]
    fn copy_writes_the_sequence_and_nothing_else() {
        let mut out = Vec::new();
        assert_eq!(copy(&mut out, "e4", Mux::None).unwrap(), 2);
        assert_eq!(out, b"\x1b]52;c;!\x07\x1b]52;c;ZTQ=\x07".to_vec());
        // A refused text writes nothing.
        let mut out = Vec::new();
        assert!(copy(&mut out, "", Mux::Tmux).is_err());
        assert!(out.is_empty());
    }

    #[test]
    fn the_multiplexer_comes_from_tmux_then_sty() {
        let v = |s: &'static str| Some(OsStr::new(s));
        assert_eq!(Mux::detect(None, None), Mux::None);
        assert_eq!(Mux::detect(v("/tmp/tmux-0/default,1,0"), None), Mux::Tmux);
        assert_eq!(Mux::detect(None, v("1234.pts-0.host")), Mux::Screen);
        assert_eq!(Mux::detect(v("/tmp/t,1,0"), v("1.pts")), Mux::Tmux);
        assert_eq!(Mux::detect(v(""), v("")), Mux::None);
    }
}
