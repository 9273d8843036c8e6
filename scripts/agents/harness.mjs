// The fidelity machinery (fake model, agent runner, comparator, fixture materializer) lives in
// src/verify/, shared with `instruction-lens verify`. This builds it for the plain-JS suite and
// scripts (esbuild, ~0.1 s, so an edit there always takes effect) and re-exports it.
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { profileModules } from '../profileModules.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const outfile = path.join(root, 'out', 'agents', 'harness.cjs');
const result = await build({
  entryPoints: [path.join(root, 'src', 'verify', 'harness.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  write: false,
  logLevel: 'warning',
  plugins: [profileModules],
});
// Several suites may build at once: write beside, then rename (atomic).
mkdirSync(path.dirname(outfile), { recursive: true });
const tmp = `${outfile}.${process.pid}.tmp`;
writeFileSync(tmp, result.outputFiles[0].contents);
renameSync(tmp, outfile);

const h = createRequire(import.meta.url)(outfile);
export const {
  startFakeModel, findReadTool, listTools, sampleFromSchema,
  runAgent, commandLine, baseEnv, isRunnable, RUNNABLE_AGENTS,
  compare, segmentsOf, pickRequest, protocolOf, probeLines, explainMismatch, WHERE,
  materialize, gitInit,
  verify, compareVersions,
  resolveChain, NodeFileSystem, CliGitIndex, findProfile,
} = h;
