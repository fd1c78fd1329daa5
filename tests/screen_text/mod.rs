//! The text of a screen drawn on ratatui's test backend, for the rendering tests.

use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// The screen's text, its rows joined by newlines.
pub fn text(term: &Terminal<TestBackend>) -> String {
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
