//! The engine core against the scripted stand-in (and the real stockfish when it
//! is installed): handshake, options, searches, re-aiming, and every failure
//! ending in a clear error rather than a hang.

mod uci_standin;

use std::time::Duration;

use scoresheet::engine::{
    line_text, parse_uci_move, Analysis, Engine, EngineConfig, EngineError, Limit, Score, Target,
    Update,
};
use scoresheet::notation::{Lang, Style};
use scoresheet::position::Position;
use uci_standin::{received, StandIn};

fn config(path: std::path::PathBuf) -> EngineConfig {
    EngineConfig {
        path,
        answer_timeout: Duration::from_secs(5),
        silence_timeout: Some(Duration::from_secs(5)),
        ..EngineConfig::default()
    }
}

const AFTER_E4: &str = "position startpos moves e2e4";

/// The first update `pick` takes, waiting at most 5 s for each (a test never hangs).
fn first<T>(updates: &std::sync::mpsc::Receiver<Update>, pick: impl Fn(Update) -> Option<T>) -> T {
    loop {
        let update = updates
            .recv_timeout(Duration::from_secs(5))
            .expect("an update within 5 s");
        if let Some(t) = pick(update) {
            return t;
        }
    }
}

#[test]
fn handshake_options_and_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new()
        .name("Scripted 1.0")
        .banner(&["Scripted engine, not a real one", "garbage ✓ line"])
        .on(
            AFTER_E4,
            &[
                "info depth 1 seldepth 2 multipv 1 score cp -20 nodes 10 nps 1000 time 10 pv e7e5 g1f3",
                "info depth 1 multipv 2 score cp -35 upperbound pv c7c5 e4e5 e4e5",
                "info depth 2 currmove e7e5 currmovenumber 1",
            ],
            "e7e5",
        )
        .write(dir.path());
    let cfg = EngineConfig {
        threads: Some(2),
        hash_mb: Some(32),
        multipv: 3,
        ..config(path)
    };
    let mut engine = Engine::start(&cfg).unwrap();
    assert_eq!(engine.name(), "Scripted 1.0");
    let start = Position::start();
    let e4 = parse_uci_move(&start, "e2e4").unwrap();
    let result = engine.search(&start, &[e4], Limit::Depth(5)).unwrap();
    let after = start.play(e4);
    assert_eq!(result.best, parse_uci_move(&after, "e7e5"));
    assert_eq!(result.lines.len(), 2);
    let best = &result.lines[0];
    assert_eq!(
        (best.depth, best.seldepth, best.nodes),
        (1, Some(2), Some(10))
    );
    // Black to move, -0.20 for Black is +0.20 for White.
    assert_eq!(best.white_score(&after), Score::Cp(20));
    assert_eq!(
        line_text(&after, &best.pv, Style::San, Lang::by_code("fr").unwrap()),
        "1... e5 2. Cf3"
    );
    // The second line's illegal repetition of e4e5 is cut off.
    assert_eq!(result.lines[1].pv.len(), 2);
    engine.quit();
    let log = received(dir.path());
    for sent in [
        "uci",
        "setoption name Threads value 2",
        "setoption name Hash value 32",
        "setoption name MultiPV value 3",
        "isready",
        AFTER_E4,
        "go depth 5",
        "quit",
    ] {
        assert!(log.lines().any(|l| l == sent), "{sent:?} not sent:\n{log}");
    }
}

