// The extension's bundle of the markdown lexer (dist/marked.js, which the CLI loads too) holds
// marked's lexer without the library's parser and renderer (scripts/extensionBundles.mjs,
// `markedLexerOnly`): it must lex every text as the whole library does.
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { Lexer } from 'marked';

const bundle = path.resolve('dist', 'marked.js');

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
