import micromatch from 'micromatch';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { RULES } from '../../src/core/diagnostics';
import { fixedNames } from '../../src/core/patterns';
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
    const cli = spawnSync(process.execPath, [path.join(root, 'dist/cli.js'), '--version'], { encoding: 'utf8' });
    assert.equal(cli.stdout.trim(), pkg.version);
  });

  it('the README names the test command', () => {
    assert.match(readme, /^npm test\b/m);
  });
});

// package.json lists the agents (VS Code reads it before any code runs; the build writes the ids,
// scripts/manifest.mjs); these checks make a profile missing from it fail here, in
// `npm run test:unit`, not in a VS Code window.
describe('the manifest and the profile list', () => {
  const pkg = JSON.parse(read('package.json'));
  type Schema = { type?: string; default: unknown; enum?: string[]; items?: { enum?: string[] }; anyOf?: Schema[]; propertyNames?: { enum?: string[] } };
  const properties = pkg.contributes.configuration.properties as Record<string, Schema>;
  const ids = PROFILES.map((p) => p.id);

  it('every profile id, in registry order, is in the agents enum and default and the defaultAgent enum', () => {
    // "auto" (the agents the workspace uses), or a list that pins them.
    const list = properties['instructionLens.agents'].anyOf?.find((a) => a.type === 'array');
    assert.deepEqual(list?.items?.enum, ids, 'add the profile id to instructionLens.agents anyOf[array].items.enum in package.json');
    assert.equal(properties['instructionLens.agents'].default, 'auto');
    assert.deepEqual(properties['instructionLens.defaultAgent'].enum, ids, 'add the profile id to instructionLens.defaultAgent enum in package.json');
    assert.equal(properties['instructionLens.defaultAgent'].default, ids[0], 'the first profile is the default agent');
  });

  it('every profile has an id and a place in the lists of its own', () => {
    assert.equal(new Set(ids).size, ids.length, `two profiles share an id: ${ids.join(', ')}`);
    const orders = PROFILES.map((p) => p.order);
    assert.equal(new Set(orders).size, orders.length, `two profiles share an order: ${PROFILES.map((p) => `${p.id} ${p.order}`).join(', ')}`);
  });

  it('agentPaths takes the id of every agent verify can run, and no other', () => {
    assert.deepEqual(properties['instructionLens.agentPaths'].propertyNames?.enum, PROFILES.filter((p) => p.localRun).map((p) => p.id));
  });

  it('every rule code can be turned off', () => {
    assert.deepEqual(properties['instructionLens.diagnostics.disabledCodes'].items?.enum, Object.keys(RULES));
  });

  it("every profile's settings are declared, with the profile's defaults", () => {
    for (const p of PROFILES) {
      for (const [name, setting] of Object.entries(p.settings ?? {})) {
        const key = `instructionLens.${p.settingsSection ?? p.id}.${name}`;
        assert.ok(properties[key], `package.json declares ${key}`);
        assert.deepEqual(properties[key].default, setting.default, `default of ${key}`);
      }
    }
  });

  it("the extension activates where any profile's main file is, and when its view opens", () => {
    const globs = (pkg.activationEvents as string[]).filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));
    for (const p of PROFILES) {
      const name = p.mainFile ?? fixedNames(p)[0];
      assert.ok(globs.some((g) => micromatch.isMatch(`x/${name}`, g, { dot: true })), `add "workspaceContains:**/${name}" to activationEvents for ${p.id}`);
    }
    assert.ok(pkg.activationEvents.includes('onView:instructionLens.chain'));
  });
});
