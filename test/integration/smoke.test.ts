import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, open, until } from './helpers';
import { screenshot } from './screenshot';

describe('smoke', () => {
  it('loads and activates the extension', async () => {
    const extension = vscode.extensions.getExtension('instruction-lens.instruction-lens');
    assert.ok(extension, 'extension instruction-lens.instruction-lens is not installed');
    await extension.activate();
    assert.equal(extension.isActive, true);
    await screenshot('smoke');
  });

  it('logs what it found and each refresh, with its time, to the "Instruction Lens" output channel', async () => {
    const lens = await api();
    assert.equal(lens.log.name, 'Instruction Lens');
    await open('packages/api/src/routes/orders.ts');
    // The channel's file, where the Output panel reads it from.
    const logged = () => {
      const dir = lens.logUri.fsPath;
      if (!fs.existsSync(dir)) return '';
      return fs.readdirSync(dir).filter((f) => f.endsWith('.log')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    };
    const text = await until(() => /Refreshed orders\.ts for Claude Code in [\d.]+ ms: \d+ sources/.test(logged()) && logged(), 'a refresh in the log');
    assert.match(text, /\[info\] Agents enabled: Claude Code \(claude-code, models /);
    assert.match(text, /\[info\] Workspace folders: /);
  });
});
