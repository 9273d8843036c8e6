import * as os from 'node:os';
import { CachedFileSystem } from './core/cachedFs';
import type { Host } from './core/chain';
import { check, checkInSlices, listedFolder, type Agents, type CheckOptions, type CheckResult } from './core/check';
import type { Chain } from './core/model';
import type { FileSystem } from './core/fs';
import { absolute, CliGitIndex, namedAny, relativeList, runAsync, SnapshotGitIndex, TAGGED_WORK_TREE_ARGS, taggedList, treeArgs, type CommittedPaths, type WorkTreeListing } from './core/git';
import { namedIn, textOf, withText } from './cliListText';
import type { Profile } from './core/profile';

/**
 * The CLI's git for one `check`, which asks git at once, in processes side by side, what the
 * pass asks first: the work tree's listing and, for agents that read the default branch's commit
 * (`Profile.readsCommit`), that commit's files. On a second core the commit's listing then runs
 * while git walks the work tree, where the pass would have asked for it afterwards.
 */
export class AheadGitIndex extends CliGitIndex {
  /** The default branch, its commit and its files, once each: asked ahead, then by the pass. */
  private readonly known = new Map<string, unknown>();
  /** The work tree's listings made otherwise (`PartsGitIndex.listParts`), by root. */
  readonly listings = new Map<string, WorkTreeListing>();

  override workTreeListing(root: string): WorkTreeListing | undefined {
    return this.listings.get(root) ?? super.workTreeListing(root);
  }

  private once<T>(key: string, get: () => T): T {
    if (!this.known.has(key)) this.known.set(key, get());
    return this.known.get(key) as T;
  }

  override defaultBranch(root: string): string {
    return this.once(`branch\0${root}`, () => super.defaultBranch(root));
  }

  override commitOf(root: string, rev: string): string | undefined {
    return this.once(`commit\0${root}\0${rev}`, () => super.commitOf(root, rev));
  }

  override committedPaths(root: string, rev: string): CommittedPaths | undefined {
    return this.once(`files\0${root}\0${rev}`, () => super.committedPaths(root, rev));
  }

  /**
   * The work tree's listing of `root`, without blocking (as `SnapshotGitIndex.listAhead` lists
   * it), its text kept for `check`'s searches (`gitListSearch`).
   */
  async listAhead(root: string): Promise<void> {
    const out = await runAsync(root, TAGGED_WORK_TREE_ARGS);
    const listing = taggedList(out);
    if (listing) this.listings.set(root, { ...listing, files: withText(listing.files, out!, 2) });
  }

  /**
   * The commit's texts read ahead (`commitAhead`), by root, commit and file; a file the commit
   * does not hold as a blob is there, its text undefined.
   */
  private readonly texts = new Map<string, string | undefined>();

  override committedTexts(root: string, files: readonly string[], rev = 'HEAD'): Map<string, string | undefined> {
    const key = (f: string) => `${root}\0${rev}\0${f}`;
    const rest = files.filter((f) => !this.texts.has(key(f)));
    const out = rest.length ? super.committedTexts(root, rest, rev) : new Map<string, string | undefined>();
    // In the order asked.
    return new Map(files.map((f) => [f, this.texts.has(key(f)) ? this.texts.get(key(f)) : out.get(f)]));
  }

  /**
   * The default branch's commit and its files, the files listed without blocking; then the texts
   * of the files named as the agents' patterns name them (`names`; a hosted session's guidance
   * and skills, which it reads first), in one `git cat-file` while git still walks the work tree
   * and this thread has nothing to do but wait for it: the pass would block on the same process
   * later.
   */
  async commitAhead(root: string, names: readonly string[] = []): Promise<void> {
    const commit = this.commitOf(root, this.defaultBranch(root));
    const key = `files\0${root}\0${commit}`;
    if (!commit || this.known.has(key)) return;
    const out = await runAsync(root, treeArgs(commit));
    if (this.known.has(key)) return;
    const listing = this.treeFiles(root, commit, out);
    this.known.set(key, listing);
    if (!listing || !names.length) return;
    for (const [f, text] of super.committedTexts(root, absolute(root, listing.named(names)), commit)) this.texts.set(`${root}\0${commit}\0${f}`, text);
  }
}

