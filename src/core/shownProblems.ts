import { readConfig, suppress, suppressionsIn } from './config';
import { RULES } from './diagnostics';
import type { FileSystem } from './fs';
import { mergeDiagnostics } from './merge';
import type { Diagnostic } from './model';
import { pathKey, type PathRules } from './paths';

/** What a publish reads besides the problems. */
export interface ShowOptions {
  /** This change's cache: the real path of each file, and the suppression comments in it, known from the worker's answers or read (its separator is the one in messages' paths). */
  fs: FileSystem;
  /** The workspace folder of a file: paths in messages are written relative to it, and its configuration file turns codes off. */
  root: (file: string) => string | undefined;
  home?: string;
  /** The codes the settings turn off. */
  disabled: readonly string[];
  /** Changes when `root`, `home` or `disabled` answer differently: every file is shown again. */
  key: string;
}

interface Shown {
  /** What the file's problems were made of (the workspace's, then the active chain's), as JSON. */
  input: string;
  merged: Diagnostic[];
  /** What suppression read: the file's comments (`suppressionsIn`'s answer), and its folder's disabled codes. */
  read: unknown;
  off: readonly string[];
  /** What the file shows, as JSON: a file made again to the same is not set again. */
  json: string;
}

/** The paths whose problems a result replaces: every path, these exact paths, or every path inside these folders (`isInside`). */
export type Replaced = 'all' | { paths: Iterable<string> } | { folders: readonly string[] };

export interface ShownProblems {
  /** The workspace problems at the paths `at` names, but those `keep` keeps, replaced by `found` (appended). */
  replace(at: Replaced, found: readonly Diagnostic[], keep?: (d: Diagnostic) => boolean): void;
  /** The active chain's own problems. */
  setChain(list: readonly Diagnostic[]): void;
  /** Forget what was shown (the editor shows nothing now): the next `update` makes every file again. */
  forget(): void;
  /**
   * Make the files whose problems changed, until `deadline` (a `performance.now()`): once done,
   * the files whose problems differ since the last time it was done, with what each shows now
   * (empty: nothing); undefined when there is more (call again; changes meanwhile join the rest).
   */
  update(opts: ShowOptions, deadline?: number): Map<string, Diagnostic[]> | undefined;
}

/**
 * The problems the editor shows, kept per file so that a publish costs what changed: one entry
 * per problem (`mergeDiagnostics`), less what the settings, the configuration file and the
 * file's own comments turn off (`suppress`). The same, file by file and in the same order, as
 * that whole pipeline over the workspace's problems then the active chain's, since each step
 * only ever joins problems at one real path (a symlink's are shown at its target's): a change
 * to some paths' problems makes only their real files again. The workspace's problems change
 * as a pass or a quick look replaces those of some paths with its own, appended (`replace`).
 */
