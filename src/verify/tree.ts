// The temporary copy a real agent runs in, for `instruction-lens verify` and the fidelity suite's
// real-repository mode: the same absolute layout under <tmp>/fs (so every path the agent prints
// is the real one with a prefix), holding
//   - every file of each folder from the launch folder's ancestors down to the target (above the
//     repository root only Markdown files: those folders are often the user's home);
//   - the agents' folders of those folders (.claude, .github, .gemini, …: see agentFolders);
//   - what @imports reach, whether or not a profile models the import;
//   - a `.git` where the repository root is (agents stop their walk there);
// and a temporary home with the user instruction files only. Never copied: settings, hooks, MCP
// servers, credentials, the real `.git`. The keys the profiles read from settings files are
// written separately (see config.ts).
//
// Each copied Markdown/text file gets one marker line appended, unique to the file: a file the
// agent sends but our render does not shows up as a marker outside every expected part, and the
// first marker after a difference names the file that differs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from '../core/fs';
import { isInside } from '../core/paths';
import { agentFolders } from '../core/patterns';
import { PROFILES } from '../core/profiles';

export interface TreeLimits {
  /** Largest file copied, in bytes. */
  maxFileBytes: number;
  /** Bytes copied in all. */
  maxTotalBytes: number;
  /** Files copied in all. */
  maxFiles: number;
}

export const DEFAULT_LIMITS: TreeLimits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024, maxFiles: 5000 };

/** The agents' folders inside a project folder, from the profiles' patterns and home folder names. */
const DOT_FOLDERS = agentFolders(PROFILES);

/** Folders inside dot-folders that are not instructions and may run code or hold state. */
const SKIPPED_FOLDERS = new Set(['hooks', 'workflows', 'projects', 'todos', 'shell-snapshots', 'statsig', 'ide', 'logs', 'sessions', 'tmp', 'cache', 'extensions', 'node_modules', '.git']);

/**
 * Never copied, wherever they are: settings (their instruction-related keys are written apart),
 * hook and MCP configuration, and anything that may hold a credential.
 */
export function isDenied(name: string, parentName: string): string | undefined {
  const n = name.toLowerCase();
  if (/^\.env(\..*)?$/.test(n) || /\.(pem|key|p12|pfx|keystore|jks)$/.test(n) || /^id_(rsa|dsa|ecdsa|ed25519)/.test(n)) return 'may hold a credential';
  if (['.npmrc', '.netrc', '.pypirc', '.git-credentials', '.dockercfg', 'auth.json', 'oauth_creds.json', '.credentials.json', 'credentials.json', 'credentials', 'google_accounts.json', 'hosts.yml'].includes(n)) return 'may hold a credential';
  if (n === '.mcp.json' || n === 'mcp.json' || n === 'mcp-config.json' || n === 'mcp_config.json') return 'MCP server configuration';
  if (n === 'settings.json' || n === 'settings.local.json' || n === 'managed-settings.json') return 'settings (only the keys a profile reads are written)';
  if (n === 'config.toml' || n === 'config.json' || n === '.claude.json') return 'settings (only the keys a profile reads are written)';
  if (n === '.git') return 'the real repository is not copied';
  if (SKIPPED_FOLDERS.has(n) && DOT_FOLDERS.has(parentName)) return n === 'hooks' ? 'hooks run code' : 'not instructions';
  return undefined;
}

/** Files that get a marker: Markdown and plain text, the forms instruction files take. */
export function isMarkable(name: string): boolean {
  return /\.(md|mdc|markdown|txt)$/i.test(name) || name === '.cursorrules' || name === '.windsurfrules';
}

export interface CopiedFile {
  /** Where it is on this machine. */
  real: string;
  /** Where it is in the copy. */
  temp: string;
  /** The marker line appended, when the file got one. */
  marker?: string;
}

export interface VerifyTree {
  /** The temporary folder holding everything (removed by remove()). */
  tmpRoot: string;
  /** <tmpRoot>/fs: the mirror of `/`. */
  fsRoot: string;
  /** The temporary home (the real home's place in the copy). */
  home: string;
  /** The real home it stands for. */
  realHome: string;
  repoRoot: string | undefined;
  files: CopiedFile[];
  skipped: Array<{ path: string; reason: string }>;
  /** Real absolute path → its place in the copy. */
  toTemp(real: string): string;
  /** A path in the copy → the real one it stands for. */
  toReal(temp: string): string;
  remove(): void;
}

