import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findClaudeImports, importsByTokens, plainForImports } from '../../src/core/markdown';

// Claude Code finds @imports in marked's tokens; a text without markdown's code, HTML, quotes,
// links, escapes or emphasis is answered without the lexer, and must get the lexer's answer.
describe('@imports of plain text, found without the lexer', () => {
  // The blocks such a text can still hold (headings, setext underlines, lists, thematic breaks,
  // paragraphs) and references of every shape, in any order: most texts come out plain.
  const piece = fc.constantFrom(
    'a', 'word', 'b.md', '@a', '@b.md', '@./c.md', '@~/d.md', '@/e.md', '@/', '@@f', '@#g', '@h#i', '@(j)', '@%k', '@.', '@-', 'x@y', '@a',
    ' ', ' ', '\n', '\n', '\n\n', '#', '# ', '## ', '###### ', ' #', ' ##', '####### ', '- ', '+ ', '1. ', '1) ', '2. ', '123456789. ', '-', '+', '1.',
    '---', '===', '=', '- - -', '!', '(', ')', ':', '&#64;', '&amp;', '.', '/', '%', '|', '"', "'", 'é', '😀', '#x', 'http://a.b/@c',
  );
  const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

  it('gives what the lexer gives, on every plain text (random texts of the blocks plain text can hold)', () => {
    let plain = 0;
    fc.assert(
      fc.property(text, (t) => {
        if (!plainForImports(t)) return;
        plain++;
        assert.deepEqual(findClaudeImports(t), importsByTokens(t));
      }),
      { numRuns: 20_000, seed: 20261201 },
    );
    assert.ok(plain > 10_000, `only ${plain} plain texts`);
  });

  it('answers the usual instruction file with an import at its end without the lexer', () => {
    const t = '# Project\n\nKeep changes small (0).\n\n- Prefer the helpers.\n- Name tests after features; fixture 0 is shared.\n\n@docs/agents.md\n';
    assert.ok(plainForImports(t));
    assert.deepEqual(
      findClaudeImports(t).imports.map((r) => [r.path, r.start, r.end]),
      [['docs/agents.md', t.indexOf('@'), t.length - 1]],
    );
  });

  it('leaves to the lexer every text where the references of the whole text are not the imports', () => {
    // Each is a text where a plain reading would be wrong: the lexer's answer differs from one
    // over the whole text, so the character that makes it so must keep the text off the shortcut.
    const cases: Record<string, string> = {
      'code span': 'see ` @a.md`\n',
      'fenced code': '~~~\n@a.md\n~~~\n',
      'indented code': 'a\n\n    @a.md\n',
      'code inside a list item (five spaces after the marker)': '-     @a.md\n',
      'code inside a list item (tabs after the marker)': '-\t\t\t\t\t@a.md\n',
      'HTML comment': '<!-- @a.md -->\n',
      'link title': '[x](/u " @a.md")\n',
      'quote': '> a\n> @b.md\n',
      'emphasis': 'x *@a.md*\n',
      'emphasis with underscores': 'x _@a.md_\n',
      // marked indents a lazy continuation line in the item's text, which is then looked for in vain
      'a list item continued on a line of its own': '123456789. @a.md\n=\n',
    };
    for (const [name, t] of Object.entries(cases)) {
      const byTokens = importsByTokens(t);
      const whole = [...t.matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)].map((m) => m[1]);
      assert.notDeepEqual(byTokens.imports.map((r) => r.written), whole, `${name}: not a case where plain reading is wrong`);
      assert.equal(plainForImports(t), false, name);
      assert.deepEqual(findClaudeImports(t), byTokens, name);
    }
  });
});
