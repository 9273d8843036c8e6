import * as vscode from 'vscode';

/** A `when`-clause context key the extension sets (as references-view does). */
export class ContextKey<V> {
  constructor(readonly name: string) {}

  async set(value: V): Promise<void> {
    await vscode.commands.executeCommand('setContext', this.name, value);
  }

  async reset(): Promise<void> {
    await vscode.commands.executeCommand('setContext', this.name, undefined);
  }
}
