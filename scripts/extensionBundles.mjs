// The extension as several CommonJS bundles in dist/, loaded one after another (src/extension.ts
// says why): VS Code loads the first, dist/extension.js, to activate; the others load after
// activation returns, or on first need. Every source module and library is in exactly one of
// them (the build fails otherwise): an import of a module that another bundle holds becomes a
// `require` of that bundle, whose entry exports every module the others import from it.
// (esbuild's own code splitting is for ES modules only; VS Code loads an extension as CommonJS.)
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bundles, each with the modules it holds (paths from the repository root). A module not
 * named by any (a library) goes in each bundle that imports it — the check below makes sure
 * that is one. Ordered so that a bundle comes before every bundle it imports from: each
 * bundle's entry is known once those before it are built.
 */
export const EXTENSION_BUNDLES = [
  // Activation: the commands, views and providers the user sees, forwarding to the rest.
  { name: 'extension', entry: 'src/extension.ts', holds: (p) => p === 'src/extension.ts' || p === 'src/vscode/surface.ts' || p === 'src/vscode/log.ts' },
  // The rest of the extension's own parts: the model, the views' contents, diagnostics, the watcher.
  { name: 'lens', holds: (p) => p.startsWith('src/vscode/') },
  // Verifying with an installed agent: loaded when the user first does.
  { name: 'verify', holds: (p) => p.startsWith('src/verify/') },
  // The diagnostics' worker thread (src/vscode/checkWorker.ts starts it): the core, through its bundle.
  { name: 'checkWorker', entry: 'src/checkWorker.ts', holds: (p) => p === 'src/checkWorker.ts' },
  // The agents' rules and their libraries.
  { name: 'core', holds: (p) => p.startsWith('src/core/') && !p.startsWith('src/core/lib/') },
  // The parsers, loaded on first use (src/core/lazy.ts). YAML from the library's ES module build
  // (its "default" export, not its "node" one: the same code) so that what the core does not
  // use is left out.
  { name: 'yaml', holds: (p) => p === 'src/core/lib/yaml.ts', platform: 'neutral' },
  { name: 'marked', holds: (p) => p === 'src/core/lib/marked.ts' },
];

/** Modules in more than one bundle on purpose: constants only, no state. */
const SHARED = new Set(['src/vscode/ids.ts']);

/** The files the .vsix ships for the extension (.vscodeignore lists the same). */
export const extensionFiles = () => EXTENSION_BUNDLES.map((b) => `dist/${b.name}.js`);

function ownerOf(rel) {
  if (SHARED.has(rel)) return undefined;
  return EXTENSION_BUNDLES.find((b) => b.holds(rel))?.name;
}

/**
 * Builds every bundle with `options` (esbuild's, shared with the rest of the build). Fails when
 * a module or library ends up in two bundles.
 */
export async function buildExtension(options) {
  /** For each bundle, the modules other bundles import from it. */
  const wanted = new Map(EXTENSION_BUNDLES.map((b) => [b.name, new Set()]));
  const inputs = new Map();
  const built = new Set();
  for (const bundle of EXTENSION_BUNDLES) {
    const modules = [...wanted.get(bundle.name)];
    if (!bundle.entry && !modules.length) throw new Error(`no bundle imports from dist/${bundle.name}.js: take it out of EXTENSION_BUNDLES`);
    const result = await build({
      ...options,
      ...(bundle.platform ? { platform: bundle.platform } : {}),
      ...(bundle.entry
        ? { entryPoints: [bundle.entry] }
        : { stdin: { contents: `module.exports = {\n${modules.map((m) => `  ${JSON.stringify(m)}: require(${JSON.stringify(`./${m}`)}),`).join('\n')}\n};\n`, resolveDir: repo, sourcefile: `${bundle.name}-entry.js`, loader: 'js' } }),
      outfile: `dist/${bundle.name}.js`,
      external: ['vscode'],
      metafile: true,
      plugins: [...(options.plugins ?? []), linkBundles(bundle.name, wanted, built)],
    });
    built.add(bundle.name);
    inputs.set(bundle.name, Object.keys(result.metafile.inputs).filter((i) => !i.startsWith('bundle-link:') && !i.endsWith('-entry.js')));
  }
  const seen = new Map();
  for (const [name, files] of inputs) {
    for (const file of files) {
      const rel = path.relative(repo, path.resolve(repo, file)).split(path.sep).join('/');
      if (SHARED.has(rel)) continue;
      if (seen.has(rel)) throw new Error(`${rel} is in both dist/${seen.get(rel)}.js and dist/${name}.js: import it from one bundle only (scripts/extensionBundles.mjs)`);
      seen.set(rel, name);
    }
  }
}

/** An import of a module another bundle holds: `require('./<that bundle>.js')[<the module>]`. */
function linkBundles(self, wanted, built) {
  return {
    name: 'link-bundles',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace === 'bundle-link') return { path: args.path, external: true };
        if (args.pluginData?.linking || args.kind === 'entry-point') return undefined;
        const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { linking: true } });
        if (resolved.errors.length || resolved.external) return resolved;
        const rel = path.relative(repo, resolved.path).split(path.sep).join('/');
        const owner = ownerOf(rel);
        if (!owner || owner === self) return resolved;
        if (built.has(owner)) throw new Error(`${rel} is imported from dist/${owner}.js, which is built before dist/${self}.js: order EXTENSION_BUNDLES so that a bundle comes before those it imports from`);
        wanted.get(owner).add(rel);
        return { path: `${owner}:${rel}`, namespace: 'bundle-link' };
      });
      b.onLoad({ filter: /.*/, namespace: 'bundle-link' }, (args) => {
        const [owner, rel] = args.path.split(/:(.*)/s);
        return { contents: `module.exports = require(${JSON.stringify(`./${owner}.js`)})[${JSON.stringify(rel)}];\n`, loader: 'js', resolveDir: repo };
      });
    },
  };
}
