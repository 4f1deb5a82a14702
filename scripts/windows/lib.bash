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

WIN_TARGET=x86_64-pc-windows-gnu
WIN_DIR=target/windows
# The version the test suite is pinned to (.ci/run).
RG_VERSION=14.1.1

win_say() { echo "windows: $*" >&2; }

# Install what is missing (Debian packages); status 2 when that fails.
win_tools() {
  local want=()
  [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ] || want+=(rustc-web cargo-web rust-web-src)
  command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || want+=(gcc-mingw-w64-x86-64)
  { command -v wine >/dev/null 2>&1 && command -v winepath >/dev/null 2>&1; } || want+=(wine wine64)
  [ ${#want[@]} -eq 0 ] && return 0
  win_say "installing ${want[*]} (apt-get)"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}"; } >/dev/null 2>&1; then
    win_say "apt-get install ${want[*]} failed"
    return 2
  fi
}

# Debian's cargo for the Windows target: `win_cargo build ARGS...`.
win_cargo() {
  local sub=$1
  shift
  env PATH=/usr/bin:/bin HOME="${HOME:-/root}" RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
    /usr/bin/cargo "$sub" --target "$WIN_TARGET" -Zbuild-std=std,panic_abort "$@"
}

# A wine prefix of our own with the bcryptprimitives stand-in; exports
# WINEPREFIX and WINEDEBUG for every wine run after it.
win_prefix() {
  export WINEPREFIX="$PWD/$WIN_DIR/wine" WINEDEBUG=-all
  local dll="$WIN_DIR/stub/bcryptprimitives.dll"
  mkdir -p "$WIN_DIR/stub"
  x86_64-w64-mingw32-gcc -shared -O2 -o "$dll" scripts/windows/bcryptprimitives.c -ladvapi32
  if [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
    win_say "creating the wine prefix $WINEPREFIX"
    wineboot -i >/dev/null 2>&1 || true
    wineserver -w
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

# A path as a Windows program under wine names it (Z:\...).
win_path() { winepath -w "$1" 2>/dev/null; }
