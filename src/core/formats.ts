// The libraries for the agents' configuration formats, for the code outside the core that reads
// or writes them (src/verify/config.ts): through here, the extension's bundles hold one copy of
// each, in the core's bundle (scripts/extensionBundles.mjs).
export { parse as parseJsonc, type ParseError } from 'jsonc-parser/lib/esm/main.js';
export { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
