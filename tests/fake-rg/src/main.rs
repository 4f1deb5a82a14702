//! A fake rg for dsh-search's integration tests: it does what its plan
//! says, step by step, so a test can make rg print any bytes, fail any
//! way, hang, or leave a child behind, on every OS (a shell script only
//! runs on Unix).
//!
//! The plan is the text of `FAKE_RG_PLAN_TEXT` when set (how a fake rg
//! starts a child that follows another plan), else the file beside the
//! executable named as it is plus `.plan` (`rg.exe.plan`). One step a
//! line, a verb and the rest of the line:
//!
//! ```text
//! stdout FILE      copy FILE to stdout        stderr FILE    ... to stderr
//! print TEXT       TEXT to stdout             eprint TEXT    ... to stderr
//!                  (\n \t \0 \\ are escapes)
//! args FILE        append the arguments, as one JSON array, to FILE
//! touch FILE       create FILE
//! pid FILE         write this process's id to FILE
//! child FILE       start a copy of this program that sleeps for ever,
//!                  write its id to FILE
//! stdin CODE       read stdin; if it held anything, exit with CODE
//! sleep MS         sleep MS milliseconds
//! repeat FILE      write FILE to stdout again and again until that fails
//! erepeat N FILE   write FILE to stderr again and again, N bytes in all
//! ifarg ARG CODE   exit with CODE if ARG is one of the arguments
//! ifenv VAR CODE   exit with CODE if the variable VAR is set
//! run PROGRAM      run PROGRAM with these arguments, exit as it does
//! exit CODE        exit with CODE (the end of the plan is exit 0)
//! connect SOCKET   (Unix) ask the index server at SOCKET its status, as
//!                  dsh-search does, and print `answered` or `closed`
//! ```

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

fn main() -> ExitCode {
    match run() {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("fake-rg: {e}");
            ExitCode::from(99)
        }
    }
}

fn run() -> io::Result<u8> {
    let plan = if let Ok(text) = std::env::var("FAKE_RG_PLAN_TEXT") {
        text
    } else {
        let mut path = std::env::current_exe()?.into_os_string();
        path.push(".plan");
        std::fs::read_to_string(&path)
            .map_err(|e| io::Error::other(format!("no plan at {}: {e}", path.display())))?
    };
    let raw: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let args: Vec<String> = raw
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut out = io::stdout().lock();
    let mut err = io::stderr().lock();
    for step in plan.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (verb, arg) = step.split_once(' ').unwrap_or((step, ""));
        match verb {
            "stdout" => out.write_all(&std::fs::read(arg)?)?,
            "stderr" => err.write_all(&std::fs::read(arg)?)?,
            "print" => out.write_all(&unescape(arg))?,
            "eprint" => err.write_all(&unescape(arg))?,
            "args" => {
                let mut log = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(arg)?;
                writeln!(log, "{}", json_array(&args))?;
            }
            "touch" => drop(std::fs::File::create(arg)?),
            "pid" => std::fs::write(arg, std::process::id().to_string())?,
            "child" => {
                let child = Command::new(std::env::current_exe()?)
                    .env("FAKE_RG_PLAN_TEXT", "sleep 600000")
                    .stdin(Stdio::null())
                    .spawn()?;
                std::fs::write(arg, child.id().to_string())?;
            }
            "stdin" => {
                let mut byte = [0u8; 1];
                if io::stdin().read(&mut byte).unwrap_or(0) > 0 {
                    return code(arg);
                }
            }
            "sleep" => {
                out.flush()?;
                err.flush()?;
                let ms = arg.parse().map_err(|_| bad(step))?;
                std::thread::sleep(Duration::from_millis(ms));
            }
            "repeat" => {
                let text = std::fs::read(arg)?;
                let text = text.repeat(65536 / text.len().max(1) + 1);
                while out.write_all(&text).is_ok() {}
                return Ok(0);
            }
            "erepeat" => {
                let (n, file) = arg.split_once(' ').ok_or_else(|| bad(step))?;
                let mut left: usize = n.parse().map_err(|_| bad(step))?;
                let text = std::fs::read(file)?;
                let text = text.repeat(65536 / text.len().max(1) + 1);
                while left > 0 {
                    let n = left.min(text.len());
                    err.write_all(&text[..n])?;
                    left -= n;
                }
            }
            "ifarg" | "ifenv" => {
                let (name, exit) = arg.rsplit_once(' ').ok_or_else(|| bad(step))?;
                let hit = if verb == "ifarg" {
                    args.iter().any(|a| a == name)
                } else {
                    std::env::var_os(name).is_some()
                };
                if hit {
                    return code(exit);
                }
            }
            "run" => {
                out.flush()?;
                let status = Command::new(arg).args(&raw).status()?;
                return Ok(status
                    .code()
                    .and_then(|c| u8::try_from(c).ok())
                    .unwrap_or(98));
            }
            "exit" => return code(arg),
            #[cfg(unix)]
            "connect" => {
                let mut socket = std::os::unix::net::UnixStream::connect(arg)?;
                let ask = b"\"Status\"";
                let len = u32::try_from(ask.len()).map_err(|_| bad(step))?;
                let mut frame = len.to_be_bytes().to_vec();
                frame.extend_from_slice(ask);
                socket.set_read_timeout(Some(Duration::from_secs(10)))?;
                // A server that closes at once may do so before the ask
                // is written: that is a refusal too.
                let mut reply = Vec::new();
                if socket.write_all(&frame).is_ok() {
                    let _ = socket.read_to_end(&mut reply);
                }
                out.write_all(if reply.is_empty() { b"closed\n" } else { b"answered\n" })?;
            }
            _ => return Err(bad(step)),
        }
    }
    Ok(0)
}

fn code(arg: &str) -> io::Result<u8> {
    arg.parse().map_err(|_| bad(arg))
}

fn bad(step: &str) -> io::Error {
    io::Error::other(format!("bad plan step {step:?}"))
}

/// TEXT with `\n`, `\t`, `\0` and `\\` read as the bytes they name.
fn unescape(text: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            Some('n') => bytes.push(b'\n'),
            Some('t') => bytes.push(b'\t'),
            Some('0') => bytes.push(0),
            Some('\\') | None => bytes.push(b'\\'),
            Some(other) => {
                bytes.push(b'\\');
                let mut buf = [0u8; 4];
                bytes.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    bytes
}

/// The arguments as a JSON array of strings.
fn json_array(args: &[String]) -> String {
    let mut out = String::from("[");
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        for c in arg.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }
    out.push(']');
    out
}
