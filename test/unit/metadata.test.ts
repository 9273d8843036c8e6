import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { RULES } from '../../src/core/diagnostics';
import { PROFILES } from '../../src/core/profiles';

const root = path.resolve(__dirname, '../../..');
const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');

// The documents users read must agree with the code they describe.
describe('project metadata', () => {
  const readme = read('README.md');
  const pkg = JSON.parse(read('package.json'));

  it('the README explains every diagnostic code under a heading of its own (the extension links there)', () => {
    for (const code of Object.keys(RULES)) assert.match(readme, new RegExp(`^### ${code}$`, 'm'), `README has no section for ${code}`);
  });

  it('the README profile table has a row for every profile, with the version it models', () => {
    for (const p of PROFILES) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${p.id}\` |`));
      assert.ok(row, `README has no row for ${p.id}`);
      assert.ok(row.includes(p.agentVersion), `README row for ${p.id} does not name ${p.agentVersion}`);
      assert.ok(row.includes(p.verified), `README row for ${p.id} does not say it is verified by ${p.verified}`);
    }
  });

  it('the README documents every setting', () => {
    const configuration = [pkg.contributes.configuration].flat();
    for (const c of configuration) for (const key of Object.keys(c.properties)) assert.match(readme, new RegExp(`^#### \`${key.replace(/\./g, '\\.')}\`$`, 'm'), `README has no section for ${key}`);
  });

  it('package.json, the CHANGELOG and the CLI agree on the version', () => {
    assert.match(read('CHANGELOG.md'), new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\]`, 'm'));
  });

  it('the README names the test command', () => {
    assert.match(readme, /^npm test\b/m);
  });
});
