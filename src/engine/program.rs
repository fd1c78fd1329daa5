//! The engine's program as a process of the system: found on `PATH` (or where Debian puts
//! it), spawned in a process group of its own, asked whether it ended without reaping it,
//! and stopped with everything it started (an engine run by a wrapper script may start
//! processes that outlive the script).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Where a program is: a path with a directory in it is taken as it is; a bare
/// name is looked up on `PATH`, then in `/usr/games` (where Debian and Ubuntu put
/// `stockfish`, a directory not on every `PATH`). `None` when it is nowhere.
pub fn find_program(path: &Path) -> Option<PathBuf> {
    if path.components().count() != 1 {
        return path.exists().then(|| path.to_path_buf());
    }
    let dirs = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&dirs)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join(path))
        .find(|candidate| candidate.is_file())
}

/// Spawns the program with its three streams piped, in a process group of its own (on
/// Unix). "Text file busy" (a program just written, whose file another thread's fork
/// still holds open for a moment) is retried briefly rather than reported.
pub(super) fn spawn(path: &Path) -> std::io::Result<Child> {
    let mut tries = 0;
    loop {
        let mut command = Command::new(path);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A process group of its own, so that stopping the engine stops what it started
        // (a wrapper script's engine, or its `sleep`).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let result = command.spawn();
        match result {
            Err(e) if e.raw_os_error() == Some(ETXTBSY) && tries < 20 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            other => return other,
        }
    }
}

/// Linux's and the BSDs' "Text file busy".
const ETXTBSY: i32 = 26;

/// Whether `child` has ended, without reaping it (on Unix its process id, and so its
/// group's, stays taken until [`Child::wait`], so [`kill_group`] reaches only its own).
pub(super) fn exited(child: &mut Child) -> bool {
    #[cfg(unix)]
    {
        let pid: libc::id_t = child.id();
        // SAFETY: waitid(2) fills `info`, a plain C struct, zeroed here first; WNOWAIT
        // leaves the child to be reaped by `Child::wait`.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            libc::waitid(libc::P_PID, pid, &mut info, flags) != 0 || info.si_pid() != 0
        }
    }
    #[cfg(not(unix))]
    {
        matches!(child.try_wait(), Ok(Some(_)))
    }
}

/// Kills `child` and, on Unix, its whole process group (made by [`spawn`]), whether it
/// ended already or not; the caller then reaps it with [`Child::wait`].
pub(super) fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group only; the group
        // is the engine's own (made at spawn), which no other process joins.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}
