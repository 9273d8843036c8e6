import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEFAULTS, RESOURCE_SCOPED, SECTION, type SettingKey } from '../../src/vscode/settings';

interface Property {
  default: unknown;
  scope?: string;
  markdownDescription?: string;
  enum?: string[];
  items?: { enum?: string[] };
}

// The manifest is written by hand but for its lists of profiles and rule codes, which the build
// writes (scripts/manifest.mjs) and the unit tests check (test/unit/metadata.test.ts); these checks
// keep the rest and the extension's code telling the same story.
describe('the manifest', () => {
  const extension = vscode.extensions.getExtension('instruction-lens.instruction-lens')!;
  const pkg = extension.packageJSON as {
    activationEvents: string[];
    contributes: {
      commands: { command: string; title: string; category?: string; icon?: string }[];
      menus: Record<string, { command: string; when?: string }[]>;
      configuration: { properties: Record<string, Property> };
    };
  };
  const properties = pkg.contributes.configuration.properties;

  it('declares every setting the code reads, with the same defaults, and no other', () => {
    const declared = Object.keys(properties).sort();
    assert.deepEqual(declared, Object.keys(DEFAULTS).map((k) => `${SECTION}.${k}`).sort());
    for (const [key, value] of Object.entries(DEFAULTS)) assert.deepEqual(properties[`${SECTION}.${key}`].default, value, `default of ${key}`);
  });

  it('reads each setting for a resource exactly where its scope lets a folder set it apart', () => {
    // VS Code logs a warning for each window-scoped setting read for a resource, and each
    // resource-scoped one read without (src/vscode/settings.ts: RESOURCE_SCOPED).
    for (const key of Object.keys(DEFAULTS) as SettingKey[]) {
      const scope = properties[`${SECTION}.${key}`].scope ?? 'window';
      assert.equal(RESOURCE_SCOPED.has(key), scope === 'resource' || scope === 'machine-overridable' || scope === 'language-overridable', `${key} (scope ${scope})`);
    }
  });

  it('describes every setting, and every cross-link leads to a setting', () => {
    for (const [key, property] of Object.entries(properties)) {
      assert.ok(property.markdownDescription, `${key} has a markdownDescription`);
      for (const [, link] of property.markdownDescription.matchAll(/`#([\w.]+)#`/g)) assert.ok(properties[link], `${key} links to ${link}, which exists`);
    }
  });

  it('registers every contributed command, and contributes every command it registers', async () => {
    const registered = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('instructionLens.') && !c.startsWith('instructionLens.chain.'));
    const contributed = pkg.contributes.commands.map((c) => c.command);
    assert.deepEqual([...registered].sort(), [...contributed].sort());
    for (const c of pkg.contributes.commands) assert.equal(c.category, 'Instruction Lens', `${c.command} has the category`);
    for (const item of pkg.contributes.menus['view/title']) assert.ok(pkg.contributes.commands.find((c) => c.command === item.command)?.icon, `${item.command} has an icon`);
  });
});
