// The extension as several CommonJS bundles in dist/, loaded one after another (src/extension.ts
// says why): VS Code loads the first, dist/extension.js, to activate; the others load after
// activation returns, or on first need. Every source module and library is in exactly one of
// them (the build fails otherwise): an import of a module that another bundle holds becomes a
// `require` of that bundle, whose entry exports what the others import from it (only the names
// imported, so that the rest of a module is left out as in one bundle).
// (esbuild's own code splitting is for ES modules only; VS Code loads an extension as CommonJS.)
import { build } from 'esbuild';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import ts from 'typescript';

const repo = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bundles, each with the modules it holds (paths from the repository root). A module not
 * named by any (a library) goes in each bundle that imports it — the check below makes sure
 * that is one. Ordered so that a bundle comes before every bundle it imports from: each
 * bundle's entry is known once those before it are built.
 */
export const EXTENSION_BUNDLES = [
  // Activation: the commands, views and providers the user sees, forwarding to the rest.
  { name: 'extension', entry: 'src/extension.ts', holds: (p) => p === 'src/extension.ts' || p === 'src/vscode/surface.ts' || p === 'src/vscode/log.ts' },
  // The rest of the extension's own parts: the model, the views' contents, diagnostics, the watcher.
  { name: 'lens', holds: (p) => p.startsWith('src/vscode/') },
  // Verifying with an installed agent: loaded when the user first does.
  { name: 'verify', holds: (p) => p.startsWith('src/verify/') },
  // The diagnostics' worker thread (src/vscode/checkWorker.ts starts it): the core, through its bundle.
  { name: 'checkWorker', entry: 'src/checkWorker.ts', holds: (p) => p === 'src/checkWorker.ts' },
  // The agents' rules and their libraries.
  { name: 'core', holds: (p) => p.startsWith('src/core/') && !p.startsWith('src/core/lib/') },
  // The parsers, loaded on first use (src/core/lazy.ts). YAML from the library's ES module build
  // (its "default" export, not its "node" one: the same code) so that what the core does not
  // use is left out.
  { name: 'yaml', holds: (p) => p === 'src/core/lib/yaml.ts', platform: 'neutral', plugins: [yamlDocumentAsRead()] },
  { name: 'marked', holds: (p) => p === 'src/core/lib/marked.ts', plugins: [markedLexerOnly()] },
];

/**
 * marked's ES build ends by setting up its `marked` function: a `Marked` instance, then the
 * function's properties (its parser, renderer, hooks...), statements a bundler must keep, and
 * with them every class they name. The core uses the lexer alone (src/core/lib/marked.ts), so
 * the module is ended before that set-up: the bundle keeps the library's text up to there as it
 * is, and leaves out its parser and renderer (11 KB that could never run). Importing a name the
 * set-up made (`marked`, `parse`...) then fails the build.
 */
export function markedLexerOnly() {
  return {
    name: 'marked-lexer-only',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]marked[\\/]lib[\\/]marked\.esm\.js$/ }, async (args) => ({
        contents: withoutSetUp(await readFile(args.path, 'utf8'), args.path),
        loader: 'js',
      }));
    },
  };
}

/** marked's ES module without the statements from its `Marked` instance to its exports, exporting what is left. */
export function withoutSetUp(text, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const statements = [...source.statements];
  const exports = statements.at(-1);
  const changed = () => new Error(`${file} is not as scripts/extensionBundles.mjs (markedLexerOnly) expects: check what it leaves out`);
  if (!exports || !ts.isExportDeclaration(exports) || !exports.exportClause || !ts.isNamedExports(exports.exportClause)) throw changed();
  const local = new Map(exports.exportClause.elements.map((e) => [e.name.text, (e.propertyName ?? e.name).text]));
  const isInstance = (s) =>
    ts.isVariableStatement(s) &&
    s.declarationList.declarations.some((d) => d.initializer && ts.isNewExpression(d.initializer) && ts.isIdentifier(d.initializer.expression) && d.initializer.expression.text === local.get('Marked'));
  const first = statements.findIndex(isInstance);
  if (first < 0) throw changed();
  const setUp = statements.slice(first, -1);
  const made = new Set();
  for (const s of setUp) {
    if (ts.isFunctionDeclaration(s) && s.name) made.add(s.name.text);
    else if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) made.add(d.name.text);
    } else if (!ts.isExpressionStatement(s)) throw changed();
  }
  const kept = [...local].filter(([, name]) => !made.has(name));
  return `${text.slice(0, setUp[0].getStart(source))}export{${kept.map(([as, name]) => `${name} as ${as}`).join(',')}};${text.slice(exports.end)}`;
}

