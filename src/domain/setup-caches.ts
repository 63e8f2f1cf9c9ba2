import { posix } from 'node:path';
import { parse } from 'yaml';
import { SETUP_ACTION_PATH } from './toolchain-setup';

/**
 * The folders the repository's setup steps (.github/actions/crew-setup, #51) restore from a dependency cache
 * and save back at the job's end: `actions/cache`'s `path:` lines, and the package manager's cache folder
 * that `actions/setup-node`, `actions/setup-python` and `actions/setup-go` cache with their `cache:` input
 * (each action's README: npm's `npm config get cache`, pnpm's store, yarn's cache folder, pip's, Go's module
 * and build caches). `crew doctor` says when one lies inside the checkout (cacheFindings); crew's
 * sandboxed setup starts from a copy of those under the runner's home.
 */
export interface SetupCache {
  /** As the step says it: `~/.npm`, `node_modules`, `${{ github.workspace }}/.venv`. */
  path: string;
  /** Which step caches it: `actions/cache`, `actions/setup-node (cache: npm)`. */
  by: string;
}

/**
 * The package managers' own cache folders in a home, as each keeps them by default: what crew's sandboxed
 * setup on a model-written tree starts from, copied from the runner's home where the setup steps restored
 * them (npm, pip, yarn 1, pnpm, Poetry, Go's modules and builds, Cargo's registry and git checkouts).
 */
export const HOME_CACHES: readonly string[] = [
  '.npm',
  '.cache/pip',
  '.cache/yarn',
  '.local/share/pnpm/store',
  '.cache/pypoetry',
  'go/pkg/mod',
  '.cache/go-build',
  '.cargo/registry',
  '.cargo/git',
];

/** The repository's own settings that move a package manager's cache: `.npmrc` (`cache=`, `store-dir=`) and `.yarnrc.yml` (`cacheFolder:`). */
export interface CacheSettings {
  npmrc?: string;
  yarnrc?: string;
}

const setting = (text: string | undefined, key: RegExp) =>
  text
    ?.split('\n')
    .map((l) =>
      key
        .exec(l.trim())?.[1]
        ?.trim()
        .replace(/^["']|["']$/g, ''),
    )
    .find((v) => v);

/** A setup action's package-manager caches: where each manager keeps its cache, as its own settings say. */
function managerCaches(tool: string, cache: string, settings: CacheSettings): string[] {
  if (tool === 'node') {
    if (cache === 'npm') return [setting(settings.npmrc, /^cache\s*=\s*(.+)$/) ?? '~/.npm'];
    if (cache === 'pnpm') return [setting(settings.npmrc, /^store-dir\s*=\s*(.+)$/) ?? '~/.local/share/pnpm/store'];
    if (cache === 'yarn') return [setting(settings.yarnrc, /^cacheFolder\s*:\s*(.+)$/) ?? '~/.cache/yarn'];
  }
  if (tool === 'python') {
    if (cache === 'pip') return ['~/.cache/pip'];
    if (cache === 'pipenv') return ['~/.local/share/virtualenvs'];
    if (cache === 'poetry') return ['~/.cache/pypoetry'];
  }
  if (tool === 'go' && cache !== 'false') return ['~/go/pkg/mod', '~/.cache/go-build'];
  return [];
}

/** The cache folders a setup action's steps name; none when its text is not YAML with `runs.steps`. */
export function setupCaches(actionYml: string, settings: CacheSettings = {}): SetupCache[] {
  let doc: unknown;
  try {
    doc = parse(actionYml);
  } catch {
    return [];
  }
  const steps = (doc as { runs?: { steps?: unknown } } | null)?.runs?.steps;
  if (!Array.isArray(steps)) return [];
  const out: SetupCache[] = [];
  for (const step of steps as Array<{ uses?: unknown; with?: Record<string, unknown> } | null>) {
    const uses = typeof step?.uses === 'string' ? step.uses.split('@')[0]!.trim() : '';
    const inputs = step?.with ?? {};
    if (/^actions\/cache(\/restore|\/save)?$/.test(uses))
      for (const line of String(inputs.path ?? '').split('\n')) {
        const path = line.trim();
        if (path && !path.startsWith('!')) out.push({ path, by: uses });
      }
    const tool = /^actions\/setup-(node|python|go)$/.exec(uses)?.[1];
    // setup-go caches by default (v4 on); the others only when `cache:` names a manager.
    const cache = inputs.cache === undefined ? (tool === 'go' ? 'true' : '') : String(inputs.cache).trim();
    if (tool && cache) for (const path of managerCaches(tool, cache, settings)) out.push({ path, by: `${uses} (cache: ${cache})` });
  }
  return out;
}

/** Where `path` lies as a step resolves it: `~/…` in the runner's home, a relative path or one under the workspace in the checkout; `elsewhere` otherwise (an absolute path, another variable). */
export function cachePlace(path: string): 'home' | 'checkout' | 'elsewhere' {
  const p = path.trim();
  if (p === '~' || p.startsWith('~/')) return 'home';
  const workspace = /^(\$\{\{\s*github\.workspace\s*\}\}|\$GITHUB_WORKSPACE|\$\{GITHUB_WORKSPACE\})(\/|$)/.exec(p);
  if (!workspace && (p.startsWith('/') || p.startsWith('$'))) return 'elsewhere';
  const normal = posix.normalize((workspace ? p.slice(workspace[0].length) : p) || '.');
  return normal === '..' || normal.startsWith('../') ? 'elsewhere' : 'checkout';
}

/**
 * `crew doctor`'s finding on the setup steps' caches: a folder inside the checkout is a problem. By a job's end
 * model-written code has written in the checkout (node_modules, .venv), and the entry the cache saves then would
 * bring it back in a later job, where setup on the base commit runs it outside the sandbox.
 */
export function cacheFindings(caches: readonly SetupCache[]): Array<{ status: 'ok' | 'problem'; says: string; fix?: string }> {
  if (!caches.length) return [];
  const inside = caches.filter((c) => cachePlace(c.path) === 'checkout');
  if (!inside.length)
    return [{ status: 'ok', says: `the setup steps (${SETUP_ACTION_PATH}) cache ${caches.map((c) => `\`${c.path}\``).join(', ')}, outside the checkout.` }];
  return inside.map((c) => ({
    status: 'problem' as const,
    says: `${SETUP_ACTION_PATH} caches \`${c.path}\` (${c.by}), inside the checkout: by a job's end model-written code has written there, and the entry saved then would bring its files into later jobs, whose setup runs outside the sandbox.`,
    fix: `cache the package manager's own folder, outside the checkout, instead (actions/setup-node's \`cache: npm\` caches ~/.npm; pip's is ~/.cache/pip), and let \`setup:\` install from it: docs/workflow.md#dependency-caches`,
  }));
}
