// The test entry VS Code loads (extensionTestsPath): runs every compiled *.test.js beside it
// with mocha and writes the report to the file named by INSTRUCTION_LENS_TEST_REPORT, which the
// runner streams (in the VS Code server's extension host, console output does not reach it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const reportFile = process.env.INSTRUCTION_LENS_TEST_REPORT;
  const write = reportFile
    ? (text: string) => fs.appendFileSync(reportFile, text)
    : (text: string) => process.stdout.write(text);
  // The spec reporter prints through Base.consoleLog; send it to the report instead.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => write(util.format(...args) + '\n');

  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 20_000 });
  // The restricted-mode tests need a window of their own (the runner's --untrusted pass).
  // INSTRUCTION_LENS_TEST_FILES: comma-separated parts of the file names to run (the runner's
  // --untrusted pass sets `untrusted`; a developer may pick a few files).
  const only = process.env.INSTRUCTION_LENS_TEST_FILES?.split(',').filter(Boolean) ?? [];
  for (const file of findTests(__dirname)) {
    const name = path.basename(file);
    const restricted = name.includes('.untrusted.');
    if (only.length ? only.some((part) => name.includes(part)) && restricted === only.includes('untrusted') : !restricted) mocha.addFile(file);
  }

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const { passes = 0, failures: failed = 0, pending = 0 } = runner.stats ?? {};
        write(`\n${passes} passed, ${failed} failed, ${pending} skipped\n`);
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else resolve();
      });
    } catch (err) {
      // A test file that throws while loading ends up here.
      write(`Could not run the tests: ${err instanceof Error ? err.stack : String(err)}\n`);
      write('\n0 passed, 1 failed, 0 skipped\n');
      reject(err);
    }
  });
}

function findTests(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => path.join(dir, name));
}
