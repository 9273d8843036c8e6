// The command-line tool as a team gets it: the package `npm pack` makes, installed on its own,
// and the README's "In CI" snippets (the install commands, the GitHub Actions job, the pre-commit
// hook) run as written. The SARIF the job uploads is validated with Microsoft's SARIF Multitool,
// GitHub's own rules included.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { installSystemPackages } from '../../scripts/testHost.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const tarballName = `${pkg.name}-${pkg.version}.tgz`;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'instruction-lens-package-'));
const prefix = path.join(tmp, 'prefix');

/** The fenced blocks of the README's "In CI" section, in order. */
function ciBlocks() {
  const start = readme.indexOf('\n### In CI\n');
  assert.ok(start >= 0, 'the README has an "In CI" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));
}

/** An environment with the global prefix in a temporary folder, free of the outer npm run's settings. */
function env(extra = {}) {
  const e = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return { ...e, NPM_CONFIG_PREFIX: prefix, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${e.PATH}`, ...extra };
}

function sh(script, cwd, extra) {
  return spawnSync('bash', ['-e', '-c', script], { cwd, env: env(extra), encoding: 'utf8', timeout: 120_000 });
}

/** A committed repository whose CLAUDE.md imports a file that does not exist. */
function brokenRepo(name) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'CLAUDE.md'), '# Project\n\nFollow @docs/style.md when you write code.\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'start');
  return dir;
}

function git(cwd, ...args) {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, env: env(), encoding: 'utf8' });
}

/** pre-commit from Debian's packages the first time, as the integration suite does Chromium. */
function ensurePreCommit() {
  if (spawnSync('pre-commit', ['--version']).status !== 0) installSystemPackages(['pre-commit']);
}

before(() => {
  ensurePreCommit();
  // The README's install commands, as written, from the repository root.
  const install = ciBlocks().find((b) => b.lang === 'sh');
  assert.ok(install, 'the "In CI" section shows how to install the tool');
  assert.ok(install.text.includes(tarballName), `the README names the package this version makes (${tarballName})`);
  const r = sh(install.text, repoRoot);
  assert.equal(r.status, 0, `the README's install commands fail:\n${r.stdout}\n${r.stderr}`);
  fs.renameSync(path.join(repoRoot, tarballName), path.join(tmp, tarballName));
});

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('the package holds the command-line tool and its docs, nothing else', () => {
  const files = execFileSync('tar', ['-tzf', path.join(tmp, tarballName)], { encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(files, ['package/CHANGELOG.md', 'package/LICENSE', 'package/README.md', 'package/dist/cli.bundle.js', 'package/dist/cli.bundle.js.cache', 'package/dist/cli.bundle.js.check.cache', 'package/dist/cli.js', 'package/dist/marked.js', 'package/dist/marked.js.cache', 'package/dist/yaml.js', 'package/dist/yaml.js.cache', 'package/package.json']);
});

test('installed on its own, the tool runs: its version, and check finds the broken import', () => {
  const bin = path.join(prefix, 'bin', 'instruction-lens');
  assert.equal(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim(), pkg.version);
  const repo = brokenRepo('installed');
  const r = spawnSync(bin, ['check'], { cwd: repo, env: env(), encoding: 'utf8' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /CLAUDE\.md:3:\d+: error import-missing/);
});

test("the README's GitHub Actions job produces SARIF that GitHub's rules accept", () => {
  const workflow = YAML.parse(ciBlocks().find((b) => b.lang === 'yaml' && b.text.includes('upload-sarif')).text);
  const steps = Object.values(workflow.jobs)[0].steps;
  assert.ok(workflow.permissions['security-events'] === 'write', 'the job may upload to code scanning');
  const repo = brokenRepo('actions');
  fs.mkdirSync(path.join(repo, 'tools'));
  fs.copyFileSync(path.join(tmp, tarballName), path.join(repo, 'tools', tarballName));
  // The `run` steps in order, as Actions runs them (bash -e); `uses` steps are GitHub's own.
  for (const step of steps.filter((s) => s.run)) {
    const r = sh(step.run, repo);
    assert.equal(r.status, 0, `step "${step.name}" fails:\n${r.stdout}\n${r.stderr}`);
  }
  const upload = steps.find((s) => String(s.uses).startsWith('github/codeql-action/upload-sarif'));
  const sarifFile = path.join(repo, upload.with.sarif_file);
  const log = JSON.parse(fs.readFileSync(sarifFile, 'utf8'));
  const results = log.runs[0].results;
  assert.deepEqual(
    results.map((r) => [r.ruleId, r.level, r.locations[0].physicalLocation.artifactLocation.uri, r.locations[0].physicalLocation.region.startLine]),
    [['import-missing', 'error', 'CLAUDE.md', 3]],
  );
  // Every rule links to its own README section.
  for (const rule of log.runs[0].tool.driver.rules) {
    assert.equal(rule.helpUri, `https://github.com/instruction-lens/instruction-lens#${rule.id}`);
    assert.ok(readme.includes(`\n### ${rule.id}\n`), `the README explains ${rule.id}`);
  }
  const findings = validate(sarifFile);
  assert.deepEqual(findings, [], `SARIF Multitool:\n${findings.join('\n')}`);
});

test("the README's pre-commit hook stops a commit with a broken import, and lets the fixed one through", () => {
  const config = ciBlocks().find((b) => b.lang === 'yaml' && b.text.includes('repos:')).text;
  const repo = brokenRepo('pre-commit');
  fs.writeFileSync(path.join(repo, '.pre-commit-config.yaml'), config);
  const home = { PRE_COMMIT_HOME: path.join(tmp, 'pre-commit-home') };
  const installed = sh('pre-commit install', repo, home);
  assert.equal(installed.status, 0, `pre-commit is needed (apt-get install pre-commit):\n${installed.stderr}`);
  const commit = () => sh('git add -A && git -c user.name=Test -c user.email=test@example.com commit -q -m change', repo, home);
  const stopped = commit();
  assert.notEqual(stopped.status, 0, 'the commit is stopped');
  assert.match(stopped.stdout + stopped.stderr, /import-missing/);
  fs.mkdirSync(path.join(repo, 'docs'));
  fs.writeFileSync(path.join(repo, 'docs', 'style.md'), 'Two spaces.\n');
  const fixed = commit();
  assert.equal(fixed.status, 0, fixed.stdout + fixed.stderr);
});

/** SARIF Multitool's `validate` with the SARIF and GitHub rule sets: its errors and warnings. */
function validate(file) {
  const tool = require('@microsoft/sarif-multitool-' + process.platform);
  const out = path.join(tmp, 'validation.sarif');
  const r = spawnSync(tool, ['validate', file, '--output', out, '--log', 'ForceOverwrite', '--rule-kind', 'Sarif;Gh', '--level', 'Error;Warning'], {
    encoding: 'utf8',
    env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' },
  });
  assert.equal(r.status, 0, `SARIF Multitool failed:\n${r.stdout}\n${r.stderr}`);
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  return report.runs.flatMap((run) => run.results ?? []).map((x) => `${x.level ?? 'warning'} ${x.ruleId}: ${JSON.stringify(x.message)}`);
}
