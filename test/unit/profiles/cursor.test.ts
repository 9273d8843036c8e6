import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainOf, statuses, tree } from '../fixture';

// Cursor rules docs (cursor.com/docs/rules) and CLI docs (docs.cursor.com/cli/using).
describe('cursor', () => {
  const rules = {
    '/w/.cursor/rules/always.mdc': '---\ndescription: House style\nglobs:\nalwaysApply: true\n---\n\n- Use tabs.\n',
    '/w/.cursor/rules/ts.mdc': '---\nglobs: src/**/*.ts, **/*.tsx\nalwaysApply: false\n---\nTypeScript rules.\n',
    '/w/.cursor/rules/db.mdc': '---\ndescription: Database migrations\nalwaysApply: false\n---\nMigrations body.\n',
    '/w/.cursor/rules/manual.mdc': '---\ndescription:\nglobs:\nalwaysApply: false\n---\nOnly when mentioned.\n',
    '/w/src/a.ts': '',
    '/w/docs/x.md': '',
  };

  it('sorts the four rule types: Always loads, Auto Attached waits for a matching file, Agent Requested is listed, Manual is excluded', () => {
    const c = chainOf(tree(rules), 'cursor', '/w/src/a.ts', { launchDir: '/w' });
    assert.deepEqual(statuses(c), [
      'loaded /w/.cursor/rules/always.mdc',
      'listed /w/.cursor/rules/db.mdc',
      'excluded /w/.cursor/rules/manual.mdc',
      'on-read /w/.cursor/rules/ts.mdc',
    ]);
    const by = (p: string) => c.sources.find((s) => s.path.endsWith(p))!;
    assert.equal(by('manual.mdc').reason, 'Manual rule (no alwaysApply, globs or description): used only when @-mentioned in chat.');
    assert.equal(by('ts.mdc').loads, 'on-read');
    assert.deepEqual(by('ts.mdc').globs, ['src/**/*.ts', '**/*.tsx']);
    // Bodies without frontmatter; an Agent Requested rule offers only its description.
    assert.deepEqual(c.start, [
      { where: 'system', text: '- Use tabs.' },
      { where: 'system', text: 'Database migrations' },
    ]);
    assert.deepEqual(c.onRead, [{ where: 'system', text: 'TypeScript rules.' }]);
    assert.deepEqual(c.budget, { unit: 'chars', limit: null, perFile: null, used: '- Use tabs.'.length + 'Database migrations'.length, onRead: 'TypeScript rules.'.length });
    assert.deepEqual(c.diagnostics, []);
  });

  it('an Auto Attached rule whose globs miss the file is not-matched', () => {
    const c = chainOf(tree(rules), 'cursor', '/w/docs/x.md', { launchDir: '/w' });
    const ts = c.sources.find((s) => s.path.endsWith('ts.mdc'))!;
    assert.equal(ts.status, 'not-matched');
    assert.match(ts.reason, /do not match this file/);
    assert.deepEqual(c.onRead, []);
  });

  it('globs as a YAML list, and comma-separated in a quoted string', () => {
    const t = tree({
      '/w/.cursor/rules/list.mdc': '---\nglobs: ["docs/**", "*.txt"]\n---\nList.',
      '/w/.cursor/rules/quoted.mdc': '---\nglobs: "lib/**, docs/*.md"\n---\nQuoted.',
      '/w/docs/x.md': '',
    });
    const c = chainOf(t, 'cursor', '/w/docs/x.md', { launchDir: '/w' });
    assert.deepEqual(statuses(c), ['on-read /w/.cursor/rules/list.mdc', 'on-read /w/.cursor/rules/quoted.mdc']);
    assert.deepEqual(c.sources[1].globs, ['lib/**', 'docs/*.md']);
  });

  it('globs plus a description: when the globs miss, the description is still offered (listed)', () => {
    const t = tree({ '/w/.cursor/rules/r.mdc': '---\ndescription: API rules\nglobs: api/**\n---\nAPI body.', '/w/docs/x.md': '' });
    const c = chainOf(t, 'cursor', '/w/docs/x.md', { launchDir: '/w' });
    assert.deepEqual(statuses(c), ['listed /w/.cursor/rules/r.mdc']);
    assert.deepEqual(c.start, [{ where: 'system', text: 'API rules' }]);
  });

  it('alwaysApply counts only as the boolean true: the string "true" is false, with a warning', () => {
    const text = '---\ndescription: Quoted\nalwaysApply: "true"\n---\nBody.';
    const c = chainOf(tree({ '/w/.cursor/rules/q.mdc': text }), 'cursor', '/w', { launchDir: '/w' });
    assert.deepEqual(statuses(c), ['listed /w/.cursor/rules/q.mdc']);
    const d = c.diagnostics.find((x) => x.code === 'frontmatter-invalid')!;
    assert.equal(d.severity, 'warning');
    assert.match(d.message, /the string "true", which Cursor reads as false/);
    assert.deepEqual([d.line, d.column], [2, 0]);
  });

  it('malformed frontmatter: Cursor skips the rule silently, we say so with a warning on the bad line', () => {
    const t = tree({
      '/w/.cursor/rules/bad.mdc': '---\ndescription: a: b\nalwaysApply: true\n---\nNever seen.',
      '/w/.cursor/rules/open.mdc': '---\nalwaysApply: true\nNo closing line.',
    });
    const c = chainOf(t, 'cursor', '/w', { launchDir: '/w' });
    assert.deepEqual(statuses(c), ['excluded /w/.cursor/rules/bad.mdc', 'excluded /w/.cursor/rules/open.mdc']);
    assert.match(c.sources[0].reason, /frontmatter is malformed .*skips the rule silently/);
    assert.match(c.sources[1].reason, /never closed/);
    const bad = c.diagnostics.filter((d) => d.code === 'frontmatter-invalid');
    assert.equal(bad.length, 2);
    assert.equal(bad[0].path, '/w/.cursor/rules/bad.mdc');
    assert.equal(bad[0].line, 1);
    assert.deepEqual(c.start, []);
  });

  it('reads rules in sub-folders of .cursor/rules; a plain .md rule is ignored (current docs) with a warning', () => {
    const t = tree({
      '/w/.cursor/rules/frontend/components.mdc': '---\nalwaysApply: true\n---\nComponents.',
      '/w/.cursor/rules/notes.md': 'Plain markdown.',
      '/w/.cursor/rules/readme.txt': 'not a rule',
    });
    const c = chainOf(t, 'cursor', '/w', { launchDir: '/w' });
    assert.deepEqual(statuses(c), ['loaded /w/.cursor/rules/frontend/components.mdc', 'excluded /w/.cursor/rules/notes.md']);
    assert.ok(c.diagnostics.some((d) => d.code === 'rule-invalid' && d.path === '/w/.cursor/rules/notes.md'));
  });

  it('nested .cursor/rules attach only for files in their folder', () => {
    const t = tree({
      '/w/backend/.cursor/rules/server.mdc': '---\nalwaysApply: true\n---\nServer rules.',
      '/w/backend/.cursor/rules/sql.mdc': '---\nglobs: "**/*.sql"\n---\nSQL rules.',
      '/w/backend/api/x.ts': '',
      '/w/frontend/y.ts': '',
    });
    const inside = chainOf(t, 'cursor', '/w/backend/api/x.ts', { launchDir: '/w' });
    assert.deepEqual(statuses(inside), ['on-read /w/backend/.cursor/rules/server.mdc', 'not-matched /w/backend/.cursor/rules/sql.mdc']);
    assert.equal(inside.sources[0].scope, '/w/backend');
    assert.deepEqual(inside.start, []);
    assert.deepEqual(inside.onRead, [{ where: 'system', text: 'Server rules.' }]);
    assert.deepEqual(chainOf(t, 'cursor', '/w/frontend/y.ts', { launchDir: '/w' }).sources, []);
  });

  it('AGENTS.md: the root one always, nested ones on the way to the file when working there', () => {
    const t = tree({
      '/w/AGENTS.md': '# Global\n',
      '/w/frontend/AGENTS.md': 'Frontend.\n',
      '/w/frontend/components/AGENTS.md': 'Components.\n',
      '/w/backend/AGENTS.md': 'Backend.\n',
      '/w/frontend/components/b.tsx': '',
    });
    const c = chainOf(t, 'cursor', '/w/frontend/components/b.tsx', { launchDir: '/w' });
    assert.deepEqual(statuses(c), ['loaded /w/AGENTS.md', 'on-read /w/frontend/AGENTS.md', 'on-read /w/frontend/components/AGENTS.md']);
    assert.deepEqual(c.start, [{ where: 'system', text: '# Global' }]);
    assert.deepEqual(c.onRead.map((p) => p.text), ['Frontend.', 'Components.']);
  });

  it('legacy .cursorrules still loads, with an info that it is deprecated', () => {
    const c = chainOf(tree({ '/w/.cursorrules': 'Old rules.' }), 'cursor', '/w', { launchDir: '/w' });
    assert.deepEqual(statuses(c), ['loaded /w/.cursorrules']);
    assert.deepEqual(c.start, [{ where: 'system', text: 'Old rules.' }]);
    assert.deepEqual(c.diagnostics.map((d) => [d.code, d.severity]), [['deprecated', 'info']]);
  });

  it('root CLAUDE.md: the CLI reads it (surface: cli); the IDE docs do not name it', () => {
    const t = tree({ '/w/CLAUDE.md': 'Claude rules.' });
    const ide = chainOf(t, 'cursor', '/w', { launchDir: '/w' });
    assert.deepEqual(statuses(ide), ['excluded /w/CLAUDE.md']);
    assert.deepEqual(ide.start, []);
    const cli = chainOf(t, 'cursor', '/w', { launchDir: '/w', settings: { surface: 'cli' } });
    assert.deepEqual(statuses(cli), ['loaded /w/CLAUDE.md']);
    assert.deepEqual(cli.start, [{ where: 'system', text: 'Claude rules.' }]);
  });

  it('an unreadable rule is reported, never thrown', () => {
    const t = tree({ '/w/.cursor/rules/x.mdc': new Uint8Array([0x2d, 0xff, 0xfe]) });
    const c = chainOf(t, 'cursor', '/w', { launchDir: '/w' });
    assert.deepEqual(statuses(c), ['unreadable /w/.cursor/rules/x.mdc']);
    assert.deepEqual(c.diagnostics.map((d) => d.code), ['not-utf8']);
  });

  it('an invalid glob is reported', () => {
    const c = chainOf(tree({ '/w/.cursor/rules/g.mdc': '---\nglobs: "src/{a,b"\n---\nx' }), 'cursor', '/w', { launchDir: '/w' });
    assert.ok(c.diagnostics.some((d) => d.code === 'glob-invalid'));
  });
});