#[test]
fn an_analysis_follows_its_aim_and_reports_each_aim_apart() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new()
        .on(AFTER_E4, &["info depth 9 score cp -30 pv e7e5"], "e7e5")
        .on(
            "position startpos moves d2d4",
            &["info depth 7 score cp -25 pv d7d5"],
            "d7d5",
        )
        .write(dir.path());
    let (mut analysis, updates) = Analysis::start(config(path));
    let wait = || {
        updates
            .recv_timeout(Duration::from_secs(5))
            .expect("an update")
    };
    assert_eq!(
        wait(),
        Update::Ready {
            name: "StandIn".into()
        }
    );
    let start = Position::start();
    let target = |uci: &str| Target {
        start,
        moves: vec![parse_uci_move(&start, uci).unwrap()],
    };
    let first = analysis.aim(target("e2e4"), Limit::Infinite);
    let Update::Lines { id, lines } = wait() else {
        panic!("lines expected")
    };
    assert_eq!(id, first);
    assert_eq!(lines.best().unwrap().depth, 9);
    let second = analysis.aim(target("d2d4"), Limit::Infinite);
    let Update::Lines { id, lines } = wait() else {
        panic!("lines expected")
    };
    assert_eq!(id, second);
    assert_eq!(lines.best().unwrap().depth, 7);
    // A limited search reports its end.
    let third = analysis.aim(target("e2e4"), Limit::Nodes(1000));
    loop {
        match wait() {
            Update::Done { id, best, .. } => {
                assert_eq!(id, third);
                assert!(best.is_some());
                break;
            }
            Update::Lines { id, .. } => assert_eq!(id, third),
            other => panic!("unexpected {other:?}"),
        }
    }
    analysis.shutdown();
    let log = received(dir.path());
    let sent: Vec<&str> = log.lines().collect();
    let stop = sent.iter().position(|l| *l == "stop").expect("stop sent");
    let d4 = sent
        .iter()
        .position(|l| *l == "position startpos moves d2d4")
        .unwrap();
    assert!(stop < d4, "re-aiming stops the old search first:\n{log}");
    assert_eq!(sent.last(), Some(&"quit"));
}

#[test]
fn an_engine_that_never_answers_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new()
        .banner(&["I am not an engine"])
        .silent()
        .write(dir.path());
    let cfg = EngineConfig {
        answer_timeout: Duration::from_millis(300),
        ..config(path)
    };
    let err = Engine::start(&cfg).unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "uciok",
                ..
            }
        ),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("uciok") && text.contains("I am not an engine"),
        "{text}"
    );
}

#[test]
fn an_engine_that_dies_is_reported_with_its_last_words() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new().die_after_go(1).write(dir.path());
    let mut engine = Engine::start(&config(path)).unwrap();
    let err = engine
        .search(&Position::start(), &[], Limit::Depth(1))
        .unwrap_err();
    let EngineError::Died { status, stderr, .. } = &err else {
        panic!("died expected, got {err}");
    };
    assert!(status.as_deref().unwrap_or("").contains('3'), "{err}");
    assert_eq!(stderr.last().map(String::as_str), Some("standin: crashed"));
    assert!(err.to_string().contains("standin: crashed"), "{err}");
}

#[test]
fn an_analysis_whose_engine_dies_says_so_and_ends() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new().die_after_go(1).write(dir.path());
    let (mut analysis, updates) = Analysis::start(config(path));
    analysis.aim(Target::default(), Limit::Infinite);
    let failed = updates
        .iter()
        .find_map(|u| match u {
            Update::Failed(e) => Some(e),
            _ => None,
        })
        .expect("a failure");
    assert!(matches!(failed, EngineError::Died { .. }), "{failed}");
}

#[test]
fn programs_that_cannot_run_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-engine");
    let err = Engine::start(&config(missing.clone())).unwrap_err();
    assert!(matches!(err, EngineError::NotFound { .. }), "{err}");
    let (_analysis, updates) = Analysis::start(config(missing));
    assert!(matches!(
        updates.recv_timeout(Duration::from_secs(5)),
        Ok(Update::Failed(EngineError::NotFound { .. }))
    ));

    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, "not a program").unwrap();
    let err = Engine::start(&config(plain)).unwrap_err();
    assert!(matches!(err, EngineError::NotExecutable { .. }), "{err}");
}

#[test]
fn an_illegal_best_move_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new()
        .otherwise(&["info depth 1 score cp 0 pv e2e5"], "e2e5")
        .write(dir.path());
    let mut engine = Engine::start(&config(path)).unwrap();
    let err = engine
        .search(&Position::start(), &[], Limit::Depth(1))
        .unwrap_err();
    assert!(matches!(err, EngineError::Protocol { .. }), "{err}");
    assert!(err.to_string().contains("e2e5"), "{err}");
}

/// Whether the real engine is installed; says so plainly when it is not (and fails
/// under CI, which installs it).
fn stockfish() -> Option<EngineConfig> {
    let found = scoresheet::engine::find_program("stockfish".as_ref()).is_some();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "stockfish is not installed, and CI must run the real-engine tests"
        );
        eprintln!(
            "SKIPPED: stockfish is not on PATH nor in /usr/games (install it to run this test)"
        );
        return None;
    }
    Some(EngineConfig {
        threads: Some(1),
        hash_mb: Some(16),
        ..EngineConfig::default()
    })
}

