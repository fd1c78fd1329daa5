//! How the screen looks: board style, theme colours (truecolour, or the nearest
//! of the 256-colour palette), square size and coordinates.

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
}

impl Default for Look {
    fn default() -> Self {
        Look {
            ascii: false,
            theme: Theme::Wood,
            truecolor: true,
            square: SquareSize::Auto,
            coordinates: true,
        }
    }
}

/// True when the terminal says it shows 24-bit colour (`COLORTERM`).
pub fn terminal_has_truecolor() -> bool {
    std::env::var("COLORTERM").is_ok_and(|v| v == "truecolor" || v == "24bit")
}

impl Look {
    /// The theme's colours.
    pub fn palette(&self) -> Palette {
        let (light, dark, hint_light, hint_dark) = match self.theme {
            Theme::Wood => (
                (206, 172, 128),
                (160, 116, 78),
                (150, 190, 215),
                (105, 150, 180),
            ),
            Theme::Blue => (
                (150, 170, 195),
                (95, 120, 155),
                (170, 200, 140),
                (120, 160, 95),
            ),
            Theme::Green => (
                (200, 205, 160),
                (115, 150, 95),
                (150, 185, 215),
                (100, 140, 180),
            ),
            Theme::Grey => (
                (175, 175, 175),
                (125, 125, 125),
                (150, 180, 210),
                (105, 135, 170),
            ),
        };
        Palette {
            light,
            dark,
            last_light: (218, 200, 100),
            last_dark: (185, 165, 65),
            hint_light,
            hint_dark,
            check: (215, 75, 60),
            white_piece: (255, 255, 255),
            black_piece: (0, 0, 0),
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

#[cfg(test)]
mod tests {
    use super::nearest_256;

    #[test]
    fn colours_fall_back_to_the_256_palette() {
        assert_eq!(nearest_256(0, 0, 0), 16);
        assert_eq!(nearest_256(255, 255, 255), 231);
        assert_eq!(nearest_256(255, 0, 0), 196);
        assert_eq!(nearest_256(128, 128, 128), 244);
    }
}
