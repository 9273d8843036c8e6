// Entry point for `node --test test/agents/` (Node picks files by their *.test.mjs name only):
// the fidelity suite lives in run.mjs, which also runs on its own (`node test/agents/run.mjs`).
import './run.mjs';
