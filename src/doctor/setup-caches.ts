import { ok, type Read } from '../domain/doctor';
import { setupCaches, type SetupCache } from '../domain/setup-caches';
import { SETUP_ACTION_PATH } from '../domain/toolchain-setup';
import type { RepositorySettings } from '../ports';

/** The setup action's cache folders on the default branch (domain/setup-caches.ts); undefined when there is no setup action. */
export async function setupCacheFacts(settings: RepositorySettings): Promise<Read<SetupCache[]> | undefined> {
  const reads = await Promise.all([SETUP_ACTION_PATH, '.npmrc', '.yarnrc.yml'].map((f) => settings.defaultBranchFile(f)));
  const refused = reads.find((r) => !r.ok);
  if (refused && !refused.ok) return refused;
  const [action, npmrc, yarnrc] = reads.map((r) => (r.ok && r.value !== null ? r.value : undefined));
  if (action === undefined) return undefined;
  return ok(setupCaches(action, { ...(npmrc !== undefined ? { npmrc } : {}), ...(yarnrc !== undefined ? { yarnrc } : {}) }));
}
