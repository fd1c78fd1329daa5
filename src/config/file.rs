//! One configuration file as read: every table and field optional, so the user's file says only
//! what it changes. Serde (with `deny_unknown_fields`) does the reading; this module turns its
//! errors into messages that quote the bad key or value, found by the error's span.

use std::collections::BTreeMap;
use std::ops::Range;

use std::marker::PhantomData;

use serde::de::{DeserializeOwned, IntoDeserializer, Visitor};
use serde::Deserialize;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::error::{line_col, ConfigError};
use super::keys::{Key, KeyEntry, KeyTable, Preset};
use super::settings::{
    BoardSettings, BoardStyle, Bounded, Colors, EngineSettings, Inside, LangCode, MoveNotation,
    NotationSettings, Program, RecordingSettings, SquareSize, Theme, TrainingSettings,
};
use super::Config;

/// What one file sets.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Layer {
    #[serde(default)]
    notation: NotationLayer,
    #[serde(default)]
    board: BoardLayer,
    #[serde(default)]
    recording: RecordingLayer,
    #[serde(default)]
    engine: EngineLayer,
    #[serde(default)]
    training: TrainingLayer,
    #[serde(default)]
    keys: KeysLayer,
}

/// `[keys]`: the preset, and one list of keys per action named. Read by hand
/// because the table mixes a setting (`preset = "vim"`) with the actions'
/// lists, and serde's flatten or untagged forms would lose the spans the
/// errors are positioned with.
#[derive(Debug, Default)]
struct KeysLayer {
    preset: Option<Choice<Preset>>,
    actions: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
}

