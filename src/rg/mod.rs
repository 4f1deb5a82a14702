//! Everything that knows about `sh`, `rg` and processes: the quoting
//! function, the command lines, the runner and the `--json` decoder.

pub mod command;
pub mod json;
pub mod quote;
pub mod run;
