#!/usr/bin/env node
// The command-line tool's entry (dist/cli.js, written by scripts/build.mjs): runs the bundle
// beside it (cli.bundle.js) with V8's code cache of it (cli.bundle.js.cache, made at build time
// by running a chain), so a run skips most of compiling the bundle: on Node 20, which has no
// compile cache of its own, that is most of what loading it costs beyond Node's start-up.
// A cache V8 does not accept (another Node, other flags) is ignored and the bundle compiled as
// usual.
'use strict';
// V8 runs a regular expression's first match in its bytecode interpreter and compiles it to
// machine code only from the second on. The markdown lexer's block rules are regular expressions
// of up to 1,200 characters (a setext heading's rule holds the HTML block's), and their first,
// interpreted matches on a paragraph took most of the first file's lexing: 30-70 ms of a chain,
// 5-10 ms compiled at once. Set before the bundle is compiled, so the code cache (whose check
// covers V8's flags) is made and read under the same flags.
require('node:v8').setFlagsFromString('--no-regexp-tier-up');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { wrap } = require('node:module');

const file = path.join(__dirname, 'cli.bundle.js');
const cacheFile = `${file}.cache`;
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  // no cache: compile as usual
}
// Read as Latin-1, which takes a third less time than UTF-8's decoding: the bundle is ASCII
// (esbuild escapes every other character, and the build checks), where the two read the same.
const script = new vm.Script(wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData });
// At build time: keep what this run compiled, for the next runs.
if (process.env.INSTRUCTION_LENS_WRITE_CODE_CACHE === '1') process.on('exit', () => fs.writeFileSync(cacheFile, script.createCachedData()));
const mod = { exports: {} };
script.runInThisContext().call(mod.exports, mod.exports, require, mod, file, __dirname);
