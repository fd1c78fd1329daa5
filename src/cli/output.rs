//! Where the batch commands put what they write.
//!
//! Standard output is written through [`Stdout`], which remembers the first write that
//! failed, so that every command ends a failed output the same way ([`Stdout::finish`],
//! [`failed`]): a closed pipe (`| head`, whose reader has all it wanted) quietly, any
//! other failure (a full disk, `> /dev/full`, an I/O error) said on standard error with
//! exit code 2, never mistaken for a file that could not be read, nor left unsaid.
//!
//! `convert` and `annotate` write to standard output, or to the file OUT of `-o`, written
//! atomically (see [`crate::store::write_file`]). OUT is compressed when its name says so
//! (`.gz`, `.bz2`, `.xz`, `.zst`) or, for a file already there, as it already is, so
//! `convert db.pgn.zst -o db.pgn.zst` stays a zstd file. When an input could not be read
//! whole (a compressed file cut short, a file that cannot be opened), an OUT that is one
//! of the inputs is not replaced by what was read: it is left as it was.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::exit;
use crate::store::{write_file, Compression};

/// Standard output, buffered, for a batch command. Once a write or a flush has failed,
/// every later one fails at once with the same error, so that a command that goes on
/// (or ignores one result) writes nothing more, and [`Stdout::finish`] knows why.
///
/// It holds the unlocked handle, so that it can be handed to a writing thread; the
/// lock is taken once per buffer written out.
pub struct Stdout {
    out: io::BufWriter<io::Stdout>,
    failed: Option<io::Error>,
}

impl Stdout {
    /// Standard output behind a buffer of the default size.
    pub fn new() -> Self {
        Self::with_capacity(8 << 10)
    }

    /// Standard output behind a buffer of `bytes`.
    pub fn with_capacity(bytes: usize) -> Self {
        Stdout {
            out: io::BufWriter::with_capacity(bytes, io::stdout()),
            failed: None,
        }
    }

    /// Whether a write or a flush has failed: what is written from then on is lost.
    pub fn has_failed(&self) -> bool {
        self.failed.is_some()
    }

    /// Writes out what is buffered and gives the command's exit code: `code` when all
    /// was written, or when the reader has gone (see [`failed`]); else 2, said on standard
    /// error as `scoresheet COMMAND: cannot write to standard output: REASON`.
    pub fn finish(mut self, command: &str, code: u8) -> u8 {
        let _ = self.flush();
        match &self.failed {
            Some(e) => failed(command, e, code),
            None => code,
        }
    }

    /// Notes the first error worth remembering (not an interrupted call, which is tried
    /// again) and passes it on.
    fn noted<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            if e.kind() != io::ErrorKind::Interrupted && self.failed.is_none() {
                self.failed = Some(again(e));
            }
        }
        result
    }

    /// The error a write after a failed one gets.
    fn refused(&self) -> Option<io::Error> {
        self.failed.as_ref().map(again)
    }
}

impl Default for Stdout {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(e) = self.refused() {
            return Err(e);
        }
        let written = self.out.write(buf);
        self.noted(written)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if let Some(e) = self.refused() {
            return Err(e);
        }
        let written = self.out.write_all(buf);
        self.noted(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(e) = self.refused() {
            return Err(e);
        }
        let flushed = self.out.flush();
        self.noted(flushed)
    }
}

/// A copy of `e` (an `io::Error` cannot be cloned): the same kind and the same words.
fn again(e: &io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(code) => io::Error::from_raw_os_error(code),
        None => io::Error::new(e.kind(), e.to_string()),
    }
}

/// The exit code of `command` after its standard output failed with `e`. A closed pipe
/// (`scoresheet list big.pgn | head`: the reader stopped, having what it wanted) is no
/// error: nothing is said, and the code is `code`, that of what was read until then.
/// Any other failure (a full disk, `> /dev/full`) lost output: it is said on standard
/// error, and the code is 2.
pub fn failed(command: &str, e: &io::Error, code: u8) -> u8 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return code;
    }
    // Not `eprintln!`, which panics when standard error cannot be written either.
    let _ = writeln!(
        io::stderr(),
        "scoresheet {command}: cannot write to standard output: {e}"
    );
    exit::USAGE
}

/// Writes the output of a command that reads `inputs`: `write` writes the games and says
/// whether every input was read whole. Without OUT the error of a write that failed is the
/// caller's to end with [`failed`].
pub fn write(
    out: Option<&Path>,
    force: bool,
    inputs: &[PathBuf],
    write: impl FnOnce(&mut dyn Write) -> io::Result<bool>,
) -> io::Result<()> {
    let Some(path) = out else {
        let mut out = Stdout::with_capacity(1 << 16);
        write(&mut out)?;
        return out.flush();
    };
    // Only a regular file is looked into: opening a FIFO to read it would wait for a
    // writer that never comes (a device or pipe is written as a stream, uncompressed
    // unless its name says otherwise).
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    let packing = Compression::of_name(path)
        .or_else(|| regular.then(|| Compression::of_file(path).ok().flatten())?)
        .filter(|c| c.writable());
    let replaces_an_input = inputs.iter().any(|input| same_file(input, path));
    write_file(path, force, |out| {
        let whole = match packing {
            Some(c) => {
                // Every packing written is one with an encoder (UTF-16 is left out above).
                let mut packed = c.encoder(out)?.ok_or_else(|| io::Error::other(c.name()))?;
                let whole = write(&mut packed)?;
                packed.finish()?;
                whole
            }
            None => write(out)?,
        };
        if !whole && replaces_an_input {
            return Err(io::Error::other(
                "not every input could be read whole (see above), and this file is one of \
                 them: what was read does not replace it (write to another file with -o)",
            ));
        }
        Ok(())
    })
}

/// Whether two paths name the same file (through links, or written differently).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}