/**
 * yaml's `Document` as the core uses it: made by `parseDocument`, read through its errors,
 * warnings, contents and `toJS()`. Its other methods edit, copy or write a document (`set`,
 * `clone`, `toString`...), and its `Directives`' copy and text with them: class methods a bundler
 * must keep, and with `toString` the module that writes a document's text. They are left out of
 * the classes (the library's own code calls none of them but from a method left out; `createNode`
 * stays, which writing a collection key as text calls). A class with other methods than these (the
 * library changed) fails the build.
 */
export function yamlDocumentAsRead() {
  return {
    name: 'yaml-document-as-read',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]yaml[\\/]browser[\\/]dist[\\/]doc[\\/](Document|directives)\.js$/ }, async (args) => ({
        contents: withMethodsLeftOut(await readFile(args.path, 'utf8'), args.path, YAML_LEFT_OUT[path.basename(args.path)]),
        loader: 'js',
      }));
    },
  };
}

/** For each module of yaml's doc/ the plugin changes: its class, the methods kept and those left out (yamlDocumentAsRead). */
export const YAML_LEFT_OUT = {
  'Document.js': {
    name: 'Document',
    kept: ['constructor', 'createNode', 'setSchema', 'toJS', 'toJSON'],
    leftOut: ['clone', 'add', 'addIn', 'createAlias', 'createPair', 'delete', 'deleteIn', 'get', 'getIn', 'has', 'hasIn', 'set', 'setIn', 'toString'],
  },
  'directives.js': { name: 'Directives', kept: ['constructor', 'atDocument', 'add', 'tagName', 'tagString'], leftOut: ['clone', 'toString'] },
};

/** A module with one class's methods `leftOut` taken out, failing unless the class has exactly those and `kept`. */
export function withMethodsLeftOut(text, file, { name, kept, leftOut }) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const changed = (why) => new Error(`${file} is not as scripts/extensionBundles.mjs (yamlDocumentAsRead) expects: ${why}`);
  const found = source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === name);
  if (!found) throw changed(`no class ${name}`);
  const members = found.members.map((m) => [m, ts.isConstructorDeclaration(m) ? 'constructor' : m.name && ts.isIdentifier(m.name) ? m.name.text : undefined]);
  const names = members.map(([, n]) => n);
  const expected = [...kept, ...leftOut];
  if (names.length !== expected.length || !expected.every((n) => names.includes(n)) || !members.every(([m]) => ts.isConstructorDeclaration(m) || (ts.isMethodDeclaration(m) && !m.modifiers?.length))) {
    throw changed(`${name}'s members are ${names.join(', ')}`);
  }
  let out = text;
  for (const [m] of members.filter(([, n]) => leftOut.includes(n)).reverse()) out = out.slice(0, m.getFullStart()) + out.slice(m.end);
  return out;
}

/**
 * jsonc-parser's ES modules are TypeScript's output: each enum (and namespace) is a declaration
 * and a function call filling it (`var E; (function (E) { E[E["A"] = 1] = "A"; … })(E || (E = {}));`),
 * statements a bundler must keep whether or not anything reads `E`. The library's own code uses
 * their values inlined (`10 /* CharacterCodes.lineFeed *\/`), and the core none of them: each
 * becomes one declaration whose value is that call marked pure (`var E = /* @__PURE__ *\/
 * (function (E) { …; return E; })({})`, the same object), left out when nothing reads it. A call
 * of that shape not rewritten (the library changed) fails the build.
 */
export function enumsDroppable() {
  return {
    name: 'enums-droppable',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]jsonc-parser[\\/]lib[\\/]esm[\\/].*\.js$/ }, async (args) => ({
        contents: withEnumsDroppable(await readFile(args.path, 'utf8'), args.path),
        loader: 'js',
      }));
    },
  };
}

