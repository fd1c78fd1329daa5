use super::*;

fn keys(bytes: &[u8]) -> Vec<Input> {
    let mut d = Decoder::new();
    let now = Instant::now();
    let mut out = d.feed(bytes, now);
    out.extend(d.idle(now + Duration::from_secs(5)));
    out
}

fn k(code: KeyCode, m: KeyModifiers) -> Input {
    Input::Key(key(code, m))
}

const NO: KeyModifiers = KeyModifiers::NONE;
const PASTE_START: &[u8] = b"\x1b[200~";

#[test]
fn keys_as_terminals_send_them() {
    let cases: &[(&[u8], Input)] = &[
        (b"a", k(KeyCode::Char('a'), NO)),
        (b"N", k(KeyCode::Char('N'), KeyModifiers::SHIFT)),
        ("♘".as_bytes(), k(KeyCode::Char('♘'), NO)),
        (b"\r", k(KeyCode::Enter, NO)),
        (b"\n", k(KeyCode::Char('j'), KeyModifiers::CONTROL)),
        (b"\x7f", k(KeyCode::Backspace, NO)),
        (b"\x08", k(KeyCode::Backspace, NO)),
        (b"\x03", k(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        (b"\x15", k(KeyCode::Char('u'), KeyModifiers::CONTROL)),
        (b"\x1b", k(KeyCode::Esc, NO)),
        (b"\x1b[D", k(KeyCode::Left, NO)),
        (b"\x1b[1;5C", k(KeyCode::Right, KeyModifiers::CONTROL)),
        (b"\x1bOA", k(KeyCode::Up, NO)),
        (b"\x1bOP", k(KeyCode::F(1), NO)),
        (b"\x1b[15~", k(KeyCode::F(5), NO)),
        (b"\x1b[2~", k(KeyCode::Insert, NO)),
        (b"\x1b[3~", k(KeyCode::Delete, NO)),
        (b"\x1b[5~", k(KeyCode::PageUp, NO)),
        (b"\x1b[H", k(KeyCode::Home, NO)),
        (b"\x1b[F", k(KeyCode::End, NO)),
        (b"\x1b[Z", k(KeyCode::BackTab, KeyModifiers::SHIFT)),
        (b"\x1bx", k(KeyCode::Char('x'), KeyModifiers::ALT)),
        (b"\x1b[99;5u", k(KeyCode::Char('c'), KeyModifiers::CONTROL)),
    ];
    for (bytes, want) in cases {
        assert_eq!(keys(bytes), vec![want.clone()], "{bytes:?}");
    }
}

#[test]
fn a_character_split_between_reads_waits_for_its_rest() {
    let mut d = Decoder::new();
    let now = Instant::now();
    let knight = "♘".as_bytes();
    assert!(d.feed(&knight[..1], now).is_empty());
    assert_eq!(d.feed(&knight[1..], now), vec![k(KeyCode::Char('♘'), NO)]);
    // A cut arrow key too.
    assert!(d.feed(b"\x1b[", now).is_empty());
    assert_eq!(d.feed(b"D", now), vec![k(KeyCode::Left, NO)]);
}

#[test]
fn a_bracketed_paste_is_one_event_with_its_line_breaks() {
    let got = keys(b"x\x1b[200~1. e4 e5\r2. Nf3\x1b[201~");
    assert_eq!(
        got,
        vec![
            k(KeyCode::Char('x'), NO),
            Input::Paste(Pasted {
                text: "1. e4 e5\r2. Nf3".into(),
                ended: true,
                dropped: 0
            }),
        ]
    );
    // A key in a read of its own after the paste is a key.
    let mut d = Decoder::new();
    let now = Instant::now();
    d.feed(b"\x1b[200~e4\x1b[201~", now);
    assert_eq!(d.feed(b"\r", now), vec![k(KeyCode::Enter, NO)]);
}

/// What comes in the same read as a paste, after its end mark, is the paste's: nobody
/// types that fast, and a pasted text holding an end mark of its own (a terminal that
/// passes ESC through, as tmux's `paste-buffer -p` does) must not run `:q!`.
#[test]
fn bytes_sent_with_a_paste_after_its_end_mark_are_pasted_text_not_keys() {
    for wire in [
        &b"\x1b[200~e6\x1b[201~:q!\r"[..],
        b"\x1b[200~e6\x1b[201~:q!\x1b[201~\r",
        b"\x1b[200~e6\x1b[201~\x1b[200~:q!\r\x1b[201~",
    ] {
        assert_eq!(
            keys(wire),
            vec![Input::Paste(Pasted {
                text: "e6:q!\r".into(),
                ended: true,
                dropped: 0
            })],
            "{wire:?}"
        );
    }
    // A paste already open when the read begins, too.
    let mut d = Decoder::new();
    let now = Instant::now();
    assert!(d.feed(b"\x1b[200~e6", now).is_empty());
    let got = d.feed(b"\x1b[201~:q!\r", now);
    assert!(
        matches!(&got[..], [Input::Paste(p)] if p.text == "e6:q!\r"),
        "{got:?}"
    );
}

#[test]
fn a_paste_in_many_reads_with_its_end_mark_cut() {
    let text = "e4 e5 ".repeat(1000);
    let mut wire = PASTE_START.to_vec();
    wire.extend_from_slice(text.as_bytes());
    wire.extend_from_slice(PASTE_END);
    // Every chunk size, so that marks fall across reads everywhere; then a key, read
    // on its own.
    for size in [1, 2, 3, 5, 7, 1024] {
        let mut d = Decoder::new();
        let now = Instant::now();
        let mut got = Vec::new();
        for chunk in wire.chunks(size) {
            got.extend(d.feed(chunk, now));
        }
        got.extend(d.feed(b"\x03", now));
        assert_eq!(
            got,
            vec![
                Input::Paste(Pasted {
                    text: text.clone(),
                    ended: true,
                    dropped: 0
                }),
                k(KeyCode::Char('c'), KeyModifiers::CONTROL),
            ],
            "chunks of {size}"
        );
    }
}

#[test]
fn a_paste_without_its_end_mark_is_closed_when_input_stops() {
    let mut d = Decoder::new();
    let now = Instant::now();
    assert!(d.feed(b"\x1b[200~e4", now).is_empty());
    // Before the timeout, keys still belong to the paste.
    assert!(d.idle(now + PASTE_IDLE / 2).is_empty());
    let closed = d.idle(now + PASTE_IDLE);
    assert!(matches!(&closed[..], [Input::Paste(p)] if !p.whole()));
    assert_eq!(
        closed,
        vec![Input::Paste(Pasted {
            text: "e4".into(),
            ended: false,
            dropped: 0
        })]
    );
    // Then keys are keys again.
    assert_eq!(
        d.feed(b":q!\r", now + PASTE_IDLE * 2),
        vec![
            k(KeyCode::Char(':'), NO),
            k(KeyCode::Char('q'), NO),
            k(KeyCode::Char('!'), NO),
            k(KeyCode::Enter, NO)
        ]
    );
}

#[test]
fn a_paste_beyond_the_limit_keeps_the_limit_and_counts_the_rest() {
    let mut d = Decoder::new();
    let now = Instant::now();
    assert!(d.feed(PASTE_START, now).is_empty());
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..(PASTE_LIMIT >> 20) + 2 {
        assert!(d.feed(&chunk, now).is_empty());
    }
    let got = d.feed(PASTE_END, now);
    let [Input::Paste(p)] = got.as_slice() else {
        panic!("{got:?}")
    };
    assert_eq!(p.text.len(), PASTE_LIMIT);
    assert_eq!(p.dropped, 2 << 20);
    assert!(p.ended && !p.whole());
}

#[test]
fn garbage_is_skipped_and_keys_after_it_kept() {
    // A mouse report, a stray end mark, a bad UTF-8 byte, then a key.
    assert_eq!(
        keys(b"\x1b[<0;3;4M\x1b[201~\xffa"),
        vec![k(KeyCode::Char('a'), NO)]
    );
}
