import { childProcess } from './childProcess';
import { constants as fsConstants, promises as fsp, statSync } from 'node:fs';
import * as path from 'node:path';
import { globMatcher, SegmentIndex } from './globs';
import type { Profile } from './profile';

/**
 * Which agents a workspace uses, and why: from the repository's own files (what `check`
 * decides by, so CI and a laptop agree) and, when asked, from the machine (an agent's CLI on
 * PATH, its folder in the home, an editor extension). Each profile declares its evidence
 * (`Profile.evidence`); nothing here knows an agent by name.
 */

export interface Detection {
  profile: Profile;
  /** Whether the agent counts as used. */
  used: boolean;
  /** Why, as short phrases: `CLAUDE.md`, `claude 2.1.340 on PATH`, `~/.codex`. Empty when not used. */
  evidence: string[];
  /** The installed version the machine reports, when its CLI was asked. */
  installed?: string;
}

/** The evidence of agents checked because nothing marks any. */
export const DEFAULTED = 'no agent marked: checked by default';

/** How many example files a repository marker names in `evidence`. */
const EXAMPLES = 2;

/**
 * The agents the repository's files mark, in registry order. `files` are relative to the folder
 * checked, with `/` (as `listFiles` gives them). Nothing marked at all: every agent that has
 * markers counts, as before detection existed, so a folder without instruction files of any
 * agent is still checked for all the common ones; agents with no markers stay off.
 */
export function detectFromRepository(files: readonly string[], profiles: readonly Profile[]): Detection[] {
  const hits: string[][] = profiles.map(() => []);
  // One pass over the files for every profile's markers, each tried only on the paths that hold
  // its literal name: a regular expression per file per profile cost more than git's listing.
  const index = new SegmentIndex<{ slot: number; matches: (rel: string) => boolean }>();
  profiles.forEach((profile, slot) => {
    for (const m of profile.evidence.markers) {
      // Compiled on the first path that holds its name: the extension asks with no files at all
      // while git lists the folder, and compiling every marker took about a fifth of the task
      // that starts the extension's rest.
      let matcher: ((rel: string) => boolean) | undefined;
      index.add(m, { slot, matches: (rel) => (matcher ??= globMatcher(m))(rel) });
    }
  });
  let open = profiles.filter((p) => p.evidence.markers.length).length;
  const lastFile = profiles.map(() => -1);
  let n = -1;
  let f = '';
  const visit = ({ slot, matches }: { slot: number; matches: (rel: string) => boolean }) => {
    // A file counts once per profile, and a profile stops at one more example than it names.
    if (lastFile[slot] === n || hits[slot].length > EXAMPLES || !matches(f)) return false;
    lastFile[slot] = n;
    if (hits[slot].push(f) > EXAMPLES) open--;
    return false;
  };
  while (open > 0 && ++n < files.length) {
    f = files[n];
    for (const { value } of index.always) visit(value);
    index.some(f, visit);
  }
  const out = profiles.map((profile, slot): Detection => {
    const found = hits[slot];
    return { profile, used: found.length > 0, evidence: found.slice(0, EXAMPLES).concat(found.length > EXAMPLES ? ['…'] : []) };
  });
  if (!out.some((d) => d.used)) {
    for (const d of out) if (d.profile.evidence.markers.length) Object.assign(d, { used: true, evidence: [DEFAULTED] });
  }
  return out;
}

/** What the machine shows of one agent. Every look-up is optional: a missing tool is simply no evidence. */
export interface MachineProbe {
  /** The absolute path of a command on PATH, if any. */
  which(command: string): Promise<string | undefined>;
  /** A command's output (stdout), or undefined when it fails or takes too long. */
  run(file: string, args: readonly string[]): Promise<string | undefined>;
  /** Whether a directory exists. */
  isDir(p: string): Promise<boolean>;
  /** Whether an editor extension is installed (the extension only). */
  hasExtension?(id: string): boolean;
  home: string;
}

/** What the machine shows of one agent. */
export interface MachineEvidence {
  profile: Profile;
  /** Short phrases: `claude 2.1.340 on PATH`, `~/.claude`, `github.copilot-chat extension`. */
  found: string[];
  installed?: string;
}

/** Look at the machine for every profile's evidence (in parallel; each look-up may fail quietly). */
export async function probeMachine(profiles: readonly Profile[], probe: MachineProbe): Promise<MachineEvidence[]> {
  return Promise.all(
    profiles.map(async (profile): Promise<MachineEvidence> => {
      const e = profile.evidence;
      const found: string[] = [];
      let installed: string | undefined;
      if (e.cli) {
        const bin = await probe.which(e.cli.command);
        if (bin) {
          installed = parseVersion((await probe.run(bin, e.cli.versionArgs)) ?? '');
          found.push(`${e.cli.command}${installed ? ` ${installed}` : ''} on PATH`);
        }
      }
      if (e.homeDir && (await probe.isDir(path.join(probe.home, e.homeDir)))) found.push(`~/${e.homeDir}`);
      if (e.vscodeExtension && probe.hasExtension?.(e.vscodeExtension)) found.push(`${e.vscodeExtension} extension`);
      return { profile, found, ...(installed ? { installed } : {}) };
    }),
  );
}

