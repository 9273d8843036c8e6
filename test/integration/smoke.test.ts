import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { screenshot } from './screenshot';

describe('smoke', () => {
  it('loads and activates the extension', async () => {
    const extension = vscode.extensions.getExtension('instruction-lens.instruction-lens');
    assert.ok(extension, 'extension instruction-lens.instruction-lens is not installed');
    await extension.activate();
    assert.equal(extension.isActive, true);
    await screenshot('smoke');
  });
});
