import type { Profile } from './profile';
import { claudeCode } from './profiles/claudeCode';
import { clawCode, clawCodeHead } from './profiles/clawCode';

/** Every agent profile, in the order the CLI and the extension list them. */
export const PROFILES: readonly Profile[] = [claudeCode, clawCode, clawCodeHead];

export function findProfile(id: string): Profile | undefined {
  return PROFILES.find((p) => p.id === id);
}