/** A module of TypeScript's output with its enums' statements as pure declarations (enumsDroppable). */
export function withEnumsDroppable(text, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  /** The name an enum's filling call fills: `(function (E) { … })(E || (E = {}))`. */
  const filled = (s) => {
    if (!ts.isExpressionStatement(s) || !ts.isCallExpression(s.expression)) return undefined;
    const call = s.expression;
    const fn = ts.isParenthesizedExpression(call.expression) ? call.expression.expression : undefined;
    const arg = call.arguments.length === 1 ? call.arguments[0] : undefined;
    if (!fn || !ts.isFunctionExpression(fn) || fn.parameters.length !== 1 || !arg || !ts.isBinaryExpression(arg) || arg.operatorToken.kind !== ts.SyntaxKind.BarBarToken) return undefined;
    const name = fn.parameters[0].name;
    return ts.isIdentifier(name) && ts.isIdentifier(arg.left) && arg.left.text === name.text ? name.text : undefined;
  };
  const edits = [];
  const statements = source.statements;
  for (let i = 0; i < statements.length; i++) {
    const name = filled(statements[i]);
    if (!name) continue;
    const declaration = statements[i - 1];
    const declared = declaration && ts.isVariableStatement(declaration) && declaration.declarationList.declarations.length === 1 ? declaration.declarationList.declarations[0] : undefined;
    if (!declared || declared.initializer || !ts.isIdentifier(declared.name) || declared.name.text !== name || (declaration.declarationList.flags & ts.NodeFlags.BlockScoped) !== 0) {
      throw new Error(`${file} is not as scripts/extensionBundles.mjs (enumsDroppable) expects: ${name} is filled without its \`var ${name};\` just before`);
    }
    const fn = statements[i].expression.expression.expression;
    const exported = declaration.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ? 'export ' : '';
    const body = text.slice(fn.body.getStart(source) + 1, fn.body.end - 1);
    edits.push([declaration.getStart(source), statements[i].end, `${exported}var ${name} = /* @__PURE__ */ (function (${name}) {${body}return ${name};\n})({});`]);
  }
  let out = text;
  for (const [start, end, replacement] of edits.reverse()) out = out.slice(0, start) + replacement + out.slice(end);
  return out;
}

/**
 * VS Code's API, `node:path` and `node:fs` as one namespace each per bundle. esbuild makes each
 * module's `import * as vscode from 'vscode'` an object of its own with a getter per name the API
 * has (its `__toESM`, hundreds of names: 16 copies in dist/lens.js, 3 in dist/extension.js, run on
 * the extension host's thread as each bundle loads), and so for each module importing `node:path`
 * (15 in dist/lens.js, about 30 bytes each); an ES module re-exporting one is one such object,
 * which every module of the bundle reads. (None is imported by its default export, which a
 * re-export leaves out.) Not in the worker's bundle, one module, where the re-export's helper is
 * all it would add.
 */
export function modulesOnce(ids = ['vscode', 'node:path', 'node:fs']) {
  const filter = new RegExp(`^(${ids.join('|')})$`);
  return {
    name: 'modules-once',
    setup(b) {
      b.onResolve({ filter }, (args) => (args.namespace === 'module-once' ? { path: args.path, external: true } : { path: args.path, namespace: 'module-once' }));
      b.onLoad({ filter: /.*/, namespace: 'module-once' }, (args) => ({ contents: `export * from ${JSON.stringify(args.path)};\n`, loader: 'js' }));
    },
  };
}

/**
 * Libraries whose ES modules do nothing when loaded but set up what they declare (their
 * top-level statements touch only their own classes and functions): a module of theirs none of
 * whose exports is used is left out, as `"sideEffects": false` in their package.json would say.
 * That leaves out yaml's visitor of its syntax tree (`CST.visit`, for the library's users) and
 * jsonc-parser's indentation strings (its formatter's).
 */
const SIDE_EFFECT_FREE = /[\\/]node_modules[\\/](yaml|jsonc-parser)[\\/]/;

/** Modules in more than one bundle on purpose: constants and functions, no state. */
const SHARED = new Set(['src/vscode/ids.ts', 'src/vscode/checkThread.ts', 'src/codeCache.ts']);

/** The files the .vsix ships for the extension (.vscodeignore lists the same). */
export const extensionFiles = () => EXTENSION_BUNDLES.map((b) => `dist/${b.name}.js`);

/**
 * Every library bundled into the extension, each with its licence's full text, in one file the
 * .vsix ships: the libraries' licences (MIT, ISC, BSD) ask that their notice go with every copy,
 * and most of them carry it only in a LICENSE file beside their code, never in it.
 */
