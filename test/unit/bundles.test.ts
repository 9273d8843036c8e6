// The extension's bundles of the parsers (dist/marked.js and dist/yaml.js, which the CLI loads
// too) leave out parts of their libraries that the core cannot reach (scripts/extensionBundles.mjs):
// marked's parser and renderer, and yaml's modules that nothing imported uses. They must parse
// every text as the whole libraries do.
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
// The library as it is (the test's own build bundles it without the extension's plugins).
import * as Jsonc from 'jsonc-parser/lib/esm/main.js';
import { Lexer } from 'marked';
import type * as Yaml from 'yaml';

const bundle = path.resolve('dist', 'marked.js');
const yamlBundle = path.resolve('dist', 'yaml.js');
/** The whole library, from the build the bundle takes (its "default" export, which reads !!binary as a Uint8Array, not a Buffer). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const YAML = require('../../node_modules/yaml/browser/index.js') as typeof Yaml;

/** The lexer in dist/marked.js: src/core/lib/marked.ts as the core requires it (src/core/lazy.ts), under the build's alias. */
function bundledLexer(): typeof Lexer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const modules = Object.values(require(bundle) as Record<string, { Lexer?: typeof Lexer }>);
  assert.equal(modules.length, 1, 'dist/marked.js exports one module');
  assert.equal(typeof modules[0].Lexer, 'function', 'dist/marked.js exports the lexer');
  return modules[0].Lexer as typeof Lexer;
}

/** Markdown of every kind the lexer knows: the repository's own documents and a few made here. */
function texts(): string[] {
  const docs = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', ...nodeFs.readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];
  const made = [
    '# H\n\nSetext\n===\n\n> quote @a.md\n> > nested\n\n- [ ] task\n- [x] done\n  1. one\n  2) two\n\n***\n',
    '| a | b |\n|:-|-:|\n| `c` | [d](e.md "t") |\n\n<div>\n@html.md\n</div>\n\n<!-- @comment.md -->\n',
    '```ts\n@code.md\n```\n\n    indented @code.md\n\n~~~\nfence\n~~~\n\n[ref]: ./x.md\n[ref] and ![img](i.png) <https://x.y> www.z.com\n',
    '*em* **strong** ~~del~~ _u_ \\@escaped &#64;entity &amp; line  \nbreak\\\nend `a``b` ``c`d``\n',
    '\r\n# CRLF\r\n\r\n- a\r\n\t- tab\r\n\u00a0\u2003@x.md \u{1f600}\n',
  ];
  return [...docs.map((f) => nodeFs.readFileSync(f, 'utf8')), ...made];
}

describe("the markdown lexer's bundle (dist/marked.js)", () => {
  it("lexes as the library does, with the core's options and with the library's defaults", () => {
    assert.ok(nodeFs.existsSync(bundle), 'dist/marked.js is built with the extension');
    const Bundled = bundledLexer();
    for (const text of texts()) {
      for (const options of [{ gfm: false }, undefined]) {
        assert.deepEqual(new Bundled(options).lex(text), new Lexer(options).lex(text), text.slice(0, 80));
      }
    }
  });

  it("leaves out the library's parser and renderer, which the core never runs", () => {
    // The renderer is the only part of marked that writes HTML.
    const library = nodeFs.readFileSync(path.resolve('node_modules', 'marked', 'lib', 'marked.esm.js'), 'utf8');
    assert.ok(library.includes('</blockquote>'), "marked's renderer writes </blockquote>");
    assert.ok(!nodeFs.readFileSync(bundle, 'utf8').includes('</blockquote>'), 'dist/marked.js holds a renderer');
  });
});

