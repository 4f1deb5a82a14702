//! How a run of rg ended: the one account of it, from the runner's watch
//! and the feed to the search's judgement and `--explain`.

use crate::stop::Halt;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// rg ended by itself.
    Exited(RgExit),
    /// stdout went over the cap; the group was killed.
    Overflow,
    /// The deadline passed, or the stop channel said stop; the group was killed.
    Halted(Halt),
}

/// rg's own exit, as the OS reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RgExit {
    /// With this exit status.
    Status(i32),
    /// Killed by this signal (Unix).
    #[cfg_attr(windows, allow(dead_code))]
    Signal(i32),
}