export const THIRD_PARTY_NOTICES = 'dist/THIRD-PARTY-NOTICES.txt';

/** The folder of the npm package a bundled file comes from (undefined for the project's own). */
export function packageOf(file) {
  const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(path.resolve(repo, file));
  return match?.[1];
}

/** A library's licence file (LICENSE, LICENSE-MIT, COPYING...) in its package folder, if it has one. */
export function licenceFileOf(folder) {
  const name = readdirSync(folder).find((n) => /^(licen[cs]e|copying)([.-]|$)/i.test(n));
  return name && path.join(folder, name);
}

function writeThirdPartyNotices(inputs) {
  const folders = new Set([...inputs.values()].flat().map(packageOf).filter(Boolean));
  const entries = [...folders].map((folder) => {
    const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const licence = licenceFileOf(folder);
    if (!licence) throw new Error(`${manifest.name} has no licence file to ship with the extension (scripts/extensionBundles.mjs, writeThirdPartyNotices)`);
    return { name: manifest.name, text: `${manifest.name} ${manifest.version} (${manifest.license})\n\n${readFileSync(licence, 'utf8').trim()}\n` };
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  const rule = `\n${'-'.repeat(72)}\n\n`;
  writeFileSync(path.join(repo, THIRD_PARTY_NOTICES), `The extension's bundles (dist/*.js) include these libraries, each under its licence below.${rule}${entries.map((e) => e.text).join(rule)}`);
}

function ownerOf(rel) {
  if (SHARED.has(rel)) return undefined;
  return EXTENSION_BUNDLES.find((b) => b.holds(rel))?.name;
}

/**
 * Builds every bundle with `options` (esbuild's, shared with the rest of the build). Fails when
 * a module or library ends up in two bundles. Returns `linkTo(names)`: an esbuild plugin for a
 * build made after these (the CLI's) that makes its imports of the modules the named bundles
 * hold `require`s of them, as the extension's own are, and bundles the rest.
 */
export async function buildExtension(options) {
  /** For each bundle, the modules other bundles import from it: the names each exports to them, by their alias in the bundle's entry. */
  const wanted = new Map(EXTENSION_BUNDLES.map((b) => [b.name, new Map()]));
  // Twice: esbuild resolves a bundle's imports in parallel, so the first build finds the names
  // each bundle exports in an order of its own each time; the second gives them their aliases
  // in one order (modules by path, names by name), so that the same sources make the same
  // bundles (V8's code cache of a bundle, src/codeCache.ts, is kept by the bundle's content).
  await buildBundles(options, wanted, false);
  for (const [name, modules] of wanted) {
    let count = 0;
    const sorted = [...modules].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rel, names]) => [rel, new Map([...names.keys()].sort().map((n) => [n, `_${count++}`]))]);
    wanted.set(name, new Map(sorted));
  }
  const built = await buildBundles(options, wanted, true);
  return { linkTo: (names) => linkBundles('', wanted, built, names) };
}

/** Builds every bundle in order (written to dist/ when `write`), checking each module is in one; returns their names. */
async function buildBundles(options, wanted, write) {
  const inputs = new Map();
  const built = new Set();
  for (const bundle of EXTENSION_BUNDLES) {
    const modules = wanted.get(bundle.name);
    if (!bundle.entry && !modules.size) throw new Error(`no bundle imports from dist/${bundle.name}.js: take it out of EXTENSION_BUNDLES`);
    const result = await build({
      ...options,
      ...(bundle.platform ? { platform: bundle.platform } : {}),
      // Other characters as UTF-8, not escaped (`\u2026`: 6 bytes for 3), where Node's `require`
      // reads the bundle; not in those read as Latin-1 (the core's, the parsers': scripts/build.mjs).
      ...(UTF8.has(bundle.name) ? { charset: 'utf8' } : {}),
      ...(bundle.entry
        ? { entryPoints: [bundle.entry] }
        : { stdin: { contents: entryOf(modules), resolveDir: repo, sourcefile: `${bundle.name}-entry.js`, loader: 'js' } }),
      outfile: `dist/${bundle.name}.js`,
      // The libraries' licences go whole in THIRD_PARTY_NOTICES, not as comments in the bundles.
      legalComments: 'none',
      external: ['vscode'],
      metafile: true,
      write,
      plugins: [modulesOnce(bundle.name === 'checkWorker' ? ['vscode'] : undefined), enumsDroppable(), ...(options.plugins ?? []), ...(bundle.plugins ?? []), linkBundles(bundle.name, wanted, built)],
    });
    if (write) {
      const file = path.join(repo, `dist/${bundle.name}.js`);
      withoutExportNames(file);
      if (options.minify) await compressedAgain(file, !UTF8.has(bundle.name));
    }
    built.add(bundle.name);
    inputs.set(bundle.name, Object.keys(result.metafile.inputs).filter((i) => !/^bundle-(link|whole):/.test(i) && !i.startsWith('module-once:') && !i.endsWith('-entry.js')));
  }
  if (write) writeThirdPartyNotices(inputs);
  const seen = new Map();
  for (const [name, files] of inputs) {
    for (const file of files) {
      const rel = path.relative(repo, path.resolve(repo, file)).split(path.sep).join('/');
      if (SHARED.has(rel)) continue;
      if (seen.has(rel)) throw new Error(`${rel} is in both dist/${seen.get(rel)}.js and dist/${name}.js: import it from one bundle only (scripts/extensionBundles.mjs)`);
      seen.set(rel, name);
    }
  }
  return built;
}

