//! Input that may be compressed: the formats big PGN databases are shipped in (gzip, bzip2,
//! xz, zstd), told by their first bytes, and UTF-16 text (told by its byte-order mark),
//! read back as the plain bytes of the PGN text. The batch commands (`cli::input`) and the
//! game list's loader ([`crate::catalog::Loader`]) open their inputs through here.

use std::io::{self, Read};

/// The compressed formats read, told by their first bytes (so a file is recognised
/// whatever its name, and so is standard input).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip (`.gz`).
    Gzip,
    /// bzip2 (`.bz2`).
    Bzip2,
    /// xz (`.xz`).
    Xz,
    /// Zstandard (`.zst`).
    Zstd,
    /// Not compressed, but UTF-16 text (a byte-order mark says so): read as UTF-8.
    Utf16,
}

/// Bytes looked at to recognise a compressed input.
pub const MAGIC: usize = 6;

impl Compression {
    /// The format whose magic bytes `head` starts with. PGN text never starts so: these are
    /// control or non-UTF-8 bytes, or (bzip2) `BZh`, a digit and a non-text byte.
    pub fn of(head: &[u8]) -> Option<Compression> {
        match head {
            [0x1f, 0x8b, ..] => Some(Compression::Gzip),
            [b'B', b'Z', b'h', b'1'..=b'9', 0x31 | 0x17, ..] => Some(Compression::Bzip2),
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Some(Compression::Xz),
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
            _ if crate::text::is_utf16(head) => Some(Compression::Utf16),
            _ => None,
        }
    }

    /// A reader of the decompressed bytes of `src` (every member or frame, one after the
    /// other, as the command-line tools give them). It can move to another thread when
    /// `src` can.
    pub fn decoder<R: Read>(self, src: R) -> io::Result<Decoder<R>> {
        let src = io::BufReader::with_capacity(1 << 16, src);
        Ok(match self {
            Compression::Gzip => {
                Decoder::Gzip(Sniffed::new(flate2::bufread::MultiGzDecoder::new(src)))
            }
            Compression::Bzip2 => {
                Decoder::Bzip2(Sniffed::new(bzip2::bufread::MultiBzDecoder::new(src)))
            }
            Compression::Xz => Decoder::Xz(Sniffed::new(
                liblzma::bufread::XzDecoder::new_multi_decoder(src),
            )),
            Compression::Zstd => {
                Decoder::Zstd(Sniffed::new(zstd::stream::read::Decoder::with_buffer(src)?))
            }
            // Transcoded to UTF-8 as it is read, the byte-order mark dropped.
            Compression::Utf16 => Decoder::Utf16(utf16(src)),
        })
    }
}

/// The decompressed (or transcoded) bytes of a source, from [`Compression::decoder`]: the
/// decompressed bytes of a compressed source are themselves transcoded when they are
/// UTF-16 text (see [`Sniffed`]).
pub enum Decoder<R: Read> {
    /// gzip members.
    Gzip(Sniffed<flate2::bufread::MultiGzDecoder<io::BufReader<R>>>),
    /// bzip2 streams.
    Bzip2(Sniffed<bzip2::bufread::MultiBzDecoder<io::BufReader<R>>>),
    /// xz streams.
    Xz(Sniffed<liblzma::bufread::XzDecoder<io::BufReader<R>>>),
    /// Zstandard frames.
    Zstd(Sniffed<zstd::stream::read::Decoder<'static, io::BufReader<R>>>),
    /// UTF-16 text, as UTF-8.
    Utf16(Utf16<io::BufReader<R>>),
}

impl<R: Read> Decoder<R> {
    /// Whether the text is UTF-16 (plain, or once decompressed), read as UTF-8: a file
    /// that scoresheet reads but does not write. Reads the first bytes when not read yet.
    pub fn is_utf16(&mut self) -> io::Result<bool> {
        match self {
            Decoder::Gzip(d) => d.is_utf16(),
            Decoder::Bzip2(d) => d.is_utf16(),
            Decoder::Xz(d) => d.is_utf16(),
            Decoder::Zstd(d) => d.is_utf16(),
            Decoder::Utf16(_) => Ok(true),
        }
    }
}

impl<R: Read> Read for Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Decoder::Gzip(d) => d.read(buf),
            Decoder::Bzip2(d) => d.read(buf),
            Decoder::Xz(d) => d.read(buf),
            Decoder::Zstd(d) => d.read(buf),
            Decoder::Utf16(d) => d.read(buf),
        }
    }
}

/// UTF-16 text (a byte-order mark first) read as UTF-8, the mark dropped.
type Utf16<R> = encoding_rs_io::DecodeReaderBytes<R, Vec<u8>>;

fn utf16<R: Read>(src: R) -> Utf16<R> {
    encoding_rs_io::DecodeReaderBytesBuilder::new()
        .bom_sniffing(true)
        .build(src)
}

/// Decompressed bytes, passed on as they are, or transcoded to UTF-8 when they start with
/// a UTF-16 byte-order mark (a UTF-16 file compressed, as a Windows tool's export may be):
/// told by the first bytes, at the first read.
pub struct Sniffed<D: Read>(Sniff<D>);

