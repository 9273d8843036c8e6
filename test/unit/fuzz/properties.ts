import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import type { Host } from '../../../src/core/chain';
import { resolveChain } from '../../../src/core/chain';
import { check } from '../../../src/core/check';
import { RULES } from '../../../src/core/diagnostics';
import type { FileSystem } from '../../../src/core/fs';
import type { Chain, RenderPart, Source } from '../../../src/core/model';
import type { Profile } from '../../../src/core/profile';
import { findProfile } from '../../../src/core/profiles';
import { byteCount, charCount, decodeLossy } from '../../../src/core/text';
import { build, HOME, ROOT, type TreeSpec } from './trees';

/**
 * The invariants every profile keeps on any tree. Each returns nothing and throws an assertion
 * naming the broken rule, so fast-check reports the smallest tree that breaks it.
 */

/**
 * Profiles whose sources inline their imports' text into their own (Gemini CLI's tree format,
 * Copilot CLI): the importer's injected text holds its imports, so it may exceed its own size.
 * Their rule: a source injects at most its own size plus what its imports inject, plus the
 * agent's wrapper per import.
 */
const INLINES_IMPORTS = new Set(['gemini-cli', 'copilot-cli']);

/**
 * Profiles that count a label of their own with each source's text (CAR: each nested block's
 * `## dir/ (path)` heading, and for a file past its budgets the pointer line naming it): a
 * source injects at most its size plus that label.
 */
const LABELS_SOURCES = new Set(['car']);
const label = (unit: 'chars' | 'bytes', s: Source) => 2 * units(unit, s.path) + 160;

/** A read-only view that fails the test on any method that is not a read. */
function readOnly(fs: FileSystem): FileSystem {
  return {
    stat: (p) => fs.stat(p),
    isSymlink: (p) => fs.isSymlink(p),
    readFile: (p) => fs.readFile(p),
    readPrefix: (p, n) => fs.readPrefix(p, n),
    readDir: (p) => fs.readDir(p),
    realPath: (p) => fs.realPath(p),
    path: fs.path,
    caseInsensitive: fs.caseInsensitive,
  };
}

/** Every path and its bytes, to show nothing was written. */
function snapshot(fs: FileSystem): string {
  const out: string[] = [];
  const stack = ['/'];
  const seen = new Set<string>();
  while (stack.length) {
    const dir = stack.pop()!;
    const real = fs.realPath(dir);
    if (seen.has(real)) continue;
    seen.add(real);
    for (const e of fs.readDir(dir)) {
      const p = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
      if (e.type === 'dir') stack.push(p);
      else if (e.type === 'file') out.push(`${p}:${Buffer.from(fs.readFile(p)).toString('base64')}`);
      else out.push(p);
    }
  }
  return out.sort().join('\n');
}

const units = (unit: 'chars' | 'bytes', text: string) => (unit === 'chars' ? charCount(text) : byteCount(text));
const partsUnits = (unit: 'chars' | 'bytes', parts: RenderPart[]) => parts.reduce((n, p) => n + units(unit, p.text), 0);
const injected = (unit: 'chars' | 'bytes', s: Source) => (unit === 'chars' ? s.injectedChars : s.injectedBytes);

/** The JSON the CLI prints for a chain keeps its documented shape. */
function assertShape(c: Chain): void {
  const json = JSON.parse(JSON.stringify(c)) as Chain;
  assert.equal(typeof json.agent, 'string');
  for (const s of json.sources) {
    assert.equal(typeof s.path, 'string');
    assert.ok(s.path.startsWith('/'), `source path not absolute: ${s.path}`);
    for (const k of ['chars', 'bytes', 'injectedChars', 'injectedBytes'] as const) assert.ok(Number.isInteger(s[k]) && s[k] >= 0, `${k} = ${s[k]} for ${s.path}`);
    assert.ok(['start', 'on-read'].includes(s.loads), `loads ${s.loads}`);
    assert.ok(['loaded', 'truncated', 'omitted', 'duplicate', 'not-matched', 'on-read', 'listed', 'excluded', 'missing', 'unreadable'].includes(s.status), s.status);
    assert.ok(s.reason.length > 0, `no reason for ${s.path}`);
  }
  assert.ok(['chars', 'bytes'].includes(json.budget.unit), `unit ${json.budget.unit}`);
  assert.ok(json.budget.limit === null || (Number.isInteger(json.budget.limit) && json.budget.limit >= 0), `limit ${json.budget.limit}`);
  assert.ok(Number.isInteger(json.budget.used) && json.budget.used >= 0, `used = ${json.budget.used}`);
  for (const d of json.diagnostics) {
    assert.ok(d.code in RULES, `unknown code ${d.code}`);
    assert.ok(['error', 'warning', 'info', 'hint'].includes(d.severity), `severity ${d.severity} of ${d.code}`);
    assert.ok(d.message.length > 0, `empty message for ${d.code}`);
    assert.ok(d.line >= 0 && d.column >= 0 && d.endLine >= d.line, `bad range ${JSON.stringify(d)}`);
  }
  for (const p of [...json.start, ...json.onRead]) assert.ok(['system', 'user', 'tool-result', 'after-tool-result', 'message'].includes(p.where), `part where ${p.where}`);
}

