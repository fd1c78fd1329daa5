//! Where `convert` and `annotate` put the games they write: standard output, or the file
//! OUT of `-o`, written atomically (see [`crate::store::write_file`]). OUT is compressed
//! when its name says so (`.gz`, `.bz2`, `.xz`, `.zst`) or, for a file already there, as
//! it already is, so `convert db.pgn.zst -o db.pgn.zst` stays a zstd file. When an input
//! could not be read whole (a compressed file cut short, a file that cannot be opened),
//! an OUT that is one of the inputs is not replaced by what was read: it is left as it
//! was.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::store::{write_file, Compression};

/// Writes the output of a command that reads `inputs`: `write` writes the games and says
/// whether every input was read whole.
pub fn write(
    out: Option<&Path>,
    force: bool,
    inputs: &[PathBuf],
    write: impl FnOnce(&mut dyn Write) -> io::Result<bool>,
) -> io::Result<()> {
    let Some(path) = out else {
        let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
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
