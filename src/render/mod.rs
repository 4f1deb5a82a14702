//! Pure renderers: a report or an error in, the bytes for stdout out.

pub mod json;
pub mod text;