/** YAML of every kind frontmatter may hold, errors included. */
const YAML_TEXTS = [
  'description: Rules for the API\napplyTo: "src/**/*.ts"\n',
  'globs: ["*.ts", "*.tsx"]\nalwaysApply: false\n',
  'globs: **/*.ts\n',
  'a: &x {b: [1, 2.5, 0x1f, 0o17, .inf, -.NaN, null, ~, true, False, 2026-12-02]}\nc: *x\n<<: *x\n',
  '? [complex, key]\n: value\n? {a: 1}\n: other\n',
  'literal: |\n  line one\n  line two\nfolded: >-\n  folded\n  text\nquoted: "esc\\u00e9\\n" \nsingle: \'it\'\'s\'\n',
  '%YAML 1.1\n---\nyes: on\nset: !!set {a, b}\nomap: !!omap [{a: 1}, {b: 2}]\nbin: !!binary aGVsbG8=\nt: 2001-12-14t21:59:43.10-05:00\nn: 0b1010\nsexa: 190:20:30\n',
  '%TAG !e! tag:example.com,2000:\n---\nx: !e!thing value\ny: !local 3\n',
  'key: value\nkey: again\n',
  'a:\n\t- tab indented\n',
  'a: [unclosed\n',
  'a: b: c\n',
  '- just\n- a\n- list\n',
  'plain scalar\n',
  '',
  '# only a comment\n',
  'a: 1\n---\nb: 2\n',
  'name: "unterminated\n',
  'x: *missing\n',
];

/** What the core reads of a parse (src/core/frontmatter.ts, src/core/profiles/copilot.ts). */
function parsed(lib: Pick<typeof Yaml, 'parseDocument' | 'isMap' | 'isScalar'>, text: string): unknown {
  const doc = lib.parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const attempt = (f: () => unknown) => {
    try {
      return f();
    } catch (e) {
      return `throws: ${(e as Error).message}`;
    }
  };
  return {
    errors: doc.errors.map((e) => [e.code, e.message, e.pos, e.linePos]),
    warnings: doc.warnings.map((e) => [e.code, e.message, e.pos]),
    value: attempt(() => doc.toJS()),
    // Copilot's header: each pair's key and value, a scalar's value or else the node as text.
    pairs: lib.isMap(doc.contents) ? doc.contents.items.map((p) => [String(p.key), lib.isScalar(p.value) ? p.value.value : attempt(() => String(p.value)), (p.key as { range?: unknown }).range]) : undefined,
  };
}

describe("the YAML parser's bundle (dist/yaml.js)", () => {
  it('parses as the library does: values, errors, warnings, the pairs and their nodes as text', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const modules = Object.values(require(yamlBundle) as Record<string, typeof Yaml>);
    assert.equal(modules.length, 1, 'dist/yaml.js exports one module');
    for (const text of YAML_TEXTS) assert.deepEqual(parsed(modules[0], text), parsed(YAML, text), text);
  });

  it("leaves out the methods of a document that edit, copy or write it (scripts/extensionBundles.mjs: yamlDocumentAsRead)", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const [bundled] = Object.values(require(yamlBundle) as Record<string, typeof Yaml>);
    const methods = (o: object) => Object.getOwnPropertyNames(Object.getPrototypeOf(o)).sort();
    const ours = bundled.parseDocument('%YAML 1.1\n---\na: 1\n');
    const theirs = YAML.parseDocument('%YAML 1.1\n---\na: 1\n');
    assert.deepEqual(methods(ours), ['constructor', 'createNode', 'setSchema', 'toJS', 'toJSON']);
    assert.deepEqual(methods(ours.directives!), ['add', 'atDocument', 'constructor', 'tagName', 'tagString']);
    assert.ok(['set', 'clone', 'toString'].every((m) => methods(theirs).includes(m)), "the library's Document has them");
    assert.ok(!nodeFs.readFileSync(yamlBundle, 'utf8').includes('%YAML ${'), "dist/yaml.js writes a document's directives");
  });

  it("leaves out the library's visitor of its syntax tree, which only the library's users call", () => {
    const library = nodeFs.readFileSync(path.resolve('node_modules', 'yaml', 'browser', 'dist', 'parse', 'cst-visit.js'), 'utf8');
    assert.ok(library.includes('itemAtPath'), "yaml's CST.visit has itemAtPath");
    assert.ok(!nodeFs.readFileSync(yamlBundle, 'utf8').includes('itemAtPath'), 'dist/yaml.js holds CST.visit');
  });
});

