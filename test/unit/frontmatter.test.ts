import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { parseFrontmatter, simpleYamlData, splitOutsideBraces } from '../../src/core/frontmatter';

// Most rules' frontmatter is a line or two of `paths:` globs; it is read without the YAML
// parser, and must read as the parser reads it.
describe('simple frontmatter, read without the YAML parser', () => {
  const key = fc.constantFrom('paths', 'globs', 'description', 'alwaysApply', 'applyTo', 'name', 'a-b', 'a_b', 'x1', 'true', 'Null', 'on', 'yes', 'constructor', 'toString', 'A');
  const word = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom('src', '**', '*', '/', '.', '..', '{a,b}', ',', ' ', '  ', '-', '_', 'x', 'ts', 'A1') },
    { weight: 1, arbitrary: fc.constantFrom('#', ':', ': ', '"', "'", '\\', '[', ']', '&', '!', '|', '>', '%', '@', '`', '?', '~', '=', 'é', '\t') },
  );
  const plain = fc.oneof(
    fc.tuple(fc.constantFrom('src', 'x', 'a', 'Use'), fc.array(word, { maxLength: 6 })).map(([w, ws]) => w + ws.join('')),
    fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join('')),
    fc.constantFrom('true', 'True', 'false', 'FALSE', 'null', 'NULL', 'yes', 'no', 'on', 'off', 'y', 'n', 'Infinity', 'NaN', 'e5', 'x1', 'a', 'src/**/*.ts', 'src/{a,b}/*.ts', 'Use tabs, not spaces', 'a - b', 'a *b', 'a {b}', 'a,b'),
  );
  const quoted = plain.map((p) => `"${p}"`);
  const value = fc.oneof(plain, quoted, fc.array(quoted, { maxLength: 4 }).map((q) => `[${q.join(', ')}]`), fc.array(fc.oneof(quoted, plain), { maxLength: 3 }).map((q) => `[${q.join(',')}]`));
  const line = fc.tuple(key, fc.oneof({ weight: 20, arbitrary: fc.constant(': ') }, { weight: 1, arbitrary: fc.constantFrom(':', ':  ', ' : ') }), value).map(([k, sep, v]) => `${k}${sep}${v}`);
  const yaml = fc.tuple(fc.array(line, { minLength: 1, maxLength: 3 }), fc.oneof({ weight: 10, arbitrary: fc.constant('\n') }, { weight: 1, arbitrary: fc.constantFrom('\r\n', '\n\n', '\n\n\n', '') })).map(([lines, end]) => lines.join(end === '' ? '\n' : end) + end);
  const withBlank = fc.tuple(yaml, fc.boolean()).map(([y, blank]) => (blank ? `\n${y}\n` : y));

  it('gives what the YAML parser gives, with no error, on every frontmatter it reads (random frontmatter)', () => {
    let simple = 0;
    fc.assert(
      fc.property(withBlank, (y) => {
        const data = simpleYamlData(y);
        if (!data) return;
        simple++;
        const doc = parseDocument(y, { prettyErrors: false, uniqueKeys: false });
        assert.deepEqual(doc.errors, []);
        assert.deepEqual(data, doc.toJS());
        assert.deepEqual(Object.keys(data), Object.keys(doc.toJS() as object));
      }),
      { numRuns: 20_000, seed: 20261201 },
    );
    assert.ok(simple > 2_000, `only ${simple} simple frontmatters`);
  });

  it("reads a rule's paths as the parser would", () => {
    // Claude Code's rules are read with an empty line after the YAML (src/core/profiles/claudeCode.ts).
    const fm = parseFrontmatter('---\npaths: ["**/*.js", "test/**"]\ndescription: Tests\n\n---\n# Tests\n');
    assert.deepEqual(simpleYamlData('paths: ["**/*.js", "test/**"]\ndescription: Tests\n\n'), { paths: ['**/*.js', 'test/**'], description: 'Tests' });
    assert.deepEqual(fm?.data, { paths: ['**/*.js', 'test/**'], description: 'Tests' });
    assert.equal(fm?.body, '# Tests\n');
  });

  it('leaves to the parser what it does not read the same: typed words, comments, escapes, repeated keys', () => {
    for (const y of ['alwaysApply: true\n', 'paths: src # all\n', 'paths: "a\\tb"\n', 'a: x\na: y\n', 'paths: *\n', 'paths:\n  - a\n', 'n: 1\n', '\n\n']) {
      assert.equal(simpleYamlData(y), undefined, y);
    }
  });
});

// Copilot's and Cursor's patterns are split at each comma outside braces for every folder a
// `check` passes: the split by index must cut what the split a character at a time cut.
describe('a pattern list split at commas outside braces', () => {
  function defined(s: string): string[] {
    const out: string[] = [];
    let depth = 0;
    let cur = '';
    for (const ch of s) {
      if (ch === '{') depth++;
      if (ch === '}') depth = Math.max(0, depth - 1);
      if (ch === ',' && depth === 0) {
        out.push(cur);
        cur = '';
      } else cur += ch;
    }
    out.push(cur);
    return out;
  }

  it('gives the parts the definition gives (random lists, braces unbalanced, astral characters)', () => {
    const part = fc.array(fc.constantFrom('{', '}', ',', ' ', 'a', '*', '/', '.ts', '😀', '\uD800'), { maxLength: 12 }).map((a) => a.join(''));
    fc.assert(
      fc.property(part, (s) => assert.deepEqual(splitOutsideBraces(s), defined(s))),
      { numRuns: 10_000, seed: 20261203 },
    );
    assert.deepEqual(splitOutsideBraces('src/{a,b}.ts, **/*.md'), ['src/{a,b}.ts', ' **/*.md']);
  });
});
