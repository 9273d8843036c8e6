import type * as ChildProcess from 'node:child_process';

let loaded: typeof ChildProcess | undefined;

/**
 * `node:child_process`, loaded the first time a git or version call needs it: loading it (with
 * the network and stream modules it pulls in) costs about a tenth of Node's start-up, which a
 * `chain` that runs no process should not pay.
 */
export function childProcess(): typeof ChildProcess {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('node:child_process') as typeof ChildProcess);
}