#[test]
fn real_stockfish_searches_and_mates() {
    let Some(cfg) = stockfish() else { return };
    let mut engine = Engine::start(&cfg).unwrap();
    assert!(engine.name().starts_with("Stockfish"), "{}", engine.name());
    let start = Position::start();
    let a = engine.search(&start, &[], Limit::Nodes(20_000)).unwrap();
    engine.new_game().unwrap();
    let b = engine.search(&start, &[], Limit::Nodes(20_000)).unwrap();
    assert!(a.best.is_some());
    assert_eq!(a.best, b.best, "a node count gives the same answer");
    assert_eq!(a.lines[0].score, b.lines[0].score);
    // Mate in one (White: Qh5xf7#-style position).
    let mate = Position::from_fen("6k1/5ppp/8/8/8/8/8/R6K w - - 0 1").unwrap();
    let r = engine.search(&mate, &[], Limit::Depth(5)).unwrap();
    assert_eq!(r.lines[0].score, Score::Mate(1));
    assert_eq!(r.best, parse_uci_move(&mate, "a1a8"));
    engine.quit();
}

#[test]
fn a_flood_of_infos_reaches_a_screen_as_a_few_updates_ending_with_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let flood: Vec<String> = (1..=60)
        .map(|d| format!("info depth {d} score cp {d} pv e2e4"))
        .collect();
    let flood: Vec<&str> = flood.iter().map(String::as_str).collect();
    let path = StandIn::new()
        .on("position startpos", &flood, "e2e4")
        .write(dir.path());
    let (mut analysis, updates) = Analysis::start(config(path));
    let id = analysis.aim(Target::default(), Limit::Infinite);
    let mut seen = 0;
    loop {
        match updates
            .recv_timeout(Duration::from_secs(5))
            .expect("an update")
        {
            Update::Lines { id: got, lines } => {
                assert_eq!(got, id);
                seen += 1;
                if lines.best().unwrap().depth == 60 {
                    break;
                }
            }
            Update::Ready { .. } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(seen < 10, "60 infos gave {seen} updates");
    analysis.shutdown();
}

#[test]
fn a_search_that_goes_silent_is_stopped_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new().hang_on_go().write(dir.path());
    let cfg = EngineConfig {
        silence_timeout: Some(Duration::from_millis(300)),
        answer_timeout: Duration::from_millis(300),
        ..config(path)
    };
    let mut engine = Engine::start(&cfg).unwrap();
    let err = engine
        .search(&Position::start(), &[], Limit::Depth(20))
        .unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn an_analysis_whose_engine_ignores_stop_fails_instead_of_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new()
        .on(
            "position startpos",
            &["info depth 5 score cp 10 pv e2e4"],
            "e2e4",
        )
        .deaf_to_stop()
        .write(dir.path());
    let cfg = EngineConfig {
        answer_timeout: Duration::from_millis(300),
        ..config(path)
    };
    let (mut analysis, updates) = Analysis::start(cfg);
    analysis.aim(Target::default(), Limit::Infinite);
    // Its first lines say the search is on; then stop it.
    first(&updates, |u| {
        matches!(u, Update::Lines { .. }).then_some(())
    });
    analysis.stop();
    let failed = first(&updates, |u| match u {
        Update::Failed(e) => Some(e),
        _ => None,
    });
    assert!(
        matches!(
            failed,
            EngineError::Timeout {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{failed}"
    );
}

#[test]
fn an_endless_analysis_whose_engine_hangs_is_found_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = StandIn::new().freeze_on_go().write(dir.path());
    let cfg = EngineConfig {
        answer_timeout: Duration::from_millis(300),
        probe_after: Duration::from_millis(200),
        ..config(path)
    };
    let (mut analysis, updates) = Analysis::start(cfg);
    analysis.aim(Target::default(), Limit::Infinite);
    // Nobody re-aims it: the analysis notices on its own that the engine is gone.
    let failed = first(&updates, |u| match u {
        Update::Failed(e) => Some(e),
        _ => None,
    });
    assert!(
        matches!(
            failed,
            EngineError::Timeout {
                waiting_for: "readyok",
                ..
            }
        ),
        "{failed}"
    );
    assert!(received(dir.path()).contains("go infinite"));
}

#[test]
fn a_quiet_but_healthy_analysis_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    // Says one line, then nothing until stopped, but answers `isready`.
    let path = StandIn::new()
        .on(
            "position startpos",
            &["info depth 30 score cp 12 pv e2e4"],
            "e2e4",
        )
        .write(dir.path());
    let cfg = EngineConfig {
        answer_timeout: Duration::from_millis(300),
        probe_after: Duration::from_millis(100),
        ..config(path)
    };
    let (mut analysis, updates) = Analysis::start(cfg);
    analysis.aim(Target::default(), Limit::Infinite);
    first(&updates, |u| {
        matches!(u, Update::Lines { .. }).then_some(())
    });
    // Several probes' worth of silence: asked, answered, never a failure.
    std::thread::sleep(Duration::from_millis(1200));
    while let Ok(update) = updates.try_recv() {
        assert!(!matches!(update, Update::Failed(_)), "{update:?}");
    }
    assert!(
        received(dir.path()).matches("isready").count() >= 3,
        "the engine was asked: {}",
        received(dir.path())
    );
    analysis.shutdown();
}

