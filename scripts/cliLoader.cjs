#!/usr/bin/env node
// The command-line tool's entry (dist/cli.js, written by scripts/build.mjs): runs the bundle
// beside it (cli.bundle.js) with V8's code cache of it (made at build time by running the
// commands on the demo), so a run skips most of compiling the bundle: on Node 20, which has no
// compile cache of its own, that is most of what loading it costs beyond Node's start-up.
// `check` runs far more of the bundle than the other commands (the walk, every profile's
// checks, the merge, the formats: about 25 ms of compiling a run without them) and has a cache
// of its own, cli.bundle.js.check.cache: in the others' cache, cli.bundle.js.cache, its
// functions would cost every chain the time to deserialize them (twice the size, 3 ms more).
// The markdown and YAML parsers are bundles of their own (marked.js, yaml.js, the extension's),
// each with its code cache, loaded when a text first needs them (src/core/lazy.ts): a chain
// whose files need neither reads, deserializes and sets up neither.
// A cache V8 does not accept (another Node, other flags) is ignored and the bundle compiled as
// usual.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { wrap } = require('node:module');

/** At build time (scripts/build.mjs): which caches this run writes when it ends, `cli` or `parsers`. */
const writing = process.env.INSTRUCTION_LENS_WRITE_CODE_CACHE;
const PARSERS = new Set(['./marked.js', './yaml.js']);
/** The V8 flag that keeps code in the baseline tier (see `checking`). */
const NO_OPTIMIZING = '--max-opt=1';
const parsers = new Map();

/** Runs one bundle of dist/ with its code cache (`dist/<name><cache>`) and returns its exports. */
function run(name, cache, requireIn, cacheIt) {
  const file = path.join(__dirname, name);
  const cacheFile = `${file}${cache}`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // no cache: compile as usual
  }
  // Read as Latin-1, which takes a third less time than UTF-8's decoding: the bundles are ASCII
  // (esbuild escapes every other character, and the build checks), where the two read the same.
  const script = new vm.Script(wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData });
  // At build time: keep what this run compiled, for the next runs.
  if (cacheIt) process.on('exit', () => fs.writeFileSync(cacheFile, script.createCachedData()));
  const mod = { exports: {} };
  script.runInThisContext().call(mod.exports, mod.exports, requireIn, mod, file, __dirname);
  return mod.exports;
}

/** The bundle's `require`: a parser's bundle is run with its cache, the rest is Node's. */
function bundleRequire(id) {
  if (!PARSERS.has(id)) return require(id);
  let parser = parsers.get(id);
  if (!parser) {
    // V8 runs a regular expression's first match in its bytecode interpreter and compiles it to
    // machine code only from the second on. The markdown lexer's block rules are regular
    // expressions of up to 1,200 characters (a setext heading's rule holds the HTML block's), and
    // their first, interpreted matches on a paragraph took most of the first file's lexing:
    // 30-70 ms of a chain, 5-10 ms compiled at once. So a regular expression made from here on
    // (the parsers make theirs as they load) is compiled at its first match. Set here, not at
    // start: node:v8 loads Node's streams (about 5 ms), and a chain that needs no parser does not
    // pay for it. Through the number of interpreted matches, 0, not --no-regexp-tier-up: turning
    // tier-up off leaves an expression that already ran interpreted with bytecode where V8 then
    // runs machine code, and the process crashes (SIGSEGV) when it matches again. Set before a
    // parser is compiled, so that its code cache (whose check covers V8's flags) is made and read
    // under the same flags; the build makes the CLI bundle's cache in a run that does not set it.
    // `check` runs under NO_OPTIMIZING (below), and so does every command from here on: the
    // parsers' caches are then made and read under the same flags whichever command loads them.
    if (parsers.size === 0 && writing !== 'cli') require('node:v8').setFlagsFromString(`--regexp-tier-up-ticks=0 ${NO_OPTIMIZING}`);
    parser = run(id.slice(2), '.cache', require, writing === 'parsers');
    parsers.set(id, parser);
  }
  return parser;
}

// Any argument `check`, as the command follows options: a path named so only picks the other cache.
const checking = process.argv.includes('check', 2);
// A `check` runs each function of the bundle once per folder or file, for a few seconds on a large
// repository: V8's optimizing compiler (TurboFan, on its own threads) cost more CPU than its code
// saved, in every run measured, the hostile tree's included. Its code runs in V8's baseline tier
// (Sparkplug), compiled from the bytecode without the compiler's analysis. Set before the bundle is
// compiled, so that its code cache is made and read under the same flags.
if (checking) require('node:v8').setFlagsFromString(NO_OPTIMIZING);
run('cli.bundle.js', checking ? '.check.cache' : '.cache', bundleRequire, writing === 'cli');
