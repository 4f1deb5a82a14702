//! Unit tests of `src/tool.rs`, compiled into the crate under
//! `cfg(test)` (they see its private items).

use super::*;

/// A reader that records the rows in the order read and gives each a
/// value naming it: a text its name, a number its place, a switch true.
struct Rows(Vec<Argument>);

impl ArgReader for Rows {
    type Error = std::convert::Infallible;

    fn text(&mut self, row: &Argument) -> Result<Option<String>, Self::Error> {
        self.0.push(*row);
        Ok(Some(row.name.to_owned()))
    }

    fn switch(&mut self, row: &Argument) -> Result<bool, Self::Error> {
        self.0.push(*row);
        Ok(true)
    }

    fn number(&mut self, row: &Argument) -> Result<Option<u64>, Self::Error> {
        self.0.push(*row);
        Ok(Some(self.0.len() as u64))
    }
}

/// The typed arguments are the table: each row read once, in table
/// order, as its kind, into the field of its name (the derived `Debug`
/// lists the fields in order, each value as its kind shows it).
#[test]
fn every_row_is_read_once_into_the_field_of_its_name() {
    for tool in Tool::ALL {
        let mut rows = Rows(Vec::new());
        let Ok(args) = ToolArgs::from_reader(tool, &mut rows);
        assert_eq!(rows.0, tool.arguments(), "{tool}: the rows read");
        let fields: Vec<String> = (1..)
            .zip(tool.arguments())
            .map(|(place, row)| match row.kind {
                _ if row.required => format!("{0}: {0:?}", row.name),
                ArgKind::Switch => format!("{}: true", row.name),
                ArgKind::Number { .. } => format!("{}: Some({place})", row.name),
                _ => format!("{0}: Some({0:?})", row.name),
            })
            .collect();
        let (variant, fields) = (format!("{tool:?}"), fields.join(", "));
        let want = format!("{variant}({variant}Args {{ {fields} }})");
        assert_eq!(format!("{args:?}"), want);
    }
}

#[test]
fn the_narrowing_advice_names_pattern_path_and_include() {
    for tool in Tool::ALL {
        let names: Vec<&str> = tool
            .arguments()
            .iter()
            .filter(|a| matches!(a.name, "pattern" | "path" | "include"))
            .map(|a| a.name)
            .collect();
        let advice = tool.narrow_advice().trim_start_matches("narrow ");
        let listed: Vec<&str> = advice
            .split([',', ' '])
            .filter(|w| !w.is_empty() && *w != "or")
            .collect();
        assert_eq!(listed, names, "{tool}");
    }
}
