// Names that the extension's light entry (src/extension.ts) registers before the rest is loaded
// and that the rest uses too: constants only, so both bundles may hold them (scripts/build.mjs).

/** The chain view. */
export const VIEW_ID = 'instructionLens.chain';
/** The prompt preview's documents (src/vscode/preview.ts). */
export const PREVIEW_SCHEME = 'instruction-lens';
/** The verification's documents, what the installed agent sent (src/vscode/verification.ts). */
export const VERIFY_SCHEME = 'instruction-lens-verify';
/** What the chain view says until the first chain is shown. */
export const WORKING_MESSAGE = 'Reading the instruction files…';
