import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { versionNotice } from '../core/detect';
import type { Profile } from '../core/profile';
import type { AgentDetection } from './agentDetection';
import { PROFILES } from '../core/profiles';

/**
 * The extension's settings, typed. `Config` and the settings each profile declares
 * (`Profile.settings`, offered as `instructionLens.<settingsSection>.<name>`) mirror
 * `contributes.configuration` in package.json (a unit test checks that both agree, defaults
 * included); nothing else reads `workspace.getConfiguration`.
 */

export const SECTION = 'instructionLens';

export type LaunchDirectory = 'workspaceFolder' | 'fileFolder' | 'repositoryRoot';

export interface Config {
  /** Profile ids the extension shows and lints for; `auto`: the agents the workspace uses. */
  agents: 'auto' | string[];
  /** The agent selected until the user picks another. */
  defaultAgent: string;
  launchDirectory: LaunchDirectory;
  /** The home directory the agents read user files from; empty = the user's. */
  home: string;
  'diagnostics.enabled': boolean;
  'diagnostics.disabledCodes': string[];
  'codeLens.enabled': boolean;
  /** Where each agent's CLI is, by profile id, for verifying (default: on PATH). */
  agentPaths: Record<string, string>;
}

/** A setting a profile declares: `<settingsSection>.<name>` (`car.maxFiles`). */
export type ProfileSettingKey = `${string}.${string}`;

export type SettingKey = keyof Config | ProfileSettingKey;

/** The value type of a setting: typed for ours, `unknown` for a profile's (the profile validates it). */
export type SettingValue<K extends SettingKey> = K extends keyof Config ? Config[K] : unknown;

/** Each profile's settings as `[profile setting name, our key, default]`. */
function profileSettingKeys(profile: Profile): [string, ProfileSettingKey, unknown][] {
  return Object.entries(profile.settings ?? {}).map(([name, s]) => [name, `${profile.settingsSection ?? profile.id}.${name}`, s.default]);
}

/** Every setting with its default: ours, then each profile's. The first profile is the default agent. */
export const DEFAULTS: Readonly<Config & Record<ProfileSettingKey, unknown>> = {
  agents: 'auto',
  defaultAgent: PROFILES[0].id,
  launchDirectory: 'workspaceFolder',
  home: '',
  ...Object.fromEntries(PROFILES.flatMap(profileSettingKeys).map(([, key, value]) => [key, value])),
  'diagnostics.enabled': true,
  'diagnostics.disabledCodes': [],
  'codeLens.enabled': true,
  agentPaths: {},
};

/**
 * Our settings a folder can set apart in a workspace of several (package.json: scope `resource`
 * or `machine-overridable`), read for the resource they apply to. The others are the window's
 * (no scope, or `machine`): read without one, as VS Code expects. Read for a resource, each
 * read also made VS Code log a warning ("Accessing a window scoped configuration for a resource
 * is not expected"), 17 of them at start-up, about 5 ms of the extension host's thread each
 * in a profiled start. The manifest's test checks this list against package.json.
 */
export const RESOURCE_SCOPED: ReadonlySet<SettingKey> = new Set<SettingKey>(['launchDirectory', 'home']);

/** Settings that change what a chain holds: ours, and every profile's. */
const CHAIN_KEYS: readonly SettingKey[] = ['agents', 'defaultAgent', 'launchDirectory', 'home', ...PROFILES.flatMap(profileSettingKeys).map(([, key]) => key)];

