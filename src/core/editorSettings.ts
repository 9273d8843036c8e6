import { parse, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import type { FileSystem } from './fs';
import type { Profile } from './profile';
import { readText } from './readText';

/**
 * The VS Code settings a profile reads (`Profile.editorSettings`), as the folder's own
 * `.vscode/settings.json` sets them: what the CLI passes when no editor is there to ask. The
 * extension reads them from VS Code instead. A file that does not parse sets nothing.
 */
export function folderEditorSettings(fs: FileSystem, folder: string, profile: Profile): Record<string, unknown> {
  const keys = profile.editorSettings ?? [];
  if (!keys.length) return {};
  const read = readText(fs, fs.path.join(folder, '.vscode', 'settings.json'));
  if (read.state !== 'ok') return {};
  const errors: ParseError[] = [];
  const json: unknown = parse(read.text, errors, { allowTrailingComma: true });
  if (errors.length || !json || typeof json !== 'object' || Array.isArray(json)) return {};
  const out: Record<string, unknown> = {};
  for (const key of keys) if (key in json) out[key] = (json as Record<string, unknown>)[key];
  return out;
}