/**
 * The refresh's view of git for the CLI's `check`. The files named so across the work tree's
 * listing (CAR's, Copilot's AGENTS.md) are found in git's text of it (`namedIn`), where each of
 * its paths was tested. `checkAhead` has it list the work tree in two git processes side by side
 * (`listParts`): the tracked files, which git reads from its index (40–80 ms on the bench's
 * trees), and the untracked ones, for which it walks the work tree (140–240 ms); until the whole
 * listing is in, the tracked part answers what asks for tracked files only (CAR's).
 */
export class PartsGitIndex extends SnapshotGitIndex {
  /** The tracked part of each listing in parts, while the whole is still to come. */
  private readonly soFar = new Map<string, readonly string[]>();
  /** What the tracked part answered, kept for the refresh as the other answers are: a profile asks again for every folder (CAR, 300 on test262's shape). */
  private readonly fromTracked = new Map<string, string[]>();
  /** The tracked files named so, from the whole listing's text, as `fromTracked`. */
  private readonly namedTracked = new Map<string, string[]>();

  constructor(
    private readonly index: AheadGitIndex,
    rootsVia: FileSystem,
  ) {
    super(index, rootsVia);
  }

  override trackedFiles(root: string, pathspecs: readonly string[] = []): string[] | undefined {
    return (!pathspecs.length && this.answer(root, '', (tracked) => absolute(root, tracked))) || super.trackedFiles(root, pathspecs);
  }

  override trackedFilesNamed(root: string, names: readonly string[]): string[] | undefined {
    return this.answer(root, `\0${names.join('\0')}`, (tracked) => absolute(root, namedAny(tracked, names))) ?? this.named(root, names, true) ?? super.trackedFilesNamed(root, names);
  }

  override workTreeFilesNamed(root: string, name: string): string[] | undefined {
    return this.named(root, [name], false) ?? super.workTreeFilesNamed(root, name);
  }

  /** The files of the whole listing (the tracked ones: `tracked`) named one of `names`, from git's text; the tracked ones once. */
  private named(root: string, names: readonly string[], tracked: boolean): string[] | undefined {
    const key = `${root}\0${names.join('\0')}`;
    const known = tracked ? this.namedTracked.get(key) : undefined;
    if (known) return known;
    const listing = this.index.listings.get(root);
    const rel = listing && namedIn(listing.files, names, tracked ? listing.untracked : 0);
    const files = rel && absolute(root, rel);
    if (files && tracked) this.namedTracked.set(key, files);
    return files;
  }

  /** The answer to one question (`question`, of `root`) from the tracked part, made once; undefined when neither it nor the part is here. */
  private answer(root: string, question: string, make: (tracked: readonly string[]) => string[]): string[] | undefined {
    const key = root + question;
    let known = this.fromTracked.get(key);
    const tracked = known ? undefined : this.soFar.get(root);
    if (tracked) this.fromTracked.set(key, (known = make(tracked)));
    return known;
  }

  /**
   * The work tree's listing of `root` (what `listAhead` gets from one process: git lists the
   * untracked files first there too) in two parts: the tracked files as soon as they are in, and
   * the whole, which also waits for `alongside` (what else is asked of git ahead, started once
   * both listings are under way).
   */
  listParts(root: string, alongside?: () => Promise<unknown>): { tracked: Promise<readonly string[] | undefined>; whole: Promise<unknown> } {
    // Each list with git's text of it (`withText`), for `check`'s searches.
    const list = (out: string | undefined) => (out === undefined ? undefined : withText(relativeList(out)!, out));
    const tracked = runAsync(root, ['ls-files', '-z', '--cached']).then(list);
    const untracked = runAsync(root, ['ls-files', '-z', '--others', '--exclude-standard']).then(list);
    const listing = Promise.all([tracked, untracked]).then(([t, u]) => {
      // Where the pass asks for it (`SnapshotGitIndex.workTreeRelative`); if git failed, it is asked again there.
      if (t && u) this.index.listings.set(root, { files: u.length ? withText(u.concat(t), textOf(u)! + textOf(t)!) : t, untracked: u.length });
      this.soFar.delete(root);
    });
    const whole = Promise.all([listing, alongside?.()]);
    return { tracked: tracked.then((t) => (t && this.soFar.set(root, t), t)), whole };
  }
}