/** The profile's invariants on one chain. */
function assertChain(profile: Profile, c: Chain, fs: FileSystem): void {
  assert.ok(!c.diagnostics.some((d) => d.code === 'internal-error'), c.diagnostics.find((d) => d.code === 'internal-error')?.message);
  assertShape(c);
  const unit = c.budget.unit;

  // Injected ≤ size, for sources that do not inline imports; the others by their own rule.
  const decoded = (s: Source) => {
    try {
      return decodeLossy(fs.readFile(s.path));
    } catch {
      return undefined;
    }
  };
  for (const s of c.sources) {
    const text = decoded(s);
    // A lossy read turns one bad byte into U+FFFD (three bytes): measure the text the agent reads.
    const size = text === undefined ? { chars: s.chars, bytes: s.bytes } : { chars: Math.max(s.chars, charCount(text)), bytes: Math.max(s.bytes, byteCount(text)) };
    if (INLINES_IMPORTS.has(profile.id)) {
      // Every file it pulls in, at any depth (Gemini CLI's flat format inlines them all).
      const imports: Source[] = [];
      for (let level = [s.path]; level.length; ) {
        const next = c.sources.filter((x) => x.importedBy !== undefined && level.includes(x.importedBy) && !imports.includes(x));
        imports.push(...next);
        level = next.map((x) => x.path);
      }
      // Each `@` reference is replaced by what it imports between two comments naming it
      // (`<!-- Imported from: p -->`, `--- File: p ---` …), or by one comment saying why not
      // (`<!-- Import failed: p - … -->`): per reference, a wrapper and all it may pull in.
      const wrapper = 2 * Math.max(units(unit, s.path), ...imports.map((x) => units(unit, x.path))) + 200;
      const all = imports.reduce((n, x) => n + injected(unit, x) + wrapper, 0);
      const refs = text === undefined ? imports.length : text.split('@').length - 1;
      const room = wrapper + (refs + 1) * (wrapper + all);
      assert.ok(injected(unit, s) <= (unit === 'chars' ? size.chars : size.bytes) + room, `${s.path} injects ${injected(unit, s)} > ${unit === 'chars' ? size.chars : size.bytes} + imports ${room}`);
    } else if (LABELS_SOURCES.has(profile.id)) {
      assert.ok(s.injectedChars <= size.chars + label('chars', s), `${s.path} injects ${s.injectedChars} chars > ${size.chars} + its label`);
      assert.ok(s.injectedBytes <= size.bytes + label('bytes', s), `${s.path} injects ${s.injectedBytes} bytes > ${size.bytes} + its label`);
    } else {
      assert.ok(s.injectedChars <= size.chars, `${s.path} injects ${s.injectedChars} chars > ${size.chars}`);
      assert.ok(s.injectedBytes <= size.bytes, `${s.path} injects ${s.injectedBytes} bytes > ${size.bytes}`);
    }
  }

  // Used within the limit, and what the start render holds of the sources. A fatal chain (the
  // agent fails to build its prompt) sends nothing: its render is empty by design.
  if (c.budget.limit !== null) assert.ok(c.budget.used <= c.budget.limit, `used ${c.budget.used} > limit ${c.budget.limit}`);
  if ((c as { fatal?: string }).fatal) return assertPlacement(c, fs);
  const atStart = c.sources.filter((s) => s.loads === 'start' && !(INLINES_IMPORTS.has(profile.id) && s.importedBy));
  const sentAtStart = atStart.reduce((n, s) => n + injected(unit, s), 0);
  assert.ok(sentAtStart <= partsUnits(unit, c.start), `start sources inject ${sentAtStart} ${unit} but the start render holds ${partsUnits(unit, c.start)}`);
  assert.ok(c.budget.used <= partsUnits(unit, c.start), `used ${c.budget.used} ${unit} but the start render holds ${partsUnits(unit, c.start)}`);
  if (c.budget.used > 0) assert.ok(c.start.length > 0, `used ${c.budget.used} with no start render`);
  const onRead = c.sources.filter((s) => s.loads === 'on-read' && s.status === 'on-read' && !(INLINES_IMPORTS.has(profile.id) && s.importedBy));
  const sentOnRead = onRead.reduce((n, s) => n + injected(unit, s), 0);
  assert.ok(sentOnRead <= partsUnits(unit, c.onRead), `on-read sources inject ${sentOnRead} ${unit} but the on-read render holds ${partsUnits(unit, c.onRead)}`);

  assertPlacement(c, fs);
}

