// Lint: typescript-eslint's recommended rules, and the one architectural rule that matters:
// the core never imports `vscode`, so the CLI and the unit tests run it under plain Node.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', 'test/host/**', 'test/fixtures/**', 'demo/**', '**/*.mjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // A function longer than a screen hides its steps: name them as functions of their own. A
    // function that must stay longer says why in an eslint-disable comment of its own.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, IIFEs: true }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/cli.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core and the CLI never import vscode: reach the editor through src/vscode/.' }], patterns: [{ group: ['**/vscode/**', '../vscode/*'], message: 'src/core never imports the VS Code adapter.' }] }],
    },
  },
);