/// An engine run by a wrapper script that ignores `quit`: stopping it stops what the
/// script started too (its process group), so no process is left behind.
#[cfg(target_os = "linux")]
#[test]
fn stopping_an_engine_stops_what_its_script_started() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let script = dir.path().join("wrapper.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nsleep 1000 &\necho $! > '{}'\n\
             while read line; do case \"$line\" in uci) echo 'id name Wrapper'; echo uciok ;; \
             isready) echo readyok ;; esac; done\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let engine = Engine::start(&config(script)).unwrap();
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let state = || {
        std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .ok()
            .and_then(|s| {
                s.rsplit(')')
                    .next()
                    .and_then(|r| r.split_whitespace().next().map(str::to_string))
            })
    };
    assert!(state().is_some_and(|s| s != "Z"), "the script's child runs");
    drop(engine);
    // Gone, or a zombie waiting for init to reap it: never still running.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while state().is_some_and(|s| s != "Z") && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        state().is_none_or(|s| s == "Z"),
        "left running: {:?}",
        state()
    );
}

/// An engine program written as a shell script in `dir`.
fn script(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// An engine that floods its output, or prints a line that never ends, is timed out like
/// one that says nothing (before, the flood filled memory until the process was killed).
#[test]
fn an_engine_that_floods_its_output_or_never_ends_a_line_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let answers = "read -r l; echo 'id name Flood'; echo uciok";
    let flood = script(
        dir.path(),
        "flood",
        &format!("{answers}\nexec yes 'info string flooding'"),
    );
    let endless = script(
        dir.path(),
        "endless",
        &format!("{answers}\nexec tr -d '\\n' < /dev/zero | tr '\\0' x"),
    );
    for path in [flood, endless] {
        let cfg = EngineConfig {
            answer_timeout: Duration::from_millis(500),
            ..config(path.clone())
        };
        let err = Engine::start(&cfg).unwrap_err();
        assert!(
            matches!(
                err,
                EngineError::Timeout {
                    waiting_for: "readyok",
                    ..
                }
            ),
            "{}: {err}",
            path.display()
        );
    }
}

/// A search whose engine talks on without a word on the search (`info string …`) is
/// stopped after the silence timeout, as one that says nothing.
#[test]
fn a_search_that_only_chatters_is_stopped_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = script(
        dir.path(),
        "chatter",
        "while read -r cmd; do\n  case \"$cmd\" in\n    uci) echo 'id name Chatter'; echo uciok;;\n    \
         isready) echo readyok;;\n    go*) exec yes 'info string still thinking';;\n  esac\ndone",
    );
    let cfg = EngineConfig {
        silence_timeout: Some(Duration::from_millis(500)),
        ..config(path)
    };
    let mut engine = Engine::start(&cfg).unwrap();
    let err = engine
        .search(&Position::start(), &[], Limit::Depth(20))
        .unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{err}"
    );
}
