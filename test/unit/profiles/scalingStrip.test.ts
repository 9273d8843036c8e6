import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { stripImports } from '../../../src/core/profiles/scaling';
import { charCount } from '../../../src/core/text';

// `stripImports` reads a guidance file through offsets, for speed; here it is held to the plain
// definition it replaced: every line split out, tested with the fence and import expressions.
function plainStrip(text: string) {
  const imports: { path: string; start: number; end: number }[] = [];
  const inFence: { written: string; start: number; end: number }[] = [];
  const segments: { c: number; o: number }[] = [];
  let content = '';
  let offset = 0;
  let fence: { ch: string; len: number } | undefined;
  for (const raw of text.split(/(?<=\n)/)) {
    const line = raw.replace(/\r?\n$/, '');
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    const at = /^@(\S+)$/.exec(line.trim());
    let keep = true;
    if (fence) {
      if (m && m[1][0] === fence.ch && m[1].length >= fence.len && line.slice(m[0].length).trim() === '') fence = undefined;
      else if (at) inFence.push({ written: at[1], start: offset + line.indexOf('@'), end: offset + line.indexOf('@') + 1 + at[1].length });
    } else if (m && !(m[1][0] === '`' && line.slice(m[0].length).includes('`'))) {
      fence = { ch: m[1][0], len: m[1].length };
    } else if (at && charCount(at[1]) <= 256) {
      const start = offset + line.indexOf('@');
      imports.push({ path: at[1], start, end: start + 1 + at[1].length });
      keep = false;
    }
    if (keep) {
      segments.push({ c: content.length, o: offset });
      content += raw;
    }
    offset += raw.length;
  }
  const toOriginal = (c: number) => {
    let seg = segments[0] ?? { c: 0, o: 0 };
    for (const s of segments) if (s.c <= c) seg = s;
    return seg.o + (c - seg.c);
  };
  return { content, imports, inFence, toOriginal };
}

// Lines made of what the rules look at: fences of both kinds and lengths, `@` paths, white space
// of several kinds, CRLF and lone CR, long paths.
const piece = fc.constantFrom('@', '@a.md', '@docs/x.md', ' @b.md ', '\t@c', '@a b', '```', '````', '~~~', '   ```', '    ```', '``` js', '```a`b', '~~~~ ', 'x', 'text', ' ', '\t', '\u00a0', '\r', '\n', '\r\n', '`', '~', 'é', '😀', `@${'p'.repeat(256)}`, `@${'p'.repeat(257)}`);
const text = fc.array(piece, { maxLength: 40 }).map((xs) => xs.join(''));

describe('scaling: stripImports', () => {
  it('gives what the line-by-line definition gives, on random texts', () => {
    fc.assert(
      fc.property(text, (t) => {
        const fast = stripImports(t);
        const plain = plainStrip(t);
        assert.equal(fast.content, plain.content);
        assert.deepStrictEqual(fast.imports, plain.imports);
        assert.deepStrictEqual(fast.inFence, plain.inFence);
        for (let c = -1; c <= fast.content.length + 1; c++) assert.equal(fast.toOriginal(c), plain.toOriginal(c), `offset ${c}`);
      }),
      { numRuns: 3000, seed: 20261203 },
    );
  });

  it('keeps the text as it is when no line is an import', () => {
    const t = 'a\n```\n@in-fence.md\n```\nb';
    assert.equal(stripImports(t).content, t);
    assert.deepStrictEqual(stripImports('').imports, []);
  });
});