export class Settings implements vscode.Disposable {
  private detection: AgentDetection | undefined;
  private readonly emitter = new vscode.EventEmitter<vscode.ConfigurationChangeEvent>();
  /** Fires when any `instructionLens.*` setting, or an editor setting a profile reads, changes; filter with `changed()`. */
  readonly onDidChange = this.emitter.event;
  /**
   * The values read, by scope and key, until the configuration, the workspace folders or trust
   * change (trust decides whether restricted settings apply): each read through VS Code's API
   * costs a fraction of a millisecond, and an editor switch reads dozens.
   */
  private readonly values = new Map<string, unknown>();
  private readonly subscription = vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Before anyone hears of the change, so that they read the new values.
      this.values.clear();
      if (e.affectsConfiguration(SECTION) || editorKeys().some((k) => e.affectsConfiguration(k))) this.emitter.fire(e);
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => this.values.clear()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => this.values.clear()),
  );

  /**
   * A setting's value; without a scope, as the first workspace folder sees it (its own
   * `.vscode/settings.json` included). A window's setting (not `RESOURCE_SCOPED`) has one value
   * for every scope, read without one.
   */
  get<K extends SettingKey>(key: K, forScope: vscode.ConfigurationScope | undefined = vscode.workspace.workspaceFolders?.[0]?.uri): SettingValue<K> {
    const scope = RESOURCE_SCOPED.has(key) ? forScope : undefined;
    const cacheKey = `${scopeKey(scope)}\0${key}`;
    if (this.values.has(cacheKey)) return this.values.get(cacheKey) as SettingValue<K>;
    const read = plain(this.configuration(SECTION, scope).get<SettingValue<K>>(key));
    const value = read === undefined ? (DEFAULTS[key] as SettingValue<K>) : read;
    this.values.set(cacheKey, value);
    return value;
  }

  /**
   * Whether a change touches any of `keys`. With no event (first setup) it is true, so a
   * feature can run the same code to set itself up and to react.
   */
  changed(e: vscode.ConfigurationChangeEvent | undefined, keys: readonly SettingKey[], scope?: vscode.ConfigurationScope): boolean {
    return !e || keys.some((k) => e.affectsConfiguration(`${SECTION}.${k}`, scope));
  }

  /** Whether a change touches anything a chain depends on (ours, or an editor setting a profile reads). */
  changedChains(e: vscode.ConfigurationChangeEvent | undefined): boolean {
    return this.changed(e, CHAIN_KEYS) || (!!e && editorKeys().some((k) => e.affectsConfiguration(k)));
  }

  /**
   * The enabled profiles in registry order: a list pins them (unknown ids are ignored, an empty
   * list means all); `auto`, the agents the workspace folder uses (AgentDetection).
   */
  enabledProfiles(scope?: vscode.ConfigurationScope): Profile[] {
    const value = this.get('agents', scope);
    if (value === 'auto' || !Array.isArray(value)) {
      const used = this.detection?.detections(scope).filter((d) => d.used).map((d) => d.profile) ?? [];
      return used.length ? used : [...PROFILES];
    }
    const ids = new Set(value);
    const enabled = PROFILES.filter((p) => ids.has(p.id));
    return enabled.length ? enabled : [...PROFILES];
  }

  /**
   * Once the agents used are known: detection (`auto`) lists the workspace folders asynchronously
   * (`firstChain`: and looks at the machine only when their files name no agents, see `AgentDetection.ready`).
   */
  ready(firstChain = false): Promise<void> {
    // A pinned list needs no listing: detection is then never asked, and lists nothing.
    if (!this.detection || !this.detects()) return Promise.resolve();
    return this.detection.ready(firstChain);
  }

  /** Whether any workspace folder's agents are detected (`auto`), not pinned. */
  detects(): boolean {
    const scopes = vscode.workspace.workspaceFolders?.map((f) => f.uri) ?? [undefined];
    return scopes.some((scope) => this.get('agents', scope) === 'auto');
  }

  /** Why an agent is enabled, in a few words: the evidence that detected it, or the setting that pins it. */
  whyEnabled(profile: Profile, scope?: vscode.ConfigurationScope): string {
    if (Array.isArray(this.get('agents', scope))) return 'enabled in instructionLens.agents';
    const d = this.detection?.detections(scope).find((x) => x.profile === profile);
    return d?.used ? `used here: ${d.evidence.join(', ')}` : 'not detected here';
  }

  /** The sentence saying the installed agent is not the version modelled, when the machine said so. */
  versionNotice(profile: Profile): string | undefined {
    return versionNotice(profile, this.detection?.installed(profile.id));
  }

  /** Detected agents follow the workspace: a change of them is a change of `agents` for everything that reads it. */
  useDetection(detection: AgentDetection): vscode.Disposable {
    this.detection = detection;
    return detection.onDidChange(() => {
      if (this.get('agents') !== 'auto') return;
      const key = `${SECTION}.agents`;
      this.emitter.fire({ affectsConfiguration: (section: string) => section === SECTION || section === key || key.startsWith(section + '.') });
    });
  }

  /** The settings one profile reads, by the names it reads them under. */
  profileSettings(profileId: string, scope?: vscode.ConfigurationScope): Record<string, unknown> {
    const profile = PROFILES.find((p) => p.id === profileId);
    if (!profile) return {};
    const out: Record<string, unknown> = {};
    for (const [name, key] of profileSettingKeys(profile)) {
      const value = this.get(key, scope);
      if (value !== null && value !== undefined) out[name] = value;
    }
    // VS Code's own settings a profile reads under their own names (the Copilot profile models
    // Copilot Chat in VS Code, so this window's values are the ones that apply).
    for (const key of profile.editorSettings ?? []) {
      // Only what this window defines: without Copilot Chat the profile keeps its own defaults.
      const value = this.editorSetting(key);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }

  /**
   * An editor setting, kept as ours are until the configuration changes (the diagnostics read
   * every profile's settings for each check and each look at a changed file). Read without a
   * resource: the ones a profile reads are the window's (observed: VS Code 1.139 logs a warning
   * for each, "Accessing a window scoped configuration for a resource is not expected", when one
   * is given), so every scope has the same value.
   */
  private editorSetting(key: string): unknown {
    const cacheKey = `editor\0${key}`;
    if (!this.values.has(cacheKey)) this.values.set(cacheKey, plain(this.configuration(undefined, undefined).get(key)));
    return this.values.get(cacheKey);
  }

  /**
   * VS Code's configuration for a scope, read once until the values are cleared: each
   * `getConfiguration` merges every level of the configuration for its scope again (a quarter of
   * a second of the extension host's thread for the first check's settings, every profile's, under
   * the profiler on a busy machine).
   */
  private configuration(section: string | undefined, scope: vscode.ConfigurationScope | undefined): vscode.WorkspaceConfiguration {
    const cacheKey = `${scopeKey(scope)}\0configuration\0${section ?? ''}`;
    let configuration = this.values.get(cacheKey) as vscode.WorkspaceConfiguration | undefined;
    if (!configuration) this.values.set(cacheKey, (configuration = vscode.workspace.getConfiguration(section, scope)));
    return configuration;
  }

  /** `ResolveContext.settings` for every profile, keyed by profile id (the shape `check()` takes). */
  allProfileSettings(scope?: vscode.ConfigurationScope): Record<string, Record<string, unknown>> {
    return Object.fromEntries(PROFILES.map((p) => [p.id, this.profileSettings(p.id, scope)]));
  }

  /** The home directory: the setting (`~` expanded, relative to the first workspace folder), else the user's. */
  home(scope?: vscode.ConfigurationScope): string {
    const value = this.get('home', scope).trim();
    if (!value) return os.homedir();
    if (value === '~' || value.startsWith('~/')) return path.join(os.homedir(), value.slice(1));
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    return path.resolve(base, value);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/**
 * A configuration scope as a key: the workspace folder its resource is in (VS Code reads a
 * resource's settings from the levels of the folder holding it, so every file of a folder has the
 * same values), one key for every resource outside the folders, and the language with either.
 * Keyed by the file itself, each editor switch to a file not seen yet read the settings anew:
 * a merge of the whole configuration, and a warning VS Code logs for each window-scoped setting
 * read for a resource (about 2 ms of the extension host's thread per switch, under the profiler).
 */
function scopeKey(scope: vscode.ConfigurationScope | undefined): string {
  if (!scope) return '';
  const uri = scope instanceof vscode.Uri ? scope : (scope as { uri?: vscode.Uri }).uri;
  const languageId = scope instanceof vscode.Uri ? undefined : (scope as { languageId?: string }).languageId;
  const folder = uri && vscode.workspace.getWorkspaceFolder(uri);
  return `${folder ? folder.uri.toString() : uri ? '\0outside' : ''}\0${languageId ?? ''}`;
}

/**
 * A setting's value as plain data. VS Code hands an object out as a proxy whose `toJSON` (so
 * `JSON.stringify`, and posting it to a worker) first deep-copies everything the configuration
 * it came from holds: for an editor setting, read from the whole configuration, every setting of
 * every extension (a profiled start-up: the first check's settings, then a collection of what
 * that left behind, 0.1-0.3 s of the extension host's thread). Its keys and values read through
 * the proxy copy nothing.
 */
function plain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(plain) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).map((k) => [k, plain((value as Record<string, unknown>)[k])])) as T;
}

function editorKeys(): string[] {
  return PROFILES.flatMap((p) => p.editorSettings ?? []);
}
