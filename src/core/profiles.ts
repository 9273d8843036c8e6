import type { Profile } from './profile';
import { claudeCode } from './profiles/claudeCode';
import { clawCode, clawCodeHead } from './profiles/clawCode';
import { codex } from './profiles/codex';
import { geminiCli } from './profiles/geminiCli';
import { car } from './profiles/car';
import { cursor } from './profiles/cursor';
import { scaling } from './profiles/scaling';
import { copilotCli } from './profiles/copilotCli';
import { copilot } from './profiles/copilot';

/** Every agent profile, in the order the CLI and the extension list them. */
export const PROFILES: readonly Profile[] = [claudeCode, clawCode, clawCodeHead, codex, geminiCli, cursor, car, scaling, copilotCli, copilot];

export function findProfile(id: string): Profile | undefined {
  return PROFILES.find((p) => p.id === id);
}