export interface TreeRequest {
  /** Real absolute paths. */
  target: string;
  launchDir: string;
  /** The real home, whose user instruction files are copied. */
  home: string;
  /** Files a profile says the agent loads (absolute, real), copied too: user files, imports. */
  known: string[];
  /** The file the agent will read: copied without a marker. */
  readFile?: string;
  markers?: boolean;
  limits?: TreeLimits;
}

/** Nearest folder at or above `dir` holding `.git`. */
export function repositoryRoot(dir: string): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    if (path.dirname(d) === d) return undefined;
  }
}

/** `dir` and its ancestors, top first. */
function chainOf(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    out.unshift(d);
    if (path.dirname(d) === d) return out;
  }
}

/** The path rules of the disk the agent runs on. */
const DISK = new NodeFileSystem();

export function buildTree(req: TreeRequest): VerifyTree {
  const tmpRoot = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'il-verify-')));
  const fsRoot = path.join(tmpRoot, 'fs');
  const realHome = path.resolve(req.home);
  // The home is mirrored like everything else, so a project inside it keeps it as an ancestor.
  const toTemp = (real: string) => path.join(fsRoot, real);
  const toReal = (temp: string) => (isInside(temp, fsRoot, DISK) ? temp.slice(fsRoot.length) || '/' : temp);
  const home = toTemp(realHome);
  fs.mkdirSync(home, { recursive: true });
  const targetDir = fs.statSync(req.target).isDirectory() ? req.target : path.dirname(req.target);
  const repoRoot = repositoryRoot(req.launchDir) ?? repositoryRoot(targetDir);
  const copier = new TreeCopier(req, fsRoot, path.basename(tmpRoot).replace(/^il-verify-/, '').toLowerCase());

  // 1. The folders from the top down to the launch folder and to the target.
  copier.copyFolders([...new Set([...chainOf(req.launchDir), ...chainOf(targetDir)])], repoRoot ?? req.launchDir, realHome);
  // 2. What the profiles know the agents load (user files, imports outside these folders).
  for (const p of req.known) copier.copyEntry(p, false);
  // 3. What imports reach: every `@path` in a copied text file that names an existing file.
  copier.copyImports(realHome);
  // 4. The file the agent reads, when it lies elsewhere.
  if (req.readFile) copier.copyEntry(req.readFile, false);
  // 5. A repository where the real one is: agents stop walking at it and key settings by it.
  if (repoRoot) initRepository(path.join(fsRoot, repoRoot));

  return {
    tmpRoot, fsRoot, home, realHome, repoRoot, files: copier.files, skipped: copier.skipped, toTemp, toReal,
    remove: () => fs.rmSync(tmpRoot, { recursive: true, force: true }),
  };
}

/** Copies real files into the mirror under `fsRoot`, each once, within the limits. */
class TreeCopier {
  readonly files: CopiedFile[] = [];
  readonly skipped: Array<{ path: string; reason: string }> = [];
  private readonly seen = new Set<string>();
  private readonly limits: TreeLimits;
  private total = 0;

  constructor(private readonly req: TreeRequest, private readonly fsRoot: string, private readonly markerId: string) {
    this.limits = req.limits ?? DEFAULT_LIMITS;
  }

  private toTemp(real: string): string {
    return path.join(this.fsRoot, real);
  }

  /**
   * Each folder's files and agents' dot-folders. The home folder holds the user's dotfiles and
   * the agents' own configuration: only its Markdown files are copied; user instruction files
   * come through `known`.
   */
  copyFolders(folders: string[], projectTop: string, realHome: string): void {
    for (const dir of folders) {
      fs.mkdirSync(path.join(this.fsRoot, dir), { recursive: true });
      const inProject = (isInside(dir, projectTop, DISK) || isInside(dir, this.req.launchDir, DISK)) && dir !== realHome;
      for (const name of safeList(dir)) {
        const p = path.join(dir, name);
        if (DOT_FOLDERS.has(name)) {
          if (inProject) this.copyEntry(p, true);
          continue;
        }
        let st: fs.Stats | undefined;
        try {
          st = fs.statSync(p);
        } catch {
          st = undefined;
        }
        if (!st?.isFile()) continue;
        if (!inProject && !/\.(md|mdc)$/i.test(name)) continue;
        this.copyEntry(p, false);
      }
    }
  }

