import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeAgentConfig } from '../../../src/verify/config';
import { buildTree, importRefs, type VerifyTree } from '../../../src/verify/tree';

function write(root: string, files: Record<string, string>) {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

/** Every file in the copy, relative to its root, links included. */
function listing(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listing(p, base));
    else out.push(path.relative(base, p));
  }
  return out;
}

describe('verify: the temporary tree', () => {
  let tmp: string;
  let repo: string;
  let home: string;
  let tree: VerifyTree;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-tree-')));
    repo = path.join(tmp, 'work', 'repo');
    home = path.join(tmp, 'home', 'me');
    write(repo, {
      'CLAUDE.md': '# Root\n\nSee @docs/style.md and @../shared/POLICY.md.\n',
      'AGENTS.md': 'Agents root.',
      'README.md': 'Readme.\n',
      'package.json': '{"name":"x"}\n',
      '.env': 'API_KEY=secret\n',
      '.mcp.json': '{"mcpServers":{"x":{"command":"evil"}}}\n',
      '.claude/settings.json': '{"hooks":{"PreToolUse":[]},"claudeMdExcludes":["/abs/**/CLAUDE.md"],"apiKeyHelper":"x"}\n',
      '.claude/settings.local.json': '{"permissions":{"allow":["Bash"]}}\n',
      '.claude/hooks/pre.sh': '#!/bin/sh\ncurl evil\n',
      '.claude/rules/ts.md': '---\npaths: ["**/*.ts"]\n---\nStrict.\n',
      '.gemini/settings.json': '{"context":{"fileName":["AGENTS.md"]},"mcpServers":{"y":{}}}\n',
      '.github/copilot-instructions.md': 'Copilot.\n',
      '.github/workflows/ci.yml': 'on: push\n',
      '.crush/rules/go.md': 'Crush rules, read by claw-code@head.\n',
      '.unknown/notes.md': 'No agent reads this folder.\n',
      'docs/style.md': 'Style.\n',
      'docs/other.md': 'Not on the way.\n',
      'packages/api/CLAUDE.md': 'API.\n',
      'packages/api/src/x.ts': 'export {};\n',
      'packages/web/CLAUDE.md': 'Web, a sibling.\n',
      'empty.md': '  \n',
    });
    fs.mkdirSync(path.join(repo, '.git'));
    fs.writeFileSync(path.join(repo, '.git', 'config'), '[remote "origin"]\n\turl = https://token@example.com/x.git\n');
    write(path.join(tmp, 'work'), { 'shared/POLICY.md': 'Policy outside.\n', 'notes.md': 'Above the repository.\n', 'script.sh': 'echo\n' });
    write(home, {
      '.claude/CLAUDE.md': 'User rules.\n',
      '.claude/settings.json': '{"env":{"ANTHROPIC_API_KEY":"sk-real"}}\n',
      '.claude/.credentials.json': '{"token":"t"}\n',
      '.claude.json': JSON.stringify({ oauthAccount: { email: 'me@example.com' }, projects: { [repo]: { hasClaudeMdExternalIncludesApproved: true, allowedTools: ['Bash'] } } }),
      '.codex/auth.json': '{"OPENAI_API_KEY":"sk-real"}\n',
      '.codex/config.toml': 'model = "o3"\nproject_doc_max_bytes = 4096\nproject_doc_fallback_filenames = ["CLAUDE.md"]\n\n[mcp_servers.x]\ncommand = "evil"\n',
      '.gemini/settings.json': '{"context":{"fileName":"CONTEXT.md"},"security":{"auth":{"selectedType":"oauth-personal"}}}\n',
      '.gemini/oauth_creds.json': '{}\n',
      '.bashrc': 'export TOKEN=x\n',
    });
    const target = path.join(repo, 'packages/api/src/x.ts');
    tree = buildTree({ target, launchDir: repo, home, known: [path.join(home, '.claude/CLAUDE.md')], readFile: target });
    writeAgentConfig(tree, repo);
  });
  after(() => {
    tree.remove();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('mirrors the layout: every file of each folder down to the target, the dot-folders, what imports reach', () => {
    const files = listing(tree.fsRoot).map((f) => '/' + f);
    const rel = (p: string) => path.join(repo, p);
    for (const p of ['CLAUDE.md', 'AGENTS.md', 'README.md', 'package.json', '.claude/rules/ts.md', '.github/copilot-instructions.md', '.crush/rules/go.md', 'docs/style.md', 'packages/api/CLAUDE.md', 'packages/api/src/x.ts']) {
      assert.ok(files.includes(rel(p)), `${p} is copied`);
    }
    assert.ok(files.includes(path.join(tmp, 'work', 'shared/POLICY.md')), 'an import outside the repository is copied');
    assert.ok(files.includes(path.join(tmp, 'work', 'notes.md')), 'Markdown above the repository is copied');
    assert.ok(!files.includes(path.join(tmp, 'work', 'script.sh')), 'only Markdown above the repository');
    assert.ok(!files.includes(rel('docs/other.md')), 'a folder off the way is not copied whole');
    assert.ok(!files.includes(rel('.unknown/notes.md')), 'a dot-folder no profile names is not copied');
    assert.ok(!files.includes(rel('packages/web/CLAUDE.md')), 'a sibling package is not copied');
    assert.ok(files.includes(path.join(home, '.claude/CLAUDE.md')), 'user instruction files go to the temporary home');
    assert.ok(fs.existsSync(path.join(tree.toTemp(repo), '.git', 'HEAD')), 'a repository where the real one is');
    assert.equal(tree.toReal(tree.toTemp(rel('CLAUDE.md'))), rel('CLAUDE.md'));
  });

  it('never copies settings, hooks, MCP servers, credentials or the real .git; writes only the keys the profiles read', () => {
    const files = listing(tree.tmpRoot).map((f) => path.join(tree.tmpRoot, f)).map((f) => tree.toReal(f));
    const denied = files.filter((f) => /\.env$|\.mcp\.json$|hooks|workflows|credentials|auth\.json|oauth_creds|\.bashrc|settings\.local\.json/.test(f));
    assert.deepEqual(denied, []);
    assert.ok(!fs.readFileSync(path.join(tree.toTemp(repo), '.git', 'config'), 'utf8').includes('token'), 'the real .git/config is not copied');
    for (const f of files) assert.ok(!fs.readFileSync(tree.toTemp(f), 'utf8').match(/sk-real|oauth-personal|evil|me@example\.com|allowedTools|apiKeyHelper/), `${f} holds nothing of the user's settings beyond the profile keys`);
    // What was written instead: only the keys the profiles read.
    const claudeJson = JSON.parse(fs.readFileSync(path.join(tree.home, '.claude.json'), 'utf8'));
    assert.deepEqual(claudeJson, { projects: { [tree.toTemp(repo)]: { hasClaudeMdExternalIncludesApproved: true } } });
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(tree.home, '.claude/settings.json'), 'utf8')), { claudeMdExcludes: [path.join(tree.fsRoot, '/abs/**/CLAUDE.md')] });
    assert.equal(fs.readFileSync(path.join(tree.home, '.codex/config.toml'), 'utf8'), 'project_doc_max_bytes = 4096\nproject_doc_fallback_filenames = [ "CLAUDE.md" ]\n');
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(tree.home, '.gemini/settings.json'), 'utf8')), { context: { fileName: 'CONTEXT.md' } });
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(tree.toTemp(repo), '.gemini/settings.json'), 'utf8')), { context: { fileName: ['AGENTS.md'] } });
    assert.ok(tree.skipped.some((s) => s.path === path.join(repo, '.claude/hooks') && /hooks run code/.test(s.reason)));
  });

  it('appends one marker line to each instruction text, not to the file read, empty files or code', () => {
    const marked = tree.files.filter((f) => f.marker).map((f) => path.relative(repo, f.real));
    assert.ok(marked.includes('CLAUDE.md') && marked.includes('AGENTS.md') && marked.includes('packages/api/CLAUDE.md'));
    assert.ok(!marked.includes('packages/api/src/x.ts') && !marked.includes('empty.md') && !marked.includes('package.json'));
    const f = tree.files.find((x) => x.real === path.join(repo, 'AGENTS.md'))!;
    assert.equal(fs.readFileSync(f.temp, 'utf8'), `Agents root.\n${f.marker}\n`);
    assert.equal(fs.readFileSync(tree.toTemp(path.join(repo, 'packages/api/src/x.ts')), 'utf8'), 'export {};\n');
    const markers = tree.files.map((x) => x.marker).filter((m): m is string => !!m);
    assert.equal(new Set(markers).size, marked.length, 'markers are unique');
    // The first marker after a difference names the file: none may be found inside another.
    assert.ok(markers.length >= 10, `${markers.length} markers: too few to hold a two-digit one`);
    for (const m of markers) assert.deepEqual(markers.filter((o) => o.includes(m)), [m], `${m} is inside another marker`);
  });

  it('finds @imports in any agent syntax', () => {
    assert.deepEqual(importRefs('See @docs/a.md, (@b.md) and `@c.md`\n@~/x.md\n@AGENTS.md\nnpm i @scope/pkg\nmail me@example.com'), ['docs/a.md', 'b.md', 'c.md', '~/x.md', 'AGENTS.md', 'scope/pkg']);
  });
});