/** The host for the CLI's `check` of `root` for `agents` (the pinned ones), git's first answers asked ahead. */
export async function checkHost(disk: FileSystem, root: string, agents: readonly Profile[]): Promise<Host> {
  const git = new AheadGitIndex(disk);
  // The host `refreshHost` makes, with the CLI's view of git (`PartsGitIndex`).
  const fs = new CachedFileSystem(disk);
  const snapshot = new PartsGitIndex(git, fs);
  const host: Host = { fs, git: snapshot };
  const gitRoot = snapshot.root(root);
  if (!gitRoot) return host;
  // What `listFiles` lists: the work tree, or a folder's part of it.
  const folder = gitRoot === root ? undefined : listedFolder(host, gitRoot, root);
  await Promise.all([folder ? snapshot.listUnderAhead(gitRoot, folder) : git.listAhead(gitRoot), agents.some((p) => p.readsCommit) ? git.commitAhead(gitRoot, patternNames(agents.filter((p) => p.readsCommit))) : undefined]);
  // The refresh's answer, as `SnapshotGitIndex.listAhead` leaves it.
  if (!folder) snapshot.workTreeRelative(gitRoot);
  return host;
}

/** The file names the agents' patterns name as they are (`**\/AGENTS.md`, `.claude/skills/*\/SKILL.md`): none holding a wildcard. */
function patternNames(agents: readonly Profile[]): string[] {
  return [...new Set(agents.flatMap((p) => p.filePatterns.map((f) => f.slice(f.lastIndexOf('/') + 1))))].filter((n) => !/[*?[\]{}!]/.test(n));
}

/**
 * Whether the CLI's `check` of these agents (the pinned ones) makes a first pass while git walks
 * the work tree (`checkAhead`). Not on a single core, where the pass and git's walk would take
 * turns on it (1.03–1.17 × the wall time of waiting, on the bench's trees). Not where the commit's
 * files are listed ahead too (`readsCommit`): the thread then already has their listing to take
 * in while git walks, and a first pass would only push that later (every agent, on test262's
 * shape: 1.05 × the wall time, 1.09 × the CPU, 12 pairs).
 */
export function firstPassWhileListing(agents: readonly Profile[]): boolean {
  return os.availableParallelism() > 1 && !agents.some((p) => p.readsCommit);
}

/**
 * The CLI's `check` of `root`, a repository's root: git's first answers asked ahead, and while
 * git walks the work tree for the untracked files, a first pass on the tracked files alone, its
 * chains kept, until the walk's answer is in. The pass on every file then takes those chains as
 * they are, where the thread would have waited for git. What the tracked files give (the agents
 * detected, the folders) only chooses the chains resolved early, never what the pass reports.
 * Not the chains of agents that ask git for more than its index (`Profile.workTreeNames`: the
 * work tree's listing; `readsCommit`: the default branch's files, listed beside): git would be
 * run again for them, holding the thread. Elsewhere (a folder of a repository, no repository),
 * `check` on `checkHost`. `alongside`: what else the pass on every file waits for, started once
 * git's listings are under way (a test holds the listing back with it).
 */
export async function checkAhead(disk: FileSystem, root: string, choose: Agents, opts: CheckOptions, alongside?: () => Promise<unknown>): Promise<CheckResult> {
  const fs = new CachedFileSystem(disk);
  const index = new AheadGitIndex(disk);
  const git = new PartsGitIndex(index, fs);
  const host: Host = { fs, git };
  if (git.root(root) !== root) return check(await checkHost(disk, root, typeof choose === 'function' ? [] : choose), root, choose, opts);
  const parts = git.listParts(root, alongside);
  let listed = false;
  void parts.whole.then(() => (listed = true));
  const files = await parts.tracked;
  const chains = new Map<string, Chain & { fatal?: string }>();
  // The agents the pass checks, as it chooses them (pinned, else the repository's configuration, else detected), less those.
  const only = (p: Profile) => !p.workTreeNames?.length && !p.readsCommit;
  // Pinned agents that all ask git for more: no chain to resolve early.
  if (files && !listed && (typeof choose === 'function' || choose.some(only))) await checkInSlices(host, root, choose, { ...opts, listed: { files, via: 'git' }, keep: chains, only }, { sliceMs: 5, cancelled: () => listed });
  await parts.whole;
  return check(host, root, choose, { ...opts, chains });
}