enum Sniff<D: Read> {
    /// Not read yet.
    Start(D),
    /// The first bytes looked at, then the rest.
    Plain(io::Chain<io::Cursor<Vec<u8>>, D>),
    /// The same, transcoded.
    Utf16(Box<Utf16<io::Chain<io::Cursor<Vec<u8>>, D>>>),
    /// Reading the first bytes failed (the error was returned): nothing more.
    Failed,
}

impl<D: Read> Sniffed<D> {
    fn new(inner: D) -> Self {
        Sniffed(Sniff::Start(inner))
    }

    /// Looks at the first bytes, once.
    fn sniff(&mut self) -> io::Result<()> {
        if !matches!(self.0, Sniff::Start(_)) {
            return Ok(());
        }
        let Sniff::Start(mut inner) = std::mem::replace(&mut self.0, Sniff::Failed) else {
            return Ok(());
        };
        let first = head(&mut inner)?;
        let is_utf16 = crate::text::is_utf16(&first);
        let rest = io::Cursor::new(first).chain(inner);
        self.0 = if is_utf16 {
            Sniff::Utf16(Box::new(utf16(rest)))
        } else {
            Sniff::Plain(rest)
        };
        Ok(())
    }

    fn is_utf16(&mut self) -> io::Result<bool> {
        self.sniff()?;
        Ok(matches!(self.0, Sniff::Utf16(_)))
    }
}

impl<D: Read> Read for Sniffed<D> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.sniff()?;
        match &mut self.0 {
            Sniff::Plain(r) => r.read(buf),
            Sniff::Utf16(r) => r.read(buf),
            Sniff::Start(_) | Sniff::Failed => Ok(0),
        }
    }
}

/// Reads up to [`MAGIC`] bytes (fewer only at the end of the input).
pub fn head(src: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut head = vec![0; MAGIC];
    let mut n = 0;
    while n < MAGIC {
        match src.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    head.truncate(n);
    Ok(head)
}

/// Why a decompressed text ended before its end: a file cut short (a download that did not
/// finish), or damaged. Read through [`UpToCut`], the text then reads as if it ended there,
/// so that every game before is read and only the last, incomplete one is lost; the reader
/// says why after. A handle: clones share the one error.
#[derive(Clone, Default)]
pub struct Cut(std::sync::Arc<std::sync::Mutex<Option<io::Error>>>);

impl Cut {
    /// The error that ended the text, once (`None` when it was read to its end).
    pub fn take(&self) -> Option<io::Error> {
        self.0.lock().ok()?.take()
    }

    /// A read of the text as the cut sees it: an error (but an interrupted call, which is
    /// tried again) ends the text, and is kept.
    fn ending(&self, read: io::Result<usize>) -> io::Result<usize> {
        match read {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => {
                if let Ok(mut slot) = self.0.lock() {
                    slot.get_or_insert(e);
                }
                Ok(0)
            }
            read => read,
        }
    }

    /// What `command` says of the input `name` cut short by `e`, after reading `games`
    /// games (when it counts them): with none read, that it cannot be read, as for a file
    /// that cannot be opened.
    pub fn message(command: &str, name: &str, e: &io::Error, games: Option<u64>) -> String {
        match games {
            Some(0) => format!("scoresheet {command}: cannot read {name}: {e}"),
            Some(n) => format!(
                "scoresheet {command}: cannot read all of {name}: {e}: it ends early, after {} \
                 (the last may be cut short)",
                crate::plural::count(n as usize, "game", "games")
            ),
            None => format!(
                "scoresheet {command}: cannot read all of {name}: {e}: it ends early; the games \
                 before are read"
            ),
        }
    }
}

/// A decoder's text that ends at the decoder's first error, which its [`Cut`] keeps.
pub struct UpToCut<R> {
    inner: R,
    cut: Cut,
}

impl<R> UpToCut<R> {
    /// `inner` read up to its first error.
    pub fn new(inner: R) -> Self {
        UpToCut {
            inner,
            cut: Cut::default(),
        }
    }

    /// The handle to ask, once the text is read, why it ended early.
    pub fn cut(&self) -> Cut {
        self.cut.clone()
    }
}

impl<R: Read> Read for UpToCut<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.cut.ending(self.inner.read(buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Each format is told by its bytes and decoded back to the text it holds.
    #[test]
    fn every_format_reads_back() {
        let text = b"[Event \"x\"]\n\n1. e4 *\n".repeat(50);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text).unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(&text).unwrap();
        let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 1);
        xz.write_all(&text).unwrap();
        let zst = zstd::encode_all(&text[..], 1).unwrap();
        let cases = [
            (gz.finish().unwrap(), Compression::Gzip),
            (bz.finish().unwrap(), Compression::Bzip2),
            (xz.finish().unwrap(), Compression::Xz),
            (zst, Compression::Zstd),
        ];
        for (bytes, format) in cases {
            assert_eq!(Compression::of(&bytes[..MAGIC]), Some(format));
            let mut out = Vec::new();
            format
                .decoder(&bytes[..])
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, text, "{format:?}");
        }
        assert_eq!(Compression::of(&text[..MAGIC]), None);
    }
}
