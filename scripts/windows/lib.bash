# shellcheck shell=bash
# Shared by scripts/test-windows and scripts/build-windows (sourced, not
# run): how this Linux machine builds dsh-search for Windows
# (x86_64-pc-windows-gnu) and runs what it built under wine.
#
# - The toolchain: Debian's rustc-web, cargo-web and rust-web-src (rustup
#   here cannot download other targets' std), `-Zbuild-std` with
#   RUSTC_BOOTSTRAP=1, and Debian's mingw-w64 as the linker.
# - wine (Debian's 8.0) runs the .exe files, in a prefix of our own under
#   target/windows/wine. wine 8 lacks bcryptprimitives.dll, which Rust's
#   std needs for random bytes: a small stand-in (bcryptprimitives.c) is
#   built with mingw and put in the prefix's system32.
# - rg.exe: the `ripgrep` crate, RG_VERSION, built the same way.
# Everything built goes under target/windows/.
# shellcheck source=scripts/lib.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib.bash"

WIN_TARGET=x86_64-pc-windows-gnu
WIN_DIR=target/windows

win_say() { echo "windows: $*" >&2; }

# Install what is missing (Debian packages); status 2 when that fails.
win_tools() {
  local want
  read -ra want <<<"$(debian_rust_missing)"
  command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || want+=(gcc-mingw-w64-x86-64)
  { command -v wine >/dev/null 2>&1 && command -v winepath >/dev/null 2>&1; } || want+=(wine wine64)
  [ ${#want[@]} -eq 0 ] && return 0
  win_say "installing ${want[*]} (apt-get)"
  if ! apt_install "${want[@]}"; then
    win_say "apt-get install ${want[*]} failed"
    return 2
  fi
}

# Debian's cargo for the Windows target: `win_cargo build ARGS...`.
win_cargo() {
  local sub=$1
  shift
  CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
    debian_cargo "$sub" --target "$WIN_TARGET" -Zbuild-std=std,panic_abort "$@"
}

# WINEPREFIX (ours) and WINEDEBUG for every wine run after it.
win_env() {
  export WINEPREFIX="$PWD/$WIN_DIR/wine" WINEDEBUG=-all
}

# A wine prefix of our own with the bcryptprimitives stand-in (see
# win_env); creating one takes minutes, most of it waiting on wine.
win_prefix() {
  win_env
  local dll="$WIN_DIR/stub/bcryptprimitives.dll"
  mkdir -p "$WIN_DIR/stub"
  x86_64-w64-mingw32-gcc -shared -O2 -o "$dll" scripts/windows/bcryptprimitives.c -ladvapi32
  if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
    win_say "creating the wine prefix $WINEPREFIX"
    wineboot -i >/dev/null 2>&1 || true
    win_settle
  fi
  cp "$dll" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
}

# rg.exe (ripgrep RG_VERSION) under target/windows/NAME (default ripgrep),
# built in target/windows/NAME-build; prints its path. `cargo install`
# skips the build when that version is already there.
win_rg() {
  local name=${1:-ripgrep}
  win_cargo install ripgrep --version "$RG_VERSION" --locked --quiet \
    --root "$WIN_DIR/$name" --target-dir "$WIN_DIR/$name-build" >&2
  echo "$WIN_DIR/$name/bin/rg.exe"
}

# Wait for wine's processes to end; a program a test left running under
# wine would make that wait for ever, so after a minute they are killed.
win_settle() {
  timeout 60 wineserver -w && return 0
  win_say "WARNING: wine processes were still running after 60 s; killing them"
  wineserver -k || true
}

# A path as a Windows program under wine names it (Z:\...).
win_path() { winepath -w "$1" 2>/dev/null; }