  /** Every `@path` in a copied text file that names an existing file, and so on from those. */
  copyImports(realHome: string): void {
    for (let i = 0; i < this.files.length; i++) {
      const f = this.files[i];
      if (!isMarkable(path.basename(f.real)) || f.real === this.req.readFile) continue;
      for (const ref of importRefs(fs.readFileSync(f.real, 'utf8'))) {
        const base = ref.startsWith('~/') ? path.join(realHome, ref.slice(2)) : path.isAbsolute(ref) ? ref : path.resolve(path.dirname(f.real), ref);
        const p = base.replace(/#.*$/, '');
        if (!this.seen.has(p) && fs.existsSync(p) && fs.statSync(p).isFile()) this.copyEntry(p, false);
      }
    }
  }

  /** A file, a folder (with `recurse`, 8 levels at most) or a link. */
  copyEntry(real: string, recurse: boolean, depth = 0): void {
    let lst: fs.Stats;
    try {
      lst = fs.lstatSync(real);
    } catch {
      return;
    }
    if (lst.isSymbolicLink()) return this.copyLink(real, recurse, depth);
    if (lst.isDirectory()) {
      if (!recurse || depth >= 8) return;
      const denied = isDenied(path.basename(real), path.basename(path.dirname(real)));
      if (denied) return void this.skipped.push({ path: real, reason: denied });
      for (const name of safeList(real)) this.copyEntry(path.join(real, name), true, depth + 1);
      return;
    }
    this.copyFile(real);
  }

  /** A symlink in the real tree stays a symlink (agents treat links differently), pointing into the copy. */
  private copyLink(real: string, recurse: boolean, depth: number): void {
    const temp = this.toTemp(real);
    if (this.seen.has(real)) return;
    this.seen.add(real);
    let target: string;
    try {
      target = fs.realpathSync(real);
    } catch {
      return; // dangling: the agents skip it too
    }
    const denied = isDenied(path.basename(real), path.basename(path.dirname(real)));
    if (denied) return void this.skipped.push({ path: real, reason: denied });
    fs.mkdirSync(path.dirname(temp), { recursive: true });
    const linkText = fs.readlinkSync(real);
    fs.symlinkSync(path.isAbsolute(linkText) ? this.toTemp(linkText) : linkText, temp);
    if (fs.statSync(target).isDirectory()) {
      if (recurse && depth < 8) for (const name of safeList(target)) this.copyEntry(path.join(target, name), true, depth + 1);
    } else this.copyFile(target);
  }

  /** A regular file, with a marker line when it is text the agents may send. */
  private copyFile(real: string): void {
    const { limits, files, skipped } = this;
    if (this.seen.has(real)) return;
    this.seen.add(real);
    const denied = isDenied(path.basename(real), path.basename(path.dirname(real)));
    if (denied) return void skipped.push({ path: real, reason: denied });
    let st: fs.Stats;
    try {
      st = fs.statSync(real);
    } catch {
      return;
    }
    if (!st.isFile()) return;
    if (st.size > limits.maxFileBytes) return void skipped.push({ path: real, reason: `larger than ${limits.maxFileBytes} bytes` });
    if (files.length >= limits.maxFiles) return void skipped.push({ path: real, reason: `more than ${limits.maxFiles} files` });
    if (this.total + st.size > limits.maxTotalBytes) return void skipped.push({ path: real, reason: `more than ${limits.maxTotalBytes} bytes in all` });
    const temp = this.toTemp(real);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(real);
    } catch (e) {
      return void skipped.push({ path: real, reason: `unreadable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` });
    }
    this.total += bytes.length;
    fs.mkdirSync(path.dirname(temp), { recursive: true });
    const entry: CopiedFile = { real, temp };
    const markable = this.req.markers !== false && real !== this.req.readFile && isMarkable(path.basename(real));
    if (markable && !bytes.includes(0) && bytes.toString('utf8').trim() !== '') {
      // Ended by `-end`, so no marker holds another (`…-1` inside `…-12`): the first marker after a
      // difference names its file, and a tree with ten markers or more named the wrong one.
      entry.marker = `instruction-lens-marker-${this.markerId}-${files.length + 1}-end`;
      const text = bytes.toString('utf8');
      bytes = Buffer.from(`${text}${text.endsWith('\n') ? '' : '\n'}${entry.marker}\n`, 'utf8');
    }
    fs.writeFileSync(temp, bytes);
    files.push(entry);
  }
}

/** `@tokens` that may be imports, in any agent's syntax (the profiles decide which really are). */
export function importRefs(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:^|[\s(["'`])@([~./\w][^\s`'")\]]*)/g)) {
    const ref = m[1].replace(/[.,;:!?]+$/, '');
    if (ref && !ref.startsWith('@') && /[./]/.test(ref)) out.add(ref);
  }
  return [...out];
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** An empty repository: the agents look for `.git`, not at its contents. */
function initRepository(dir: string): void {
  fs.mkdirSync(path.join(dir, '.git', 'objects'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.git', 'refs', 'heads'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(dir, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
}