/** importedBy and diagnostic positions. */
function assertPlacement(c: Chain, fs: FileSystem): void {
  // importedBy names an earlier source.
  c.sources.forEach((s, i) => {
    if (!s.importedBy) return;
    assert.ok(c.sources.slice(0, i).some((x) => x.path === s.importedBy), `${s.path} is imported by ${s.importedBy}, which is not listed before it`);
  });

  // Diagnostics sit inside their file.
  for (const d of c.diagnostics) {
    if (fs.stat(d.path)?.type !== 'file') continue;
    let text: string;
    try {
      text = decodeLossy(fs.readFile(d.path));
    } catch {
      continue;
    }
    const lines = text.split('\n');
    assert.ok(d.line < lines.length, `${d.code} at line ${d.line + 1} of ${d.path}, which has ${lines.length}`);
    assert.ok(d.column <= lines[d.line].length, `${d.code} at column ${d.column + 1} of a ${lines[d.line].length}-unit line in ${d.path}`);
    assert.ok(d.endLine < lines.length && d.endColumn <= lines[d.endLine].length, `${d.code} ends outside ${d.path}`);
  }
}

export interface Case {
  spec: TreeSpec;
  /** A profile id. */
  profile: string;
  /** Also run `check` on the whole tree (slower: every folder of every profile). */
  withCheck: boolean;
}

/**
 * What one case's answer held, for the coverage report: each source status and diagnostic code
 * seen, and whether a budget or limit was hit (a source cut, left out or past a limit).
 */
export function outcomes(c: Chain, checked?: { code: string }[]): string[] {
  const out = new Set<string>();
  for (const s of c.sources) out.add(`status ${s.status}`);
  for (const d of [...c.diagnostics, ...(checked ?? [])]) out.add(`diagnostic ${d.code}`);
  const budgetCodes = ['chain-over-budget', 'file-truncated'];
  if (c.sources.some((s) => s.status === 'truncated') || c.diagnostics.some((d) => budgetCodes.includes(d.code))) out.add('budget hit');
  if ((c as { fatal?: string }).fatal) out.add('fatal (agent refuses to start)');
  return [...out];
}

/** One case: build the tree, resolve the chain twice, check every invariant; returns its outcomes. */
export function runCase({ spec, profile: id, withCheck }: Case): string[] {
  const profile = findProfile(id)!;
  const t = build(spec, profile.mainFile ?? 'AGENTS.md');
  const before = snapshot(t.fs);
  const host: Host = { fs: readOnly(t.fs), git: t.git };
  const target = t.targets[spec.target % t.targets.length];
  const req = { profile, target, home: HOME, env: {}, settings: {}, platform: 'linux' as const };
  // resolve() itself must not throw: call it as resolveChain does, without its safety net.
  const launchDir = t.fs.stat(target)?.type === 'dir' ? target : target.slice(0, target.lastIndexOf('/')) || '/';
  assert.doesNotThrow(() => profile.resolve({ fs: host.fs, git: host.git, target, launchDir: spec.git ? ROOT : launchDir, home: HOME, platform: 'linux', env: {}, settings: {}, memo: (_key, compute) => compute() }));
  const first = resolveChain(req, host);
  assertChain(profile, first, t.fs);
  const second = resolveChain(req, host);
  assert.ok(isDeepStrictEqual(first, second), 'the same question twice gave two answers');
  let checked: { code: string }[] | undefined;
  if (withCheck) {
    const result = check(host, ROOT, [profile], { home: HOME, env: {} });
    for (const d of result.diagnostics) {
      assert.ok(d.path === ROOT || d.path.startsWith(ROOT + '/'), `check reported outside its root: ${d.path}`);
      assert.notEqual(d.code, 'internal-error', d.message);
    }
    checked = result.diagnostics;
  }
  assert.equal(snapshot(t.fs), before, 'the tree changed');
  return outcomes(first, checked);
}