describe("the extension's bundles (scripts/extensionBundles.mjs: modulesOnce)", () => {
  it("read VS Code's API, node:path and node:fs through one object each, not a copy per module (hundreds of getters made on the extension host's thread, and bytes)", () => {
    for (const [name, ids] of [['extension', ['vscode', 'node:path']], ['lens', ['vscode', 'node:path', 'node:fs']], ['verify', ['node:path', 'node:fs']], ['core', ['node:path', 'node:fs']]] as const) {
      const text = nodeFs.readFileSync(path.resolve('dist', `${name}.js`), 'utf8');
      for (const id of ids) assert.equal(text.split(`require("${id}")`).length - 1, 1, `dist/${name}.js requires ${id} once`);
    }
  });
});

/** JSON with comments of every kind a settings file may hold, errors included. */
const JSONC_TEXTS = [
  '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}',
  '// comment\n{ /* block */ "a": 1, "b": [true, false, null, -1.5e3, "\\u00e9\\n"] }',
  '{"a": 1,}',
  '{"a" 1}',
  '{"a": [1 2]}',
  '{"a": "unterminated',
  '{"a": 0x1f, "b": 01}',
  '/* unterminated comment',
  '{"a": "\\q"}',
  '',
  '[1, 2] 3',
  '{"a": {"b": {"c": ',
];

describe("jsonc-parser's modules in the extension's bundles (scripts/extensionBundles.mjs: enumsDroppable)", () => {
  /** jsonc-parser's ES module as the extension's build bundles it, with the `entry`'s exports. */
  async function bundled(entry: string): Promise<string> {
    const { build } = await import('esbuild');
    const plugin = (await import(pathToFileURL(path.resolve('scripts', 'extensionBundles.mjs')).href)) as { enumsDroppable(): Plugin };
    const result = await build({ stdin: { contents: entry, resolveDir: path.resolve('.'), loader: 'js' }, bundle: true, format: 'cjs', platform: 'node', minify: true, write: false, plugins: [plugin.enumsDroppable()] });
    return result.outputFiles[0].text;
  }

  it('keeps every enum the same object, and parses as the library does', async () => {
    const text = await bundled("export * from 'jsonc-parser/lib/esm/main.js';");
    const mod = { exports: {} as Record<string, unknown> };
    new Function('module', 'exports', 'require', text)(mod, mod.exports, require);
    const library = Jsonc as unknown as Record<string, unknown>;
    for (const name of ['ScanError', 'SyntaxKind', 'ParseErrorCode']) assert.deepEqual(mod.exports[name], library[name], name);
    const parse = mod.exports.parse as typeof Jsonc.parse;
    const print = mod.exports.printParseErrorCode as typeof Jsonc.printParseErrorCode;
    for (const t of JSONC_TEXTS) {
      for (const options of [{ allowTrailingComma: false, disallowComments: false, allowEmptyContent: false }, undefined]) {
        const [ours, theirs]: Jsonc.ParseError[][] = [[], []];
        assert.deepEqual(parse(t, ours, options), Jsonc.parse(t, theirs, options), t);
        assert.deepEqual(ours.map((e) => [print(e.error), e.offset, e.length]), theirs.map((e) => [Jsonc.printParseErrorCode(e.error), e.offset, e.length]), t);
      }
    }
  });

  it('leaves out the enums nothing reads', async () => {
    const text = await bundled("export { parse, printParseErrorCode } from 'jsonc-parser/lib/esm/main.js';");
    // Members of CharacterCodes, SyntaxKind and ScanError as each enum's filling names them.
    for (const member of ['.lineFeed=', '.OpenBraceToken=', '.UnexpectedEndOfNumber=']) assert.ok(!text.includes(member), member);
    assert.ok(text.includes('"InvalidSymbol"'), "printParseErrorCode's names stay");
  });
});
