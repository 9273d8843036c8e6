import type * as Marked from './lib/marked';
import type * as Yaml from './lib/yaml';

/**
 * The markdown and YAML parsers, loaded on first use rather than with the bundle: building
 * marked's rules and yaml's schemas is most of what evaluating the bundle costs, and the
 * extension's activation and a `chain` whose files have no frontmatter need neither. The
 * bundler keeps a `require` inside a function as a module it evaluates on that first call; the
 * extension's build makes each a bundle of its own, read from disk on that call.
 */
let marked: typeof Marked | undefined;
let yaml: typeof Yaml | undefined;

export function markedLib(): typeof Marked {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (marked ??= require('./lib/marked') as typeof Marked);
}

export function yamlLib(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (yaml ??= require('./lib/yaml') as typeof Yaml);
}