/** Repository detections with the machine's evidence added: used when either says so. */
export function withMachine(detections: readonly Detection[], machine: readonly MachineEvidence[]): Detection[] {
  return detections.map((d) => {
    const m = machine.find((x) => x.profile === d.profile);
    if (!m) return d;
    // "Checked by default" gives way to real evidence from the machine.
    const defaulted = d.evidence.length === 1 && d.evidence[0] === DEFAULTED;
    const repo = defaulted ? [] : d.evidence;
    const used = repo.length > 0 || m.found.length > 0 || (defaulted && !machine.some((x) => x.found.length));
    return { ...d, used, evidence: used ? (repo.length || m.found.length ? [...repo, ...m.found] : d.evidence) : [], ...(m.installed ? { installed: m.installed } : {}) };
  });
}

/** The first dotted version number in a `--version` output (`2.1.340 (Claude Code)` → `2.1.340`). */
export function parseVersion(output: string): string | undefined {
  return /\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?/.exec(output)?.[0];
}

/** Compare dotted versions numerically: <0, 0, >0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10));
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10));
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d) return d;
  }
  return 0;
}

/**
 * One sentence when the installed agent is not the version a profile models, for the meter's
 * tooltip, the chain header and `instruction-lens agents`; undefined when they agree or either
 * is unknown.
 */
export function versionNotice(profile: Profile, installed: string | undefined): string | undefined {
  if (!installed || !/^\d/.test(profile.agentVersion) || installed === profile.agentVersion) return undefined;
  return `${profile.agent} ${installed} is installed; Instruction Lens models ${profile.agentVersion}, so what it shows may differ.`;
}

/** The agents checked: those detected as used, in registry order. */
export function usedProfiles(detections: readonly Detection[]): Profile[] {
  return detections.filter((d) => d.used).map((d) => d.profile);
}

/** `Claude Code (CLAUDE.md), Codex CLI (AGENTS.md, pkg/AGENTS.md)`: the check summary's words. */
export function describeDetections(detections: readonly Detection[]): string {
  const used = detections.filter((d) => d.used);
  if (!used.length) return 'none';
  const names = agentNames(used.map((d) => d.profile));
  // Nothing marked any agent: the reason is said once, not after each of them.
  if (used.every((d) => d.evidence.length === 1 && d.evidence[0] === DEFAULTED)) return `${names.join(', ')} (${DEFAULTED})`;
  return used.map((d, i) => `${names[i]} (${d.evidence.join(', ')})`).join(', ');
}

/**
 * Each profile's agent name for a list of them, its id where another profile in the list models
 * the same agent (`claw-code`, `claw-code@head`): two versions of one agent read alike otherwise.
 */
export function agentNames(profiles: readonly Profile[]): string[] {
  return profiles.map((p) => (profiles.some((o) => o !== p && o.agent === p.agent) ? p.id : p.agent));
}

/**
 * The machine as Node sees it: PATH from `env`, commands run without a shell and cut after a
 * few seconds. Used by the CLI (`--detect machine`) and the extension (trusted workspaces only:
 * it runs the agents' own binaries).
 */
export function nodeMachineProbe(home: string, env: Readonly<Record<string, string | undefined>>): MachineProbe {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  return {
    home,
    async which(command) {
      for (const dir of dirs) {
        for (const ext of exts) {
          const file = path.join(dir, command + ext);
          try {
            // A stat first, answering a missing file without an error: most of PATH's folders
            // lack each command, and each failed `access` made an error (its message and stack).
            if (statSync(file, { throwIfNoEntry: false })?.isFile()) {
              await fsp.access(file, fsConstants.X_OK);
              return file;
            }
          } catch {
            // not here (not a folder on the way, not executable)
          }
        }
      }
      return undefined;
    },
    run(file, args) {
      return new Promise((resolve) => {
        childProcess().execFile(file, [...args], { timeout: 5000, windowsHide: true, env: { ...process.env, ...env } as NodeJS.ProcessEnv }, (err, stdout) => resolve(err ? undefined : String(stdout)));
      });
    },
    async isDir(p) {
      try {
        return (await fsp.stat(p)).isDirectory();
      } catch {
        return false;
      }
    },
  };
}
