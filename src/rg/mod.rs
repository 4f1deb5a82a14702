//! Everything that knows about `sh`, `rg` and processes: the quoting
//! function, the command lines, the runner (with its feed and its bounded
//! stderr) and the `--json` model.

pub mod command;
mod feed;
pub mod giant;
pub mod json;
pub mod process;
pub mod quote;
mod stderr;

pub use feed::Sink;
pub use stderr::Stderr;
