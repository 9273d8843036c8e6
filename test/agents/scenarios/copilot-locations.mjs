// Copilot in VS Code: instruction files from a folder named in chat.instructionsFilesLocations
// (the workspace's .vscode/settings.json), with .github/instructions switched off there; one
// applies to the file worked on, one does not, one has no applyTo.
export default {
  name: 'copilot-locations',
  agents: ['copilot'],
  git: true,
  launchDir: '.',
  readFile: 'src/app/main.ts',
  files: {
    '.vscode/settings.json': JSON.stringify({ 'chat.instructionsFilesLocations': { 'docs/ai': true, '.github/instructions': false } }, null, 2),
    'docs/ai/app.instructions.md': '---\napplyTo: "src/app/**"\ndescription: App code & <rules>\n---\nApp instructions from docs/ai for the main module.\n',
    'docs/ai/tests.instructions.md': '---\napplyTo: "**/*.test.ts"\n---\nTest instructions from docs/ai that miss main.ts.\n',
    'docs/ai/manual.instructions.md': '---\ndescription: Read when releasing\n---\nRelease instructions from docs/ai, never attached.\n',
    '.github/instructions/off.instructions.md': '---\napplyTo: "**"\n---\nInstructions from a location switched off in the settings.\n',
    '.github/copilot-instructions.md': 'Repository instructions next to a custom location.\n',
    'src/app/main.ts': 'export const main = 1;\n',
  },
};
