//! What the batch commands take from the command line besides their options: the inputs
//! (a file, or standard input for `-`, decompressed when compressed with gzip, bzip2, xz or
//! zstd, and transcoded when it is UTF-16 text with a byte-order mark) and the number of threads (`--jobs`, bounded by what the system grants).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::notation::Lang;
pub use crate::store::decompress::Cut;
use crate::store::decompress::{head, Compression, UpToCut};

/// The name messages give standard input (the `-` argument): `<stdin>:3:7: ...`, as
/// compilers say it.
pub const STDIN_NAME: &str = "<stdin>";

/// One input named on the command line: a file, or standard input for `-`; compressed
/// input is decompressed as it is read.
pub enum Input {
    /// A file (regular or not: a FIFO, a device).
    File(File),
    /// Standard input.
    Stdin(io::StdinLock<'static>),
    /// Compressed input (a file or standard input), read through its decompressor; an
    /// error of the decompressor ends it (see [`Cut`]).
    Decoded(UpToCut<Box<dyn Read>>),
}

impl Input {
    /// Opens `path`, or standard input when `path` is `-`. Input compressed with gzip,
    /// bzip2, xz or zstd (told by its first bytes) is decompressed as it is read.
    pub fn open(path: &Path) -> io::Result<Input> {
        if is_stdin(path) {
            let mut stdin = io::stdin().lock();
            let head = head(&mut stdin)?;
            return Ok(match Compression::of(&head) {
                Some(c) => Input::decoded(c.decoder(io::Cursor::new(head).chain(stdin))?),
                None if head.is_empty() => Input::Stdin(stdin),
                // The bytes looked at are read first.
                None => Input::decoded(NulRuns::new(io::Cursor::new(head).chain(stdin))),
            });
        }
        let mut file = File::open(path)?;
        let regular = file.metadata()?.is_file();
        let head = head(&mut file)?;
        let compression = Compression::of(&head);
        if regular {
            // A regular file goes back to its start (it may then be read in chunks).
            io::Seek::seek(&mut file, io::SeekFrom::Start(0))?;
            return Ok(match compression {
                Some(c) => Input::decoded(c.decoder(file)?),
                None => Input::File(file),
            });
        }
        // A pipe or device cannot go back: the bytes looked at are read first.
        let rest = io::Cursor::new(head).chain(file);
        Ok(match compression {
            Some(c) => Input::decoded(c.decoder(rest)?),
            None => Input::decoded(NulRuns::new(rest)),
        })
    }

    fn decoded(read: impl Read + 'static) -> Input {
        Input::Decoded(UpToCut::new(Box::new(read)))
    }

    /// What ended this input before its end, to be asked once it is read: a handle that
    /// stays with the caller when the input is handed on.
    pub fn cut(&self) -> Cut {
        match self {
            Input::Decoded(text) => text.cut(),
            _ => Cut::default(),
        }
    }

    /// The file, when the input is a regular file (which can be read in chunks on several
    /// threads, or read again at known offsets); `None` for standard input, pipes and devices.
    pub fn regular_file(&self) -> Option<&File> {
        match self {
            Input::File(f) if f.metadata().is_ok_and(|m| m.is_file()) => Some(f),
            _ => None,
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Input::File(f) => f.read(buf),
            Input::Stdin(s) => s.read(buf),
            Input::Decoded(text) => text.read(buf),
        }
    }
}

/// The longest run of NUL bytes a stream may send: as long as the largest game read.
const NUL_RUN_LIMIT: u64 = crate::pgn::reader::MAX_GAME as u64;

/// A stream (a pipe, a device, standard input) that ends with an error once it has sent
/// [`NUL_RUN_LIMIT`] NUL bytes in a row. The reader takes NUL bytes as blanks (a file
/// damaged by a crash holds blocks of them between its games), so a device that sends
/// nothing else (`/dev/zero`) would be read for ever without a word; no PGN text holds
/// such a run. A file on disk has an end and is read whole.
struct NulRuns<R> {
    inner: R,
    /// NUL bytes read since the last other byte.
    run: u64,
}

impl<R> NulRuns<R> {
    fn new(inner: R) -> Self {
        NulRuns { inner, run: 0 }
    }
}

impl<R: Read> Read for NulRuns<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.run >= NUL_RUN_LIMIT {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} MiB of NUL bytes in a row, which no PGN text holds (a device such as \
                     /dev/zero?)",
                    NUL_RUN_LIMIT >> 20
                ),
            ));
        }
        let n = self.inner.read(buf)?;
        self.run = match buf[..n].iter().rposition(|&b| b != 0) {
            Some(last) => (n - last - 1) as u64,
            None => self.run + n as u64,
        };
        Ok(n)
    }
}

/// Whether a path argument means standard input.
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// How messages name an input: its path as given, or [`STDIN_NAME`] for `-`.
pub fn name(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    }
}

/// `--input-lang`, for every command that reads moves from PGN files.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Reading {
    /// Piece-letter language of the moves, for files not written in English (en, de, fr,
    /// es, …; figurines are read whatever the language); also of `--moves` for `search`
    /// and `tree`.
    #[arg(long = "input-lang", value_name = "LANG", default_value = "en", value_parser = parse_lang)]
    pub input_lang: &'static Lang,
}

/// `--jobs`, for the commands that read a file on several threads.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Threads {
    /// Threads to use, 1 or more (default: all cores; at most four per core are started).
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

impl Threads {
    /// The threads to start: see [`jobs`].
    pub fn count(self) -> usize {
        jobs(self.jobs)
    }
}

/// Reads a piece-letter language code (clap's value parser for `--input-lang` and
/// `--lang`), listing the known codes when it is unknown.
pub fn parse_lang(code: &str) -> Result<&'static Lang, String> {
    Lang::by_code(code).ok_or_else(|| {
        let codes: Vec<&str> = crate::notation::LANGS.iter().map(|l| l.code).collect();
        format!(
            "unknown language '{}'; known: {}",
            crate::message::shown(code),
            codes.join(" ")
        )
    })
}

/// Threads a command starts at most per core: more only cost memory and start-up time.
const THREADS_PER_CORE: usize = 4;

/// Reads a `--jobs` value: a whole number from 1 on (clap's value parser).
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("0 threads cannot read anything: give 1 or more \
             (or leave --jobs out to use every core)"
            .to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "\"{}\" is not a number of threads: give a whole number from 1 on",
            crate::message::shown(text)
        )),
    }
}

/// The threads to use for `--jobs`: every core when not given, and at most
/// [`THREADS_PER_CORE`] per core whatever is asked (a larger number would only start
/// threads that wait, each with its stack).
pub fn jobs(asked: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    asked
        .unwrap_or(cores)
        .clamp(1, cores.saturating_mul(THREADS_PER_CORE))
}

pub use crate::pgn::chunks::{no_threads, spawn_worker};
