import * as vscode from 'vscode';

/** A `when`-clause context key the extension sets (as references-view does). */
export class ContextKey<V> {
  /** The value set last: setting it again is no call (each is a message to the workbench, and the chain's key is set at every editor switch). */
  private last: { value: V | undefined } | undefined;

  constructor(readonly name: string) {}

  async set(value: V): Promise<void> {
    if (this.last && this.last.value === value) return;
    this.last = { value };
    await vscode.commands.executeCommand('setContext', this.name, value);
  }

  async reset(): Promise<void> {
    this.last = { value: undefined };
    await vscode.commands.executeCommand('setContext', this.name, undefined);
  }
}