/**
 * A bundle without the list of its exports' names that esbuild adds at its end for Node's
 * loader of CommonJS from an ES module (`0&&(module.exports={…})`, code that never runs): VS Code
 * and the bundles load each other with `require`, which never reads it (about 270 bytes).
 */
function withoutExportNames(file) {
  const text = readFileSync(file, 'latin1');
  const kept = text.replace(/0&&\(module\.exports=\{[\w$,]*\}\);\n$/, '');
  if (kept !== text) writeFileSync(file, kept, 'latin1');
}

/**
 * A minified bundle compressed again by terser, whose compressor takes what esbuild's minifier
 * leaves (it inlines and folds across statements, and shortens the bundle's own top-level names,
 * which esbuild keeps readable): about 4 KB of the 500 KB the bundles may hold, 0.8 %. Its
 * source map follows (the profiles and the package test read the maps). `ascii`: the bundles read
 * as Latin-1 stay ASCII.
 */
async function compressedAgain(file, ascii) {
  const encoding = ascii ? 'latin1' : 'utf8';
  const map = `${file}.map`;
  const name = path.basename(file);
  const result = await minify(
    { [name]: readFileSync(file, encoding) },
    { compress: { passes: 2 }, mangle: { toplevel: true }, toplevel: true, format: { ascii_only: ascii }, sourceMap: { content: readFileSync(map, 'utf8'), filename: name } },
  );
  writeFileSync(file, result.code, encoding);
  writeFileSync(map, result.map);
}

/** A bundle's entry: each module's names others import, under their aliases; a whole module where one asks for all of it. */
function entryOf(modules) {
  const lines = [];
  for (const [rel, names] of modules) {
    const file = JSON.stringify(`./${rel}`);
    if (names.has('*')) lines.push(`import * as ${names.get('*')} from ${file};`, `export { ${names.get('*')} };`);
    const named = [...names].filter(([name]) => name !== '*');
    if (named.length) lines.push(`export { ${named.map(([name, alias]) => `${name} as ${alias}`).join(', ')} } from ${file};`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The names a file imports from `specifier`, from its source (TypeScript's parser): `['*']` for
 * a namespace import, a re-export of everything, a `require` or an `import()`.
 */
function importedNames(importer, specifier, kind) {
  if (kind !== 'import-statement' || !/\.tsx?$/.test(importer)) return ['*'];
  const source = ts.createSourceFile(importer, readFileSync(importer, 'utf8'), ts.ScriptTarget.Latest, false);
  const names = new Set();
  for (const node of source.statements) {
    if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) || !node.moduleSpecifier || node.moduleSpecifier.text !== specifier) continue;
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (!clause || clause.isTypeOnly) continue;
      if (clause.name) names.add('default');
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) return ['*'];
      for (const e of bindings?.elements ?? []) if (!e.isTypeOnly) names.add((e.propertyName ?? e.name).text);
    } else {
      if (node.isTypeOnly) continue;
      if (!node.exportClause || !ts.isNamedExports(node.exportClause)) return ['*'];
      for (const e of node.exportClause.elements) if (!e.isTypeOnly) names.add((e.propertyName ?? e.name).text);
    }
  }
  return [...names];
}

