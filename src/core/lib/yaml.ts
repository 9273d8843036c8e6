// What the core uses of the YAML parser: its own bundle in the extension (scripts/build.mjs),
// loaded on first use (src/core/lazy.ts), and only these parts of the library in it.
export { isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