impl<'de> Deserialize<'de> for KeysLayer {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Table;
        impl<'de> Visitor<'de> for Table {
            type Value = KeysLayer;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<KeysLayer, A::Error> {
                let mut layer = KeysLayer::default();
                while let Some(name) = map.next_key::<Spanned<String>>()? {
                    if name.get_ref() == "preset" {
                        layer.preset = Some(map.next_value()?);
                    } else {
                        let keys = map.next_value()?;
                        layer.actions.insert(name, keys);
                    }
                }
                Ok(layer)
            }
        }
        deserializer.deserialize_map(Table)
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct NotationLayer {
    input: Option<LangCode>,
    display: Option<Choice<MoveNotation>>,
    lang: Option<LangCode>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardLayer {
    style: Option<Choice<BoardStyle>>,
    theme: Option<Choice<Theme>>,
    colors: Option<Choice<Colors>>,
    square: Option<Choice<SquareSize>>,
    coordinates: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordingLayer {
    autosave: Option<bool>,
    timer: Option<bool>,
    inside: Option<Choice<Inside>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineLayer {
    path: Option<Program>,
    threads: Option<Bounded<1, 1024>>,
    hash: Option<Bounded<1, 65536>>,
    lines: Option<Bounded<1, 5>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TrainingLayer {
    name: Option<String>,
}

/// One of an enum's names. A number or boolean is read as its text (so `colors = 256` works),
/// and anything not a name gets serde's "expected one of ..." list from the enum itself.
#[derive(Debug, Clone, Copy)]
struct Choice<T>(T);

impl<'de, T: DeserializeOwned> Deserialize<'de> for Choice<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Named<T>(PhantomData<T>);
        impl<T: DeserializeOwned> Visitor<'_> for Named<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<T, E> {
                T::deserialize(name.into_deserializer())
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<T, E> {
                self.visit_str(&n.to_string())
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<T, E> {
                self.visit_str(&n.to_string())
            }
            fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<T, E> {
                self.visit_str(&n.to_string())
            }
            fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<T, E> {
                self.visit_str(&b.to_string())
            }
        }
        deserializer.deserialize_any(Named(PhantomData)).map(Choice)
    }
}

/// The user's value if set, else the default's; the defaults must set everything.
fn pick<T>(
    user: Option<T>,
    default: Option<T>,
    name: &str,
    defaults: &str,
) -> Result<T, ConfigError> {
    user.or(default).ok_or_else(|| missing(name, defaults))
}

/// The defaults leave a setting out (a broken build, caught by the tests).
fn missing(name: &str, defaults: &str) -> ConfigError {
    ConfigError::at(
        defaults,
        None,
        format!("missing setting {name} in the defaults"),
    )
}

/// A file read and checked: its settings, and its `[keys]` as written.
pub(crate) struct Parsed<'t> {
    layer: Layer,
    keys: KeyTable,
    text: &'t str,
}

/// Reads one configuration text.
pub(crate) fn parse(text: &str) -> Result<Parsed<'_>, ConfigError> {
    let doc = DeTable::parse(text).map_err(|e| {
        let mut message = e.message().trim_end().to_string();
        let at = e.span().map(|s| s.start);
        if message == "duplicate key" {
            if let Some(better) = at.and_then(|at| duplicate(text, at)) {
                message = better;
            }
        }
        ConfigError::at(text, at, message)
    })?;
    let layer = Layer::deserialize(toml::de::Deserializer::from(doc.clone()))
        .map_err(|e| explain(text, &doc, &e))?;
    let mut keys = KeyTable {
        preset: layer.keys.preset.map(|p| p.0).unwrap_or_default(),
        ..KeyTable::default()
    };
    // In the order written, so that errors come in the order a reader meets them.
    let mut written: Vec<_> = layer.keys.actions.iter().collect();
    written.sort_by_key(|(action, _)| action.span().start);
    for (action, list) in written {
        let mut bound: Vec<(Key, (usize, usize))> = Vec::new();
        for key_text in list {
            let key = Key::parse(key_text.get_ref()).map_err(|e| {
                ConfigError::at(
                    text,
                    Some(key_text.span().start),
                    format!(
                        "bad key \"{}\" for keys.{}: {e}",
                        key_text.get_ref(),
                        action.get_ref()
                    ),
                )
            })?;
            if !bound.iter().any(|(k, _)| *k == key) {
                bound.push((key, line_col(text, key_text.span().start)));
            }
        }
        keys.entries.push(KeyEntry {
            action: action.get_ref().clone(),
            at: line_col(text, action.span().start),
            keys: bound,
        });
    }
    Ok(Parsed { layer, keys, text })
}

/// The complete configuration: `defaults` (which must set everything) overridden by `user`.
pub(crate) fn merge(defaults: Parsed<'_>, user: Parsed<'_>) -> Result<Config, ConfigError> {
    let (d, u, dt) = (&defaults.layer, &user.layer, defaults.text);
    if !defaults.keys.entries.is_empty() || defaults.layer.keys.preset.is_some() {
        return Err(ConfigError::at(
            dt,
            None,
            "the defaults set keys: default keys are declared with the actions".into(),
        ));
    }
    let notation = NotationSettings {
        input: pick(u.notation.input, d.notation.input, "notation.input", dt)?.0,
        display: pick(
            u.notation.display,
            d.notation.display,
            "notation.display",
            dt,
        )?
        .0,
        lang: pick(u.notation.lang, d.notation.lang, "notation.lang", dt)?.0,
    };
    let board = BoardSettings {
        style: pick(u.board.style, d.board.style, "board.style", dt)?.0,
        theme: pick(u.board.theme, d.board.theme, "board.theme", dt)?.0,
        colors: pick(u.board.colors, d.board.colors, "board.colors", dt)?.0,
        square: pick(u.board.square, d.board.square, "board.square", dt)?.0,
        coordinates: pick(
            u.board.coordinates,
            d.board.coordinates,
            "board.coordinates",
            dt,
        )?,
    };
    let (ur, dr) = (&u.recording, &d.recording);
    let recording = RecordingSettings {
        autosave: pick(ur.autosave, dr.autosave, "recording.autosave", dt)?,
        timer: pick(ur.timer, dr.timer, "recording.timer", dt)?,
        inside: pick(ur.inside, dr.inside, "recording.inside", dt)?.0,
    };
    let (ue, de) = (&user.layer.engine, &defaults.layer.engine);
    let engine = EngineSettings {
        path: pick(ue.path.clone(), de.path.clone(), "engine.path", dt)?.0,
        threads: pick(ue.threads, de.threads, "engine.threads", dt)?.0,
        hash: pick(ue.hash, de.hash, "engine.hash", dt)?.0,
        lines: pick(ue.lines, de.lines, "engine.lines", dt)?.0,
    };
    let training = TrainingSettings {
        name: pick(
            u.training.name.clone(),
            d.training.name.clone(),
            "training.name",
            dt,
        )?,
    };
    Ok(Config {
        notation,
        board,
        recording,
        engine,
        training,
        keys: user.keys,
    })
}

/// Says which key or value a serde error is about, found by its span in the parsed document.
fn explain(text: &str, doc: &Spanned<DeTable<'_>>, error: &toml::de::Error) -> ConfigError {
    let message = error.message().trim_end();
    let Some(span) = error.span() else {
        return ConfigError::at(text, None, message.to_string());
    };
    let expected = expected_part(message);
    let mut path = Vec::new();
    let message = match find(doc.get_ref(), &span, &mut path) {
        Some(Found::Key(key)) if path.is_empty() => {
            let is_table = doc
                .get_ref()
                .iter()
                .any(|(k, v)| k.get_ref() == key && matches!(v.get_ref(), DeValue::Table(_)));
            if is_table {
                format!("unknown table [{}]: {expected}", crate::message::shown(key))
            } else {
                format!("unknown key \"{}\": {expected}", crate::message::shown(key))
            }
        }
        Some(Found::Key(key)) => {
            format!(
                "unknown key \"{}\" in [{}]: {expected}",
                crate::message::shown(key),
                path.join(".")
            )
        }
        Some(Found::Value(value_span)) => {
            let raw = text.get(value_span).unwrap_or("").trim();
            let raw = match raw.lines().next() {
                Some(first) if first.len() < raw.len() => format!("{first} ..."),
                _ => raw.to_string(),
            };
            let expected = match path.as_slice() {
                [table]
                    if expected.starts_with("expected struct")
                        || expected == "expected a table" =>
                {
                    table_expected(table)
                }
                _ => expected,
            };
            format!(
                "bad value {} for {}: {expected}",
                crate::message::shown(&raw),
                path.join(".")
            )
        }
        None => message.to_string(),
    };
    ConfigError::at(text, Some(span.start), message)
}

/// What a top-level table of the configuration must be, in the user's words (serde would say
/// "expected struct BoardLayer").
fn table_expected(table: &str) -> String {
    let settings = match table {
        "notation" => "input, display, lang",
        "board" => "style, theme, colors, square, coordinates",
        "recording" => "autosave, timer, inside",
        "engine" => "path, threads, hash, lines",
        "training" => "name",
        "keys" => "one line per action",
        _ => return "expected a table".to_string(),
    };
    format!(
        "expected a table: write [{table}] on a line of its own, then its settings on the \
         lines below it ({settings}), like {}",
        match table {
            "notation" => "[notation] then input = \"de\"",
            "board" => "[board] then theme = \"blue\"",
            "keys" => "[keys] then take-back = [\"Ctrl-z\"]",
            "engine" => "[engine] then lines = 3",
            "training" => "[training] then name = \"Carlsen, Magnus\"",
            _ => "[recording] then autosave = true",
        }
    )
}

/// A key or table written twice, which the TOML reader reports as "duplicate key" at the
/// second place: say which one, and both lines.
fn duplicate(text: &str, at: usize) -> Option<String> {
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next()?.trim();
    let second = line_of(at);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let compact = |l: &str| l.replace([' ', '\t'], "");
    if line.starts_with('[') {
        let header = compact(line.split('#').next()?.trim());
        let first = lines[..second - 1]
            .iter()
            .position(|l| compact(l.split('#').next().unwrap_or("")) == header)?;
        return Some(format!(
            "table {header} is written twice, on line {} and on line {second}: \
             put all its settings under one {header}",
            first + 1
        ));
    }
    let name = line.split(['=', ' ', '\t']).next()?.trim();
    // The table the key is in: the last header above it.
    let header_line = lines[..second - 1].iter().rposition(|l| l.starts_with('['));
    let from = header_line.map_or(0, |h| h + 1);
    let first = lines[from..second - 1].iter().position(|l| {
        l.strip_prefix(name)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    })?;
    let table = header_line.map_or(String::new(), |h| format!(" in {}", compact(lines[h])));
    Some(format!(
        "key \"{}\"{table} is set twice, on line {} and on line {second}: keep one",
        crate::message::shown(name),
        from + first + 1
    ))
}

/// The "expected ..." part of a serde message, without its backquotes:
/// "unknown variant `pink`, expected one of `wood`, `blue`" gives "expected one of wood, blue".
fn expected_part(message: &str) -> String {
    let tail = match message.find("expected") {
        Some(at) => &message[at..],
        None => message,
    };
    let tail = tail.replace('`', "");
    match tail.as_str() {
        "expected a sequence" => "expected a list of keys, like [\"F1\", \"?\"]".to_string(),
        "expected a boolean" => "expected true or false".to_string(),
        "expected a map" => "expected a table".to_string(),
        _ => tail,
    }
}

/// What an error span points at.
enum Found<'a> {
    /// A key (the path holds the tables above it).
    Key(&'a str),
    /// A value (the path holds its key); its span.
    Value(Range<usize>),
}

/// Finds the key whose span is `span`, or the innermost value containing it, recording the
/// path of keys on the way.
fn find<'a>(
    table: &'a DeTable<'_>,
    span: &Range<usize>,
    path: &mut Vec<String>,
) -> Option<Found<'a>> {
    for (key, value) in table {
        if key.span() == *span {
            return Some(Found::Key(key.get_ref()));
        }
        let value_span = value.span();
        if value_span.start <= span.start && span.end <= value_span.end {
            path.push(key.get_ref().to_string());
            return Some(find_in_value(value, span, path));
        }
    }
    // A table header's span may be the key alone; look inside the tables too.
    for (key, value) in table {
        if let DeValue::Table(inner) = value.get_ref() {
            path.push(key.get_ref().to_string());
            if let Some(found) = find(inner, span, path) {
                return Some(found);
            }
            path.pop();
        }
    }
    None
}

fn find_in_value<'a>(
    value: &'a Spanned<DeValue<'_>>,
    span: &Range<usize>,
    path: &mut Vec<String>,
) -> Found<'a> {
    match value.get_ref() {
        DeValue::Table(inner) => {
            let depth = path.len();
            match find(inner, span, path) {
                Some(found) => return found,
                None => path.truncate(depth),
            }
        }
        DeValue::Array(items) => {
            for item in items.iter() {
                let s = item.span();
                if s.start <= span.start && span.end <= s.end {
                    return find_in_value(item, span, path);
                }
            }
        }
        _ => {}
    }
    Found::Value(value.span())
}
