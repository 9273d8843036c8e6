// The parts of package.json that list the agent profiles or the rule codes follow the code
// (src/core/profiles.ts, src/core/diagnostics.ts), so that adding a profile or a diagnostic never
// means editing them by hand: the ids in `instructionLens.agents` and
// `instructionLens.defaultAgent` (registry order; the first is the default), the ids of the
// agents `verify` can run as the keys of `instructionLens.agentPaths`, an activation event for
// each profile's main file that no event covers yet, and the codes of
// `instructionLens.diagnostics.disabledCodes` (in `RULES` order).
// Run by build.mjs; test/unit/metadata.test.ts checks the result on its own, and CI that the
// committed package.json needed no change.
import micromatch from 'micromatch';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const manifest = new URL('../package.json', import.meta.url);

/** `profilesModule`: a CommonJS bundle exporting PROFILES, fixedNames and RULES (built by build.mjs). */
export function syncManifest(profilesModule) {
  const { PROFILES, fixedNames, RULES } = createRequire(import.meta.url)(path.resolve(profilesModule));
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  const changes = [];
  const ids = PROFILES.map((p) => p.id);
  const props = pkg.contributes.configuration.properties;
  const list = props['instructionLens.agents'].anyOf.find((a) => a.type === 'array').items;
  const setList = (holder, key, values, what) => {
    if (JSON.stringify(holder[key]) === JSON.stringify(values)) return;
    holder[key] = values;
    changes.push(what);
  };
  setList(list, 'enum', ids, 'the ids of instructionLens.agents');
  setList(props['instructionLens.defaultAgent'], 'enum', ids, 'the ids of instructionLens.defaultAgent');
  const runnable = PROFILES.filter((p) => p.localRun).map((p) => p.id);
  setList(props['instructionLens.agentPaths'].propertyNames, 'enum', runnable, 'the agents of instructionLens.agentPaths');
  setList(props['instructionLens.diagnostics.disabledCodes'].items, 'enum', Object.keys(RULES), 'the codes of instructionLens.diagnostics.disabledCodes');
  if (props['instructionLens.defaultAgent'].default !== ids[0]) {
    props['instructionLens.defaultAgent'].default = ids[0];
    changes.push(`the default agent (${ids[0]}, the first profile)`);
  }
  const events = pkg.activationEvents;
  for (const p of PROFILES) {
    const name = p.mainFile ?? fixedNames(p)[0];
    const globs = events.filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));
    if (!name || globs.some((g) => micromatch.isMatch(`x/${name}`, g, { dot: true }))) continue;
    const at = events.findIndex((e) => !e.startsWith('workspaceContains:'));
    events.splice(at < 0 ? events.length : at, 0, `workspaceContains:**/${name}`);
    changes.push(`activation on **/${name} (${p.id})`);
  }
  if (!changes.length) return;
  writeFileSync(manifest, JSON.stringify(pkg, null, 2) + '\n');
  console.log(`package.json now follows the profiles and rule codes (commit it): ${changes.join('; ')}.`);
}
