// The entry the plain-JS fidelity suite and its scripts load (built to out/agents/harness.cjs by
// scripts/agents/harness.mjs): the same modules `instruction-lens verify` runs.
export { startFakeModel, findReadTool, listTools, sampleFromSchema } from './fakeModel';
export { runAgent, commandLine, baseEnv, isRunnable, RUNNABLE_AGENTS } from './runAgent';
export { compare, segmentsOf, pickRequest, protocolOf, probeLines, explainMismatch, WHERE } from './compare';
export { materialize, gitInit } from './materialize';
export { verify } from './verify';
export { compareVersions } from '../core/detect';
// The core, for renders a test builds itself (e.g. through a file system that hides a file).
export { resolveChain } from '../core/chain';
export { NodeFileSystem } from '../core/fs';
export { CliGitIndex } from '../core/git';
export { findProfile } from '../core/profiles';
