//! How the screen looks: board style, theme colours (truecolour, or the nearest
//! of the 256-colour palette, or none at all), square size and coordinates.
//!
//! Every square colour is a mid-tone: white pieces and black pieces both keep a
//! contrast of at least 3:1 (WCAG) on every square of every theme, highlighted
//! or not, in truecolour and in the 256-colour fallback (a test checks it).

use ratatui::style::Color;

pub use crate::config::{SquareSize, Theme};

/// The board's colours, as RGB.
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    /// Light squares.
    pub light: (u8, u8, u8),
    /// Dark squares.
    pub dark: (u8, u8, u8),
    /// Light squares of the last move.
    pub last_light: (u8, u8, u8),
    /// Dark squares of the last move.
    pub last_dark: (u8, u8, u8),
    /// Light squares of moves that match the entry line.
    pub hint_light: (u8, u8, u8),
    /// Dark squares of moves that match the entry line.
    pub hint_dark: (u8, u8, u8),
    /// A king in check.
    pub check: (u8, u8, u8),
    /// White's pieces.
    pub white_piece: (u8, u8, u8),
    /// Black's pieces.
    pub black_piece: (u8, u8, u8),
    /// Squares an annotator marked (`[%csl]`, `[%cal]`), by colour letter:
    /// green, red, yellow, blue (any other letter is shown yellow).
    pub marks: [(u8, u8, u8); 4],
}

impl Palette {
    /// The colour of an annotator's mark by its letter (`G`, `R`, `Y`, `B`).
    pub fn mark(&self, letter: char) -> (u8, u8, u8) {
        match letter.to_ascii_uppercase() {
            'G' => self.marks[0],
            'R' => self.marks[1],
            'B' => self.marks[3],
            _ => self.marks[2],
        }
    }
}

/// Everything about the screen's look.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    /// Letters instead of chess glyphs.
    pub ascii: bool,
    /// The board's colours.
    pub theme: Theme,
    /// Full RGB colours; else the nearest of the 256-colour palette.
    pub truecolor: bool,
    /// Square size.
    pub square: SquareSize,
    /// Rank and file letters around the board.
    pub coordinates: bool,
    /// Colours at all; false for `NO_COLOR` or a monochrome terminal, where the
    /// sides differ by glyph (outline White, filled Black) or letter case and the
    /// marks are brackets and reverse video.
    pub color: bool,
}

impl Default for Look {
    fn default() -> Self {
        Look {
            ascii: false,
            theme: Theme::Wood,
            truecolor: true,
            square: SquareSize::Auto,
            coordinates: true,
            color: true,
        }
    }
}

/// True when the user asked for no colour: `NO_COLOR` set and not empty
/// (<https://no-color.org>), or a terminal that says it has none (`TERM=dumb`).
pub fn colour_refused() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
        || std::env::var("TERM").is_ok_and(|t| t == "dumb")
}

/// True when the terminal says it shows 24-bit colour (`COLORTERM`).
pub fn terminal_has_truecolor() -> bool {
    std::env::var("COLORTERM").is_ok_and(|v| v == "truecolor" || v == "24bit")
}

impl Look {
    /// The theme's colours.
    pub fn palette(&self) -> Palette {
        // Light squares sit near 25% relative luminance and dark ones near 15%:
        // both pieces stay readable on both (see the contrast test below).
        let (light, dark, hint_light, hint_dark) = match self.theme {
            Theme::Wood => (
                (160, 133, 98),
                (141, 102, 68),
                (109, 139, 157),
                (79, 114, 137),
            ),
            Theme::Blue => (
                (122, 139, 159),
                (88, 111, 144),
                (120, 141, 98),
                (88, 118, 69),
            ),
            Theme::Green => (
                (136, 140, 108),
                (90, 118, 73),
                (111, 138, 160),
                (80, 113, 146),
            ),
            Theme::Grey => (
                (137, 137, 137),
                (110, 110, 110),
                (114, 137, 160),
                (87, 112, 141),
            ),
        };
        Palette {
            light,
            dark,
            last_light: (150, 138, 67),
            last_dark: (124, 110, 41),
            hint_light,
            hint_dark,
            check: (211, 73, 59),
            white_piece: (255, 255, 255),
            black_piece: (0, 0, 0),
            marks: [(72, 140, 56), (196, 72, 62), (170, 135, 0), (78, 108, 196)],
        }
    }

