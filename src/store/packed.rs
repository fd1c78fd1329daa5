//! Files whose bytes are not the PGN text itself: compressed with gzip, bzip2, xz or
//! zstd (how the big public databases are shipped), or UTF-16 text. Told by their
//! first bytes, never by their name, so `games.pgn` that is really gzip opens too
//! ([`super::decompress`] tells and reads them; this adds writing them, and opening a
//! file's text for loading).
//!
//! Offsets in such a file ([`Slot`](super::Slot), index entries) count bytes of the
//! decoded text. Saving into a compressed file decodes it whole, puts the game in
//! its place in the text, and writes the whole file again compressed in the same
//! format (the command-line tool's default level), so every other game's decoded
//! bytes stay as they were. UTF-16 files are read but never written: a save into
//! one is refused (see `Compression::writable`).

use std::io::{self, Read, Write};
use std::path::Path;

pub use super::decompress::{Compression, MAGIC};

/// Writing what [`super::decompress`] reads, and reading whole files.
impl Compression {
    /// The packing of the file at `path`, from its first bytes (`None` for plain text, an
    /// empty file, one that is missing, or one that is not a regular file: opening a named
    /// pipe would wait for a program at its other end, for ever, and a device has no
    /// packing).
    pub fn of_file(path: &Path) -> io::Result<Option<Compression>> {
        match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() => return Ok(None),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
            Ok(_) => {}
        }
        let mut file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut head = Vec::with_capacity(MAGIC);
        (&mut file).take(MAGIC as u64).read_to_end(&mut head)?;
        Ok(Compression::of(&head))
    }

    /// [`Compression::of_file`], with a compressed file whose text is UTF-16 told as
    /// `Utf16`: what a save asks, as such a file is read but not written.
    pub fn of_file_written(path: &Path) -> io::Result<Option<Compression>> {
        match Compression::of_file(path)? {
            Some(p) if p.writable() => {
                let file = std::fs::File::open(path)?;
                Ok(Some(p.text_packing(file)?))
            }
            other => Ok(other),
        }
    }

    /// [`Compression::of`] for a whole file's bytes, with a compressed file whose text is
    /// UTF-16 told as `Utf16` (see [`Compression::of_file_written`]).
    pub fn of_bytes_written(bytes: &[u8]) -> io::Result<Option<Compression>> {
        match Compression::of(bytes) {
            Some(p) if p.writable() => Ok(Some(p.text_packing(bytes)?)),
            other => Ok(other),
        }
    }

    /// This packing, or `Utf16` when the text it holds is UTF-16.
    fn text_packing(self, src: impl Read) -> io::Result<Compression> {
        Ok(if self.decoder(src)?.is_utf16()? {
            Compression::Utf16
        } else {
            self
        })
    }

    /// The compression a file name asks for by its extension (`.gz`, `.bz2`, `.xz`,
    /// `.zst`, in any case): how a new file is written, since it has no bytes to tell.
    pub fn of_name(path: &Path) -> Option<Compression> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "gz" => Compression::Gzip,
            "bz2" => Compression::Bzip2,
            "xz" => Compression::Xz,
            "zst" => Compression::Zstd,
            _ => return None,
        })
    }

    /// Its name in messages: `gzip`, `bzip2`, `xz`, `zstd`, `UTF-16 text`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
            Compression::Utf16 => "UTF-16 text",
        }
    }

    /// True when scoresheet writes this packing (every compression; not UTF-16).
    pub fn writable(self) -> bool {
        self != Compression::Utf16
    }

    /// The decoded text of `bytes` (a whole file).
    pub fn decode(self, bytes: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(bytes.len().saturating_mul(4));
        self.decoder(bytes)?.read_to_end(&mut out)?;
        Ok(out)
    }

    /// Compresses what is written to it into `dst`, at the command-line tool's default
    /// level; [`Encoder::finish`] writes the end of the stream. `None` for UTF-16.
    pub fn encoder<'a>(self, dst: &'a mut dyn Write) -> io::Result<Option<Encoder<'a>>> {
        Ok(Some(match self {
            Compression::Gzip => Encoder::Gzip(flate2::write::GzEncoder::new(
                dst,
                flate2::Compression::default(),
            )),
            // bzip2's own default block size is 900k (level 9).
            Compression::Bzip2 => Encoder::Bzip2(bzip2::write::BzEncoder::new(
                dst,
                bzip2::Compression::best(),
            )),
            Compression::Xz => Encoder::Xz(liblzma::write::XzEncoder::new(dst, 6)),
            Compression::Zstd => Encoder::Zstd(zstd::stream::write::Encoder::new(dst, 3)?),
            Compression::Utf16 => return Ok(None),
        }))
    }
}

