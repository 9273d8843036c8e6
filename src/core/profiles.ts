import type { Profile } from './profile';
import profileModules from 'virtual:profile-modules';

/** A profile among a profile file's exports (which may also export helpers and constants). */
function isProfile(value: unknown): value is Profile {
  return typeof value === 'object' && value !== null && typeof (value as Profile).id === 'string' && typeof (value as Profile).resolve === 'function';
}

/**
 * Every agent profile: each one exported by a file in `profiles/` (found by the build, so adding
 * an agent is adding its file), in the order the CLI and the extension list them (`order`); the
 * first is the default agent.
 */
export const PROFILES: readonly Profile[] = profileModules.flatMap((m) => Object.values(m).filter(isProfile)).sort((a, b) => a.order - b.order);

/** The profiles by id: merging asks for each problem's agents (thousands at a workspace's first publish). */
const BY_ID = new Map(PROFILES.map((p) => [p.id, p]));

export function findProfile(id: string): Profile | undefined {
  return BY_ID.get(id);
}