    /// A palette colour as the terminal can show it.
    pub fn color(&self, (r, g, b): (u8, u8, u8)) -> Color {
        if self.truecolor {
            Color::Rgb(r, g, b)
        } else {
            Color::Indexed(nearest_256(r, g, b))
        }
    }
}

/// The nearest colour of the 6×6×6 cube or the grey ramp of the 256-colour palette.
pub fn nearest_256(r: u8, g: u8, b: u8) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let level = |v: u8| {
        (0..6)
            .min_by_key(|&i| (i32::from(LEVELS[i]) - i32::from(v)).abs())
            .unwrap_or(0)
    };
    let (ri, gi, bi) = (level(r), level(g), level(b));
    let cube = (LEVELS[ri], LEVELS[gi], LEVELS[bi]);
    let dist = |(x, y, z): (u8, u8, u8)| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(x, r) + d(y, g) + d(z, b)
    };
    let grey_index = ((i32::from(r) + i32::from(g) + i32::from(b)) / 3 - 8).clamp(0, 230) / 10;
    let grey = (8 + 10 * grey_index) as u8;
    if dist((grey, grey, grey)) < dist(cube) {
        232 + grey_index as u8
    } else {
        16 + 36 * ri as u8 + 6 * gi as u8 + bi as u8
    }
}

/// The WCAG relative luminance of an sRGB colour (0 black … 1 white).
pub fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// The WCAG contrast ratio of two colours (1 … 21).
pub fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RGB of an entry of the 256-colour palette's cube or grey ramp.
    fn rgb_256(index: u8) -> (u8, u8, u8) {
        const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
        if index >= 232 {
            let v = 8 + 10 * (index - 232);
            return (v, v, v);
        }
        let i = index - 16;
        (
            LEVELS[usize::from(i / 36)],
            LEVELS[usize::from(i / 6 % 6)],
            LEVELS[usize::from(i % 6)],
        )
    }

    #[test]
    fn both_sides_read_on_every_square_of_every_theme() {
        for theme in [Theme::Wood, Theme::Blue, Theme::Green, Theme::Grey] {
            let p = Look {
                theme,
                ..Look::default()
            }
            .palette();
            let squares = [
                ("light", p.light),
                ("dark", p.dark),
                ("last light", p.last_light),
                ("last dark", p.last_dark),
                ("hint light", p.hint_light),
                ("hint dark", p.hint_dark),
                ("check", p.check),
                ("green mark", p.marks[0]),
                ("red mark", p.marks[1]),
                ("yellow mark", p.marks[2]),
                ("blue mark", p.marks[3]),
            ];
            for (name, bg) in squares {
                let shown = [
                    ("truecolour", bg, p.white_piece, p.black_piece),
                    (
                        "256 colours",
                        rgb_256(nearest_256(bg.0, bg.1, bg.2)),
                        rgb_256(nearest_256(255, 255, 255)),
                        rgb_256(nearest_256(0, 0, 0)),
                    ),
                ];
                for (mode, bg, white, black) in shown {
                    for (side, fg) in [("White", white), ("Black", black)] {
                        let ratio = contrast(fg, bg);
                        assert!(
                            ratio >= 3.0,
                            "{theme:?} {mode}: {side} on {name} {bg:?} has contrast {ratio:.2}"
                        );
                    }
                }
            }
            // The two square colours still differ at a glance.
            assert!(contrast(p.light, p.dark) > 1.4, "{theme:?}");
        }
    }

    #[test]
    fn contrast_is_the_wcag_ratio() {
        assert!((contrast((255, 255, 255), (0, 0, 0)) - 21.0).abs() < 1e-9);
        assert!((contrast((119, 119, 119), (255, 255, 255)) - 4.48).abs() < 0.01);
    }

    #[test]
    fn colours_fall_back_to_the_256_palette() {
        assert_eq!(nearest_256(0, 0, 0), 16);
        assert_eq!(nearest_256(255, 255, 255), 231);
        assert_eq!(nearest_256(255, 0, 0), 196);
        assert_eq!(nearest_256(128, 128, 128), 244);
    }
}