// eslint-disable-next-line max-lines-per-function -- the state lives here, not in a class's fields, so that the minifier shortens every name of it: the extension's bundles are at their size limit
export function shownProblems(rules: PathRules): ShownProblems {
  /** The workspace's problems by the path they were found at, each with its place in the whole list. */
  const workspace = new Map<string, { at: number; d: Diagnostic }[]>();
  /**
   * The same paths by each folder above them, and by their own: a pass over some folders takes
   * theirs without testing every path of the workspace. Keyed as `isInside` compares paths: each
   * part of a path's key before a separator.
   */
  const byFolder = new Map<string, Set<string>>();
  const folders = (p: string) => {
    const key = pathKey(rules, p);
    const out = [key];
    for (let i = key.indexOf(rules.path.sep); i >= 0; i = key.indexOf(rules.path.sep, i + 1)) out.push(key.slice(0, i));
    return out;
  };
  let added = 0;
  let chain: readonly Diagnostic[] = [];
  /** Found at each path, the real file it is shown at; each real file's paths. */
  const realOf = new Map<string, string>();
  const pathsOf = new Map<string, Set<string>>();
  const shown = new Map<string, Shown>();
  const dirtyPaths = new Set<string>();
  const dirtyFiles = new Set<string>();
  /** After a change, each visited once (live iterators): the paths whose real file may differ, then the files whose text or configuration may. */
  let moved: Iterator<string> | undefined;
  let reread: Iterator<string> | undefined;
  let host: FileSystem | undefined;
  let key: string | undefined;
  let changed = new Map<string, Diagnostic[]>();
  /** The codes each folder's configuration file turns off, as this change reads it. */
  let configs = new Map<string, readonly string[]>();
  /** The workspace folder of each file, for these settings. */
  const roots = new Map<string, string | undefined>();

  const replace = (at: Replaced, found: readonly Diagnostic[], keep?: (d: Diagnostic) => boolean) => {
    const paths = at === 'all' ? [...workspace.keys()] : 'paths' in at ? at.paths : new Set(at.folders.flatMap((folder) => {
      // A folder written with a separator at its end (`C:\`, `/`).
      const key = pathKey(rules, folder);
      return [...(byFolder.get(key.endsWith(rules.path.sep) ? key.slice(0, -1) : key) ?? [])];
    }));
    /** Paths left without problems: out of the index unless `found` has some there (the same answer again). */
    const gone = new Set<string>();
    for (const path of paths) {
      const entries = workspace.get(path);
      if (!entries) continue;
      const kept = keep ? entries.filter((e) => keep(e.d)) : [];
      if (kept.length === entries.length) continue;
      if (kept.length) workspace.set(path, kept);
      else {
        workspace.delete(path);
        gone.add(path);
      }
      dirtyPaths.add(path);
    }
    for (const d of found) {
      let entries = workspace.get(d.path);
      if (!entries) {
        workspace.set(d.path, (entries = []));
        if (!gone.delete(d.path)) for (const folder of folders(d.path)) byFolder.set(folder, (byFolder.get(folder) ?? new Set()).add(d.path));
      }
      entries.push({ at: added++, d });
      dirtyPaths.add(d.path);
    }
    for (const path of gone) {
      for (const folder of folders(path)) {
        const paths = byFolder.get(folder)!;
        paths.delete(path);
        if (!paths.size) byFolder.delete(folder);
      }
    }
  };

  const disabledIn = (file: string, opts: ShowOptions) => {
    // Asked once per file while the settings (with the workspace folders) stay: a change rechecks every file.
    const folder = roots.has(file) ? roots.get(file) : roots.set(file, opts.root(file)).get(file);
    if (!folder) return [];
    const off = configs.get(folder) ?? readConfig(opts.fs, folder, { agents: [], codes: Object.keys(RULES) }).disable;
    configs.set(folder, off);
    return off;
  };

  const make = (file: string, opts: ShowOptions, inputs: boolean) => {
    const before = shown.get(file);
    let again;
    // Only the disk may differ: the same problems, merged as before.
    if (!inputs) again = before && remake(file, undefined, before, opts, disabledIn(file, opts));
    else {
      const paths = [...(pathsOf.get(file) ?? [])];
      const entries = paths.flatMap((p) => workspace.get(p) ?? []);
      // A symlink's problems and its target's, in the order they were found.
      if (paths.length > 1) entries.sort((a, b) => a.at - b.at);
      const input = [...entries.map((e) => e.d), ...chain.filter((d) => realOf.get(d.path) === file)];
      again = input.length ? remake(file, input, before, opts, disabledIn(file, opts)) : before && { out: [] };
    }
    if (!again) return;
    if (again.shown) shown.set(file, again.shown);
    else {
      shown.delete(file);
      roots.delete(file);
    }
    if (again.shown?.json !== before?.json) changed.set(file, again.out);
  };

  return {
    replace,
    setChain(list) {
      for (const d of list === chain ? [] : [...chain, ...list]) dirtyPaths.add(d.path);
      chain = list;
    },
    forget() {
      shown.clear();
      key = undefined;
    },
    update(opts, deadline = Infinity) {
      // Other settings: every file is merged again.
      if (opts.key !== key) for (const s of shown.values()) s.input = '';
      if (opts.key !== key) {
        for (const path of realOf.keys()) dirtyPaths.add(path);
        roots.clear();
        moved = reread = undefined;
      }
      // Another change: any path may lead elsewhere and any file's comments may differ. Every
      // path with problems is known, or already to be looked at: its real path is asked again,
      // and a file its problems still lead to is only checked for what suppression reads (merging
      // again is kept for files whose problems changed).
      else if (opts.fs !== host) {
        moved = realOf.keys();
        reread = shown.keys();
      }
      if (opts.fs !== host || opts.key !== key) {
        host = opts.fs;
        key = opts.key;
        configs = new Map();
      }
      let n = 0;
      // At least one step per call: a call always gets on.
      const late = () => n++ > 0 && performance.now() > deadline;
      /** The next of `items` (undefined once done) unless this call's time is up. */
      const next = (items: Iterator<string> | undefined) => items && (late() ? null : items.next().value);
      for (const path of dirtyPaths) {
        if (late()) return undefined;
        dirtyPaths.delete(path);
        const real = workspace.has(path) || chain.some((d) => d.path === path) ? opts.fs.realPath(path) : undefined;
        for (const file of relink(path, real, realOf, pathsOf)) if (file !== undefined) dirtyFiles.add(file);
      }
      for (let path; (path = next(moved)) !== undefined; ) {
        if (path === null) return undefined;
        const real = opts.fs.realPath(path);
        if (real !== realOf.get(path)) for (const file of relink(path, real, realOf, pathsOf)) if (file !== undefined) dirtyFiles.add(file);
      }
      moved = undefined;
      for (const file of dirtyFiles) {
        if (late()) return undefined;
        dirtyFiles.delete(file);
        make(file, opts, true);
      }
      for (let file; (file = next(reread)) !== undefined; ) {
        if (file === null) return undefined;
        make(file, opts, false);
      }
      reread = undefined;
      const made = changed;
      changed = new Map();
      return made;
    },
  };
}

/** `path`'s problems found at `real` now (undefined: none): the real files whose problems this changes, before and now. */
function relink(path: string, real: string | undefined, realOf: Map<string, string>, pathsOf: Map<string, Set<string>>): (string | undefined)[] {
  const before = realOf.get(path);
  if (real !== before) {
    if (before !== undefined) {
      const paths = pathsOf.get(before)!;
      paths.delete(path);
      if (!paths.size) pathsOf.delete(before);
      realOf.delete(path);
    }
    if (real !== undefined) {
      realOf.set(path, real);
      pathsOf.set(real, (pathsOf.get(real) ?? new Set()).add(path));
    }
  }
  return [before, real];
}

/** A file's problems made again from `input`: undefined when they are what they were. */
function remake(file: string, input: Diagnostic[] | undefined, before: Shown | undefined, opts: ShowOptions, off: readonly string[]): { shown?: Shown; out: Diagnostic[] } | undefined {
  const read = suppressionsIn(opts.fs, file);
  const json = input ? JSON.stringify(input) : before!.input;
  const same = before?.input === json;
  // A change's cache keeps what it read of a file not written since: the same answer.
  if (same && before.read === read && String(before.off) === String(off)) return undefined;
  const merged = same ? before.merged : mergeDiagnostics(input!, { realPath: (p) => opts.fs.realPath(p), root: opts.root, home: opts.home, sep: opts.fs.path.sep });
  const out = suppress(merged, opts.fs, [...opts.disabled, ...off]);
  return { shown: { input: json, merged, read, off, json: JSON.stringify(out) }, out };
}
