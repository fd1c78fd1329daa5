//! Text as PGN files hold it: the one place where a file's bytes become text and text
//! becomes a file's bytes again.
//!
//! PGN files are meant to be UTF-8 (ISO 8859-1 in the old standard). What real files
//! hold when they are not UTF-8 is Windows-1252, which ChessBase and other Windows
//! programs write: ISO 8859-1 with letters and punctuation in 0x80–0x9F (`Š Ž „ ’ …`).
//! So bytes that are not UTF-8 are read as Windows-1252, which reads ISO 8859-1 files
//! right as well; every byte has a character (the WHATWG table, as browsers use), so
//! nothing is lost and writing the text back as Windows-1252 gives the same bytes.
//! A whole file that starts with a UTF-16 byte-order mark is read as UTF-16.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

/// Text from bytes: UTF-8 when they are valid UTF-8, else Windows-1252.
pub fn decode(raw: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(raw) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => WINDOWS_1252.decode_without_bom_handling(raw).0,
    }
}

/// [`decode`], copying into `scratch` only when the bytes are not UTF-8 (for loops that
/// decode many small pieces).
pub fn decode_into<'a>(raw: &'a [u8], scratch: &'a mut String) -> &'a str {
    match std::str::from_utf8(raw) {
        Ok(text) => text,
        Err(_) => {
            scratch.clear();
            scratch.push_str(&WINDOWS_1252.decode_without_bom_handling(raw).0);
            scratch
        }
    }
}

/// The text of a whole file: a byte-order mark (UTF-8, UTF-16LE or UTF-16BE) names the
/// encoding and is dropped; without one, as [`decode`].
pub fn decode_file(bytes: Vec<u8>) -> String {
    if let Some((encoding, bom)) = Encoding::for_bom(&bytes) {
        if encoding != UTF_8 {
            return encoding
                .decode_without_bom_handling(&bytes[bom..])
                .0
                .into_owned();
        }
    }
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => WINDOWS_1252
            .decode_without_bom_handling(e.as_bytes())
            .0
            .into_owned(),
    }
}

/// True when a file starts with a UTF-16 byte-order mark (such a file must be
/// transcoded before its bytes are read as PGN).
pub fn is_utf16(bytes: &[u8]) -> bool {
    Encoding::for_bom(bytes).is_some_and(|(encoding, _)| encoding != UTF_8)
}

/// How to write `text` into a file whose bytes are `like`: as Windows-1252 when `like` is
/// not UTF-8 and every character of `text` has a byte there, else as UTF-8.
pub fn encoder_like(like: &[u8], text: &str) -> Encoder {
    encoder_for(std::str::from_utf8(like).is_ok(), text)
}

/// [`encoder_like`] for a file known to be UTF-8 (`utf8`) or not, without its bytes.
pub fn encoder_for(utf8: bool, text: &str) -> Encoder {
    let single_byte = !utf8 && {
        let (_, _, unmappable) = WINDOWS_1252.encode(text);
        !unmappable
    };
    Encoder { single_byte }
}

/// The first character of `text` that Windows-1252 has no byte for, if any.
pub fn outside_windows_1252(text: &str) -> Option<char> {
    let mut buf = [0; 4];
    text.chars()
        .filter(|c| !c.is_ascii())
        .find(|c| WINDOWS_1252.encode(c.encode_utf8(&mut buf)).2)
}

/// Writes characters in the encoding chosen by [`encoder_like`].
#[derive(Debug, Clone, Copy)]
pub struct Encoder {
    single_byte: bool,
}

impl Encoder {
    /// True when the characters are written as Windows-1252.
    pub fn is_windows_1252(self) -> bool {
        self.single_byte
    }

    /// Appends `text` to `out` in this encoding.
    pub fn push(self, text: &str, out: &mut Vec<u8>) {
        if self.single_byte {
            out.extend_from_slice(&WINDOWS_1252.encode(text).0);
        } else {
            out.extend_from_slice(text.as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_read_as_it_is() {
        assert_eq!(decode("Ljubojević".as_bytes()), "Ljubojević");
        assert!(matches!(decode(b"plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_windows_1252() {
        // Latin-1 letters read as themselves...
        assert_eq!(decode(b"M\xfcller, J\xfcrgen"), "Müller, Jürgen");
        // ...and 0x80-0x9F are the letters and punctuation Windows-1252 puts there, never
        // control characters.
        assert_eq!(
            decode(b"\x8aimun \x8e \x84x\x93 d\x92 \x85 \x80"),
            "Šimun Ž „x“ d’ … €"
        );
        let mut scratch = String::new();
        assert_eq!(decode_into(b"Pe\x9a\x9e", &mut scratch), "Pešž");
        for byte in 0x80..=0x9fu8 {
            let bytes = [b'a', byte];
            let text = decode(&bytes);
            let c = text.chars().nth(1).expect("a character");
            // The five bytes Windows-1252 leaves undefined keep a character of their own.
            if ![0x81, 0x8d, 0x8f, 0x90, 0x9d].contains(&byte) {
                assert!(!c.is_control(), "{byte:#x} -> {c:?}");
            }
        }
    }

    #[test]
    fn every_byte_comes_back_when_written_as_windows_1252() {
        let all: Vec<u8> = (0x20..=0xffu8).collect();
        let text = decode(&all);
        let encoder = encoder_like(&all, &text);
        assert!(encoder.is_windows_1252());
        let mut out = Vec::new();
        encoder.push(&text, &mut out);
        assert_eq!(out, all);
    }

    #[test]
    fn new_text_follows_the_file_or_falls_back_to_utf8() {
        let cp1252_file = b"[White \"M\xfcller\"]\n";
        let mut out = Vec::new();
        encoder_like(cp1252_file, "Šimun Müller").push("Šimun Müller", &mut out);
        assert_eq!(out, b"\x8aimun M\xfcller");
        // A character Windows-1252 does not have: the new text is UTF-8.
        let mut out = Vec::new();
        encoder_like(cp1252_file, "Ding Liren 丁立人").push("丁立人", &mut out);
        assert_eq!(out, "丁立人".as_bytes());
        // A UTF-8 file gets UTF-8.
        let mut out = Vec::new();
        encoder_like("[White \"Müller\"]".as_bytes(), "Müller").push("Müller", &mut out);
        assert_eq!(out, "Müller".as_bytes());
    }

    #[test]
    fn whole_files_with_a_byte_order_mark() {
        let mut utf16le = vec![0xff, 0xfe];
        for unit in "[White \"Šimun\"]\n".encode_utf16() {
            utf16le.extend_from_slice(&unit.to_le_bytes());
        }
        assert!(is_utf16(&utf16le));
        assert_eq!(decode_file(utf16le), "[White \"Šimun\"]\n");
        let mut utf16be = vec![0xfe, 0xff];
        for unit in "1. e4 *".encode_utf16() {
            utf16be.extend_from_slice(&unit.to_be_bytes());
        }
        assert_eq!(decode_file(utf16be), "1. e4 *");
        // A UTF-8 mark stays, as the PGN reader skips it itself.
        assert_eq!(decode_file(b"\xef\xbb\xbf1. e4".to_vec()), "\u{feff}1. e4");
        assert!(!is_utf16(b"\xef\xbb\xbf1. e4"));
        assert_eq!(decode_file(b"K\xf6ln".to_vec()), "Köln");
    }
}