/** The bundles only `require` reads (VS Code, the other bundles, the worker thread): UTF-8 there. */
const UTF8 = new Set(['extension', 'lens', 'verify', 'checkWorker']);

/**
 * The modules of a bundle that import from another, by `<bundle>><other>`, as the first of
 * `buildExtension`'s two builds finds them: the second links them to the other bundle once.
 */
const LINKING = new Map();

/**
 * From how many importing modules a bundle's links to another go through one module of the
 * whole other bundle (`export * from './core.js'`, 'bundle-whole'): esbuild makes a `require` of
 * an external module for each module importing it (29 of dist/core.js in dist/lens.js, about 26
 * bytes each), and that one module costs its helper that copies the exports (about 340 bytes,
 * where the bundle has none yet: dist/lens.js has it for `vscode`).
 */
const WHOLE_FROM = 2;

function getOrAdd(map, key) {
  if (!map.has(key)) map.set(key, new Set());
  return map.get(key);
}

/**
 * An import of a module another bundle holds: an ES module re-exporting the names imported from
 * the other bundle's exports (`export { <alias> as <name> } from './<bundle>.js'`, each use then
 * reading `require('./<bundle>.js').<alias>`), or that bundle's whole module. With `only` (the
 * names of bundles already built), for a build outside the extension: only imports of those
 * bundles' modules, of names they already export.
 */
function linkBundles(self, wanted, built, only) {
  return {
    name: 'link-bundles',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace === 'bundle-whole') return { path: args.path, external: true };
        if (args.namespace === 'bundle-link') return args.path.startsWith('bundle-whole:') ? { path: args.path.slice(13), namespace: 'bundle-whole' } : { path: args.path, external: true };
        if (args.pluginData?.linking || args.kind === 'entry-point') return undefined;
        const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { linking: true } });
        if (resolved.errors.length || resolved.external) return resolved;
        const rel = path.relative(repo, resolved.path).split(path.sep).join('/');
        const owner = ownerOf(rel);
        if (!owner || owner === self || (only && !only.includes(owner))) return SIDE_EFFECT_FREE.test(resolved.path) ? { ...resolved, sideEffects: false } : resolved;
        if (built.has(owner) && !only) throw new Error(`${rel} is imported from dist/${owner}.js, which is built before dist/${self}.js: order EXTENSION_BUNDLES so that a bundle comes before those it imports from`);
        const exported = wanted.get(owner);
        if (!exported.has(rel)) exported.set(rel, new Map());
        const aliases = exported.get(rel);
        let count = [...exported.values()].reduce((n, m) => n + m.size, 0);
        const names = importedNames(args.importer, args.path, args.kind);
        for (const name of names) {
          if (aliases.has(name)) continue;
          if (only) throw new Error(`${path.relative(repo, args.importer)} imports ${name === '*' ? 'all' : name} of ${rel}, which dist/${owner}.js does not export: import it as the extension does`);
          aliases.set(name, `_${count++}`);
        }
        const importers = getOrAdd(LINKING, `${self}>${owner}`);
        importers.add(args.importer);
        const link = { bundle: `./${owner}.js`, aliases: names.map((name) => [name, aliases.get(name)]), once: importers.size > WHOLE_FROM && !only };
        return { path: `${owner}:${rel}:${path.relative(repo, args.importer)}:${args.kind}`, namespace: 'bundle-link', pluginData: link };
      });
      b.onLoad({ filter: /.*/, namespace: 'bundle-link' }, ({ pluginData: { bundle, aliases, once } }) => {
        const from = `require(${JSON.stringify(bundle)})`;
        const whole = aliases.find(([name]) => name === '*');
        // Named imports as an ES module, which esbuild joins to its importers: no CommonJS wrapper
        // and getters per link (about 100 bytes each, 5.5 KB of the extension's JavaScript).
        const contents = whole
          ? `module.exports = ${from}.${whole[1]};\n`
          : `export { ${aliases.map(([name, alias]) => `${alias} as ${name}`).join(', ')} } from ${JSON.stringify(once ? `bundle-whole:${bundle}` : bundle)};\n`;
        return { contents, loader: 'js', resolveDir: repo };
      });
      b.onLoad({ filter: /.*/, namespace: 'bundle-whole' }, ({ path: bundle }) => ({ contents: `export * from ${JSON.stringify(bundle)};\n`, loader: 'js', resolveDir: repo }));
    },
  };
}
