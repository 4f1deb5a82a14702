#!/usr/bin/env node
// The `dsh-search` command of the npm package (`npx -y dsh-search mcp`):
// a launcher, not a port. It finds the dsh-search binary of this platform
// in its package (`@dsh-search/<os>-<cpu>`, one of the main package's
// optionalDependencies, which npm installs only where its `os` and `cpu`
// fields match) and runs it with the same arguments, stdin, stdout, stderr
// and environment. The launcher reads and writes none of the three streams,
// so an MCP session over stdio passes through untouched. ripgrep's `rg` is
// beside the binary in the same package, where dsh-search looks for it
// before PATH (SPEC §2 "Which rg runs").
//
// Exit status: the binary's own, so that running it through the launcher
// looks the same to whoever started it (SPEC §6). Signals dsh-search
// handles are passed on to it, and it answers them as had it got them
// itself: SIGINT, SIGTERM and SIGHUP stop rg and end the call with exit 6,
// which the launcher then exits with; SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM
// and SIGXCPU stop rg, then dsh-search dies by the same signal. When the
// binary dies by a signal, that one or any other (SIGKILL), the launcher
// dies by it too, its own handlers removed; should the signal not end it
// (or on Windows), it exits 128 + the signal's number, as a shell reports
// such a death. On Windows console events reach every process of the
// console, the binary included (SPEC §10), so the launcher only waits for
// it. When there is no binary for this platform,
// or it cannot be started, the launcher says why and which platforms have
// a package on stderr, and exits 4: the search could not run, as when rg
// is missing (SPEC §6). Not on stdout: in an MCP session that is the
// protocol's.
//
// Plain CommonJS for any Node still in use (no dependencies, no syntax
// newer than ES2017). scripts/release packs it as bin/dsh-search.js;
// scripts/test-npm runs it.
'use strict';

const childProcess = require('child_process');
const os = require('os');
const path = require('path');

// Scoped: only the owners of the npm scope `@dsh-search` can publish a
// package under it, so nobody else can take the name of a platform the
// project has not published yet and have this launcher run their binary
// (an unscoped `dsh-search-<platform>` could be registered by anyone).
const SCOPE = '@dsh-search';
const PLATFORM = process.platform + '-' + process.arch;
const PACKAGE = SCOPE + '/' + PLATFORM;
const EXE = process.platform === 'win32' ? 'dsh-search.exe' : 'dsh-search';
// SPEC §6: 4, the search could not run; 6, interrupted.
const EXIT_CANNOT_RUN = 4;
const EXIT_INTERRUPTED = 6;

function fail(lines) {
  process.stderr.write('dsh-search: ' + lines.join('\n') + '\n');
  process.exit(EXIT_CANNOT_RUN);
}

// The platforms with a package: the main package's optionalDependencies
// (scripts/release writes one per release target).
function platforms() {
  let deps = {};
  try {
    deps = require('../package.json').optionalDependencies || {};
  } catch (e) {
    // Run from outside the package (a copy of this file): none known.
  }
  return Object.keys(deps)
    .filter((name) => name.startsWith(SCOPE + '/'))
    .map((name) => name.slice(SCOPE.length + 1));
}

function otherWays() {
  return [
    'Other ways to install it: `uvx dsh-search mcp` or `pipx install dsh-search`',
    '(PyPI wheels with ripgrep, for Linux and macOS), a release archive (rg',
    'beside dsh-search), or wherever Rust builds, `cargo install dsh-search',
    '--locked` with ripgrep on PATH.',
  ];
}

function binary() {
  let manifest;
  try {
    manifest = require.resolve(PACKAGE + '/package.json');
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND') throw e;
    const known = platforms();
    if (known.indexOf(PLATFORM) === -1) {
      fail(
        [
          'no npm package of dsh-search for this platform (' + PLATFORM + ').',
          'Packages exist for: ' + (known.length ? known.join(', ') : '(none found)') + '.',
        ].concat(otherWays()),
      );
    }
    fail(
      [
        'the package ' + PACKAGE + ', which holds dsh-search and ripgrep for',
        'this platform, is not installed. npm installs it with dsh-search unless',
        'optional dependencies are left out (--omit=optional, --no-optional), or',
        'node_modules came from another platform. Reinstall dsh-search without',
        'those options.',
      ].concat(otherWays()),
    );
  }
  return path.join(path.dirname(manifest), EXE);
}

function main() {
  const exe = binary();
  const cannotRun = (e) =>
    fail([
      'cannot run ' + exe + ': ' + e.message + '.',
      'The package ' + PACKAGE + ' looks damaged; reinstall dsh-search.',
    ]);
  let child;
  try {
    child = childProcess.spawn(exe, process.argv.slice(2), { stdio: 'inherit' });
  } catch (e) {
    // Most failures to start come as 'error' below; the rarer ones throw.
    cannotRun(e);
  }

  // Signals dsh-search handles (SPEC §6), passed on. Listening also keeps
  // them from ending the launcher before the binary has answered.
  const forwarded =
    process.platform === 'win32'
      ? ['SIGINT', 'SIGBREAK', 'SIGHUP']
      : ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGALRM', 'SIGXCPU'];
  for (const signal of forwarded) {
    process.on(signal, () => {
      // Windows: the console gave the binary the same event already, and
      // kill() there would end it at once, without its answer.
      if (process.platform !== 'win32') {
        try {
          child.kill(signal);
        } catch (e) {
          // Gone already: its exit follows.
        }
      }
    });
  }

  child.on('error', cannotRun);
  child.on('exit', (code, signal) => {
    if (signal === null) {
      // Node sets one of the two; should it set neither, 6, interrupted.
      process.exit(code === null ? EXIT_INTERRUPTED : code);
    }
    // Killed by `signal`: die by it as well, as dsh-search itself did
    // (SPEC §6), with nothing of the launcher's catching it. A signal sent
    // to the process itself is delivered before kill() returns. Not
    // SIGUSR1: with no listener Node may take it as the call to start its
    // inspector. Windows has no such deaths.
    for (const s of forwarded) {
      process.removeAllListeners(s);
    }
    if (process.platform !== 'win32' && signal !== 'SIGUSR1') {
      try {
        process.kill(process.pid, signal);
      } catch (e) {
        // A signal Node will not send: the number below.
      }
    }
    process.exit(128 + (os.constants.signals[signal] || 0));
  });
}

main();
