import * as vscode from 'vscode';
import { encode } from '../core/text';

/** The unsaved text of every dirty `file:` document open now, by path (what `OverlayFileSystem` lays over the disk). */
export function unsavedTexts(): Map<string, Uint8Array> {
  const unsaved = new Map<string, Uint8Array>();
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.isDirty && doc.uri.scheme === 'file') unsaved.set(doc.uri.fsPath, encode(doc.getText()));
  }
  return unsaved;
}

/** Which open documents have unsaved text, and which version of it: a new key means new text to lay over the disk. */
export function unsavedKey(): string {
  return vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file').map((d) => `${d.uri.fsPath}\0${d.version}`).join('\0');
}
