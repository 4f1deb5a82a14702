# shellcheck shell=bash
# Shared by .ci/run and the scripts under scripts/ (sourced, not run): the
# versions the project pins and the installs more than one script needs.

# The ripgrep the test suite is pinned to, the one the release archives
# and rg.exe ship, and the one the README's first command installs.
# shellcheck disable=SC2034 # read by the scripts that source this
RG_VERSION=14.1.1
# The next ripgrep, which CI runs the suite against as well.
# shellcheck disable=SC2034
RG_NEXT_VERSION=15.1.0

# apt_install PACKAGE...: Debian's packages, quietly; non-zero on failure.
apt_install() {
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; } >/dev/null 2>&1
}

# debian_rust_missing: the Debian Rust packages not installed yet, if any.
# Debian's toolchain ships the standard library's source, which
# `-Zbuild-std` needs to build std for targets rustup here cannot download.
debian_rust_missing() {
  if ! [ -x /usr/bin/cargo ] || ! [ -x /usr/bin/rustc ] || ! [ -d /usr/lib/rustlib/src/rust/library ]; then
    echo rustc-web cargo-web rust-web-src
  fi
}

# debian_rust WHO: install Debian's Rust toolchain when it is missing,
# saying so as WHO; status 2 when that fails (callers exit 2: a loud skip).
debian_rust() {
  local missing
  missing=$(debian_rust_missing)
  [ -z "$missing" ] && return 0
  echo "$1: installing Debian's Rust toolchain and std source ($missing)" >&2
  # shellcheck disable=SC2086 # a list of package names
  apt_install $missing || {
    echo "$1: apt-get install $missing failed" >&2
    return 2
  }
}

# debian_cargo ARGS...: Debian's cargo and rustc only (rustup's have no std
# source), nothing else on PATH, and RUSTC_BOOTSTRAP for -Zbuild-std on a
# stable compiler.
debian_cargo() {
  env PATH=/usr/bin:/bin HOME="${HOME:-/root}" RUSTC_BOOTSTRAP=1 /usr/bin/cargo "$@"
}

# crate_warned LOG: whether a cargo log holds a warning in this crate (std's
# own are not ours): as strict as clippy's -D warnings on Linux, for code
# only another target compiles.
crate_warned() {
  # shellcheck disable=SC2016 # backquotes as cargo prints them
  grep -q '^warning: `dsh-search`' "$1"
}

# check_cc DIR TARGET...: for a type check of TARGET (which links
# nothing), a stand-in C compiler for the tree-sitter grammars' build
# scripts when this machine has none for it (macOS, Windows' MSVC): it
# says it is clang when the cc crate asks (`-E` of its detection file;
# `-?`, cl's flag, refused) and writes an empty object at -o; its
# archiver writes an empty archive where either form of its command line
# (ar's, lib.exe's `-out:`) says. Written into DIR; CC_<target> and
# AR_<target> exported.
# The release builds compile the grammars for real (zig, mingw).
check_cc() {
  local dir=$1 target var
  shift
  cat >"$dir/cc" <<'STUB'
#!/bin/sh
out=
while [ $# -gt 0 ]; do
  case $1 in
    -E) echo '"clang" "gcc"'; exit 0 ;;
    -\?) exit 1 ;;
    -o) out=$2 ;;
  esac
  shift
done
[ -z "$out" ] || : >"$out"
STUB
  cat >"$dir/ar" <<'STUB'
#!/bin/sh
for arg in "$@"; do
  case $arg in
    -out:* | /OUT:*) : >"${arg#*:}" ;;
    *.a | *.lib) : >"$arg" ;;
  esac
done
STUB
  chmod +x "$dir/cc" "$dir/ar"
  for target in "$@"; do
    var=${target//-/_}
    export "CC_$var=$dir/cc" "AR_$var=$dir/ar"
  done
}
