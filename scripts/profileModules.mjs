// The esbuild plugin behind `import modules from 'virtual:profile-modules'` (src/core/profiles.ts):
// every module in src/core/profiles/, in file-name order, so that an agent's profile is registered
// by its file alone. Every esbuild bundle of src/ uses it; src/core/profileModules.d.ts types it.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../src/core/profiles/', import.meta.url));
const id = 'virtual:profile-modules';

export const profileModules = {
  name: 'profile-modules',
  setup(build) {
    build.onResolve({ filter: /^virtual:profile-modules$/ }, () => ({ path: id, namespace: 'profile-modules' }));
    build.onLoad({ filter: /.*/, namespace: 'profile-modules' }, () => {
      const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort();
      const imports = files.map((f, i) => `import * as m${i} from './${f}';`);
      return {
        contents: `${imports.join('\n')}\nexport default [${files.map((_, i) => `m${i}`).join(', ')}];\n`,
        resolveDir: dir,
        loader: 'js',
        watchDirs: [dir],
      };
    });
  },
};