/// A compressing writer of one of the formats (see [`Compression::encoder`]).
pub enum Encoder<'a> {
    /// gzip.
    Gzip(flate2::write::GzEncoder<&'a mut dyn Write>),
    /// bzip2.
    Bzip2(bzip2::write::BzEncoder<&'a mut dyn Write>),
    /// xz.
    Xz(liblzma::write::XzEncoder<&'a mut dyn Write>),
    /// zstd.
    Zstd(zstd::stream::write::Encoder<'static, &'a mut dyn Write>),
}

impl Encoder<'_> {
    /// Writes the end of the compressed stream (a file without it is truncated for
    /// every decompressor) and flushes it.
    pub fn finish(self) -> io::Result<()> {
        let dst = match self {
            Encoder::Gzip(e) => e.finish()?,
            Encoder::Bzip2(e) => e.finish()?,
            Encoder::Xz(e) => e.finish()?,
            Encoder::Zstd(e) => e.finish()?,
        };
        dst.flush()
    }
}

impl Write for Encoder<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Encoder::Gzip(e) => e.write(buf),
            Encoder::Bzip2(e) => e.write(buf),
            Encoder::Xz(e) => e.write(buf),
            Encoder::Zstd(e) => e.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Gzip(e) => e.flush(),
            Encoder::Bzip2(e) => e.flush(),
            Encoder::Xz(e) => e.flush(),
            Encoder::Zstd(e) => e.flush(),
        }
    }
}

/// Opens the file at `path` for reading its text: decoded when packed. Only a regular
/// file is opened (a pipe would block until something writes to it, a device may
/// never end): anything else is an error saying so.
pub fn open_text(path: &Path) -> io::Result<(Box<dyn Read + Send>, Option<Compression>)> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_a_file(&meta));
    }
    let mut file = std::fs::File::open(path)?;
    let mut head = Vec::with_capacity(MAGIC);
    (&mut file).take(MAGIC as u64).read_to_end(&mut head)?;
    io::Seek::seek(&mut file, io::SeekFrom::Start(0))?;
    Ok(match Compression::of(&head) {
        Some(p) => (Box::new(p.decoder(file)?), Some(p)),
        None => (Box::new(file), None),
    })
}

/// The error for a path that is not a regular file, saying what it is.
pub(crate) fn not_a_file(meta: &std::fs::Metadata) -> io::Error {
    let what = if meta.is_dir() {
        "it is a directory, not a file: give a PGN file in it"
    } else {
        "it is not a file but a pipe, a socket or a device: give a PGN file"
    };
    io::Error::other(what)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every writable packing reads back what it wrote, and is told by its first bytes.
    #[test]
    fn round_trip_of_every_compression() {
        let text = b"[Event \"x\"]\r\n\r\n1. e4 \xe9 *\n".repeat(50);
        for p in [
            Compression::Gzip,
            Compression::Bzip2,
            Compression::Xz,
            Compression::Zstd,
        ] {
            let mut packed = Vec::new();
            let mut enc = p.encoder(&mut packed).unwrap().unwrap();
            enc.write_all(&text).unwrap();
            enc.finish().unwrap();
            assert_eq!(Compression::of(&packed), Some(p));
            assert_eq!(p.decode(&packed).unwrap(), text, "{}", p.name());
        }
        assert!(Compression::Utf16
            .encoder(&mut Vec::new())
            .unwrap()
            .is_none());
        assert_eq!(Compression::of(b"[Event"), None);
        assert_eq!(Compression::of(b""), None);
    }
}
