//! One builder at a time: [`open_or_build`] builds only under the builders' lock, gives way
//! to or waits for another holder of it, and takes the index that one left.

use std::path::Path;
use std::sync::mpsc;

use super::cache::{self, Stamp};
use super::open::{open_or_build, Event, Opened, Opening, WhenBusy};
use crate::notation::Lang;

const PGN: &str = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
                   [White \"c\"]\n[Black \"d\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";

/// A source file in `dir`, and its stamp with the indexes in `dir/index`.
fn source(dir: &Path) -> Stamp {
    let path = dir.join("games.pgn");
    std::fs::write(&path, PGN).expect("write the games");
    Stamp::of_in(&path, &dir.join("index")).expect("a stamp")
}

fn open(stamp: &Stamp, rebuild: bool, busy: WhenBusy) -> Opening {
    open_or_build(
        stamp,
        1,
        1 << 20,
        Lang::english(),
        rebuild,
        busy,
        |_| Ok(()),
    )
    .expect("the file reads")
}

fn ready(opening: Opening) -> Opened {
    match opening {
        Opening::Ready(opened) => *opened,
        Opening::BuiltElsewhere => panic!("given way to a build nobody runs"),
    }
}

/// Opens `stamp`'s index on a thread of its own, waiting for the lock; the receiver hears
/// when it starts waiting.
fn wait(stamp: &Stamp) -> (std::thread::JoinHandle<Opened>, mpsc::Receiver<()>) {
    let (tx, waiting) = mpsc::channel();
    let stamp = stamp.clone();
    let waiter = std::thread::spawn(move || {
        let opening = open_or_build(
            &stamp,
            1,
            1 << 20,
            Lang::english(),
            false,
            WhenBusy::Wait,
            |e| {
                if let Event::Waiting = e {
                    let _ = tx.send(());
                }
                Ok(())
            },
        );
        ready(opening.expect("the file reads"))
    });
    (waiter, waiting)
}

#[test]
fn while_another_holds_the_lock_nothing_is_built_and_a_waiter_takes_its_index() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let stamp = source(dir.path());
    // The index the other builder will leave, made beforehand in a cache of its own (its
    // name depends only on the source's path).
    let other = Stamp::of_in(&stamp.path, &dir.path().join("other")).expect("a stamp");
    assert!(ready(open(&other, false, WhenBusy::GiveWay)).built);
    let left = std::fs::read(other.index_file()).expect("the other index");

    let lock = cache::lock_building(&stamp)
        .expect("the cache can be written")
        .expect("nobody else holds the lock");
    assert!(
        matches!(
            open(&stamp, false, WhenBusy::GiveWay),
            Opening::BuiltElsewhere
        ),
        "the reviewer and the background builder give way"
    );
    assert!(!stamp.index_file().exists(), "nothing was built meanwhile");
    assert!(cache::being_built(&stamp).expect("a lock file"));

    // `scoresheet index` waits, then takes the index the other builder stored.
    let (waiter, waiting) = wait(&stamp);
    waiting.recv().expect("the waiter says it waits");
    std::fs::create_dir_all(&stamp.dir).expect("the index folder");
    std::fs::write(stamp.index_file(), &left).expect("the other builder stores its index");
    drop(lock);
    let opened = waiter.join().expect("the waiter ends");
    assert!(!opened.built, "the waiter took the other's index");
    assert_eq!(opened.games, 2);
    assert_eq!(
        std::fs::read(stamp.index_file()).expect("the index"),
        left,
        "and did not build its own over it"
    );
}

#[test]
fn a_builder_that_finds_the_lock_free_builds_once_and_the_next_finds_the_index() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let stamp = source(dir.path());
    let first = ready(open(&stamp, false, WhenBusy::GiveWay));
    assert!(first.built && first.kept);
    assert!(
        !cache::being_built(&stamp).expect("a lock file"),
        "the lock is let go"
    );
    let second = ready(open(&stamp, false, WhenBusy::GiveWay));
    assert!(!second.built, "found in the cache, not built again");
    // An index found damaged while answering is built again, under the lock.
    let rebuilt = ready(open(&stamp, true, WhenBusy::Wait));
    assert!(rebuilt.built);
}

#[test]
fn a_waiter_whose_other_builder_left_no_index_builds_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let stamp = source(dir.path());
    let lock = cache::lock_building(&stamp)
        .expect("the cache can be written")
        .expect("nobody else holds the lock");
    let (waiter, waiting) = wait(&stamp);
    waiting.recv().expect("the waiter says it waits");
    // The other builder ends without an index (it failed, or was killed).
    drop(lock);
    let opened = waiter.join().expect("the waiter ends");
    assert!(opened.built && opened.kept);
}
