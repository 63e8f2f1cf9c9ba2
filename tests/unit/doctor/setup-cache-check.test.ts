import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/adapters/github/octokit';
import { GitHubRepositorySettings } from '../../../src/adapters/github/repository-settings';
import { diagnose } from '../../../src/domain/doctor';
import { cachePlace, setupCaches } from '../../../src/domain/setup-caches';
import { gatherFacts } from '../../../src/doctor/gather';
import { PROJECT_ROOT } from '../../support/scenario/run-scenario';
import { fakeForTest } from '../fake-github/helpers';
import { restoreEnv } from '../../support/process-env';

/** `crew doctor` on the setup steps' dependency caches (#51): a cache folder inside the checkout is named, with what to do. */
const SHORT_FORM = readFileSync(join(PROJECT_ROOT, 'workflow-templates', 'crew.yml'), 'utf8');
const HEALTHY = { 'README.md': '# widgets\n', '.github/workflows/crew.yml': SHORT_FORM };
const action = (steps: string) => `name: crew-setup\nruns:\n  using: composite\n  steps:\n${steps}`;
const CACHES_NODE_MODULES = action(
  "    - uses: actions/cache@v4\n      with:\n        path: |\n          ~/.npm\n          node_modules\n          !node_modules/.cache\n        key: deps-${{ hashFiles('package-lock.json') }}\n",
);
const SETUP_NODE_NPM = action('    - uses: actions/setup-node@v4\n      with:\n        node-version-file: .nvmrc\n        cache: npm\n');

describe('the setup action’s cache folders', () => {
  it('reads actions/cache’s paths and the setup actions’ package-manager caches, as the repository’s settings move them', () => {
    expect(setupCaches(CACHES_NODE_MODULES)).toEqual([
      { path: '~/.npm', by: 'actions/cache' },
      { path: 'node_modules', by: 'actions/cache' },
    ]);
    expect(setupCaches(SETUP_NODE_NPM)).toEqual([{ path: '~/.npm', by: 'actions/setup-node (cache: npm)' }]);
    expect(setupCaches(SETUP_NODE_NPM, { npmrc: 'registry=https://registry.npmjs.org/\ncache=.npm-cache\n' })).toEqual([
      { path: '.npm-cache', by: 'actions/setup-node (cache: npm)' },
    ]);
    expect(setupCaches(action('    - uses: actions/setup-node@v4\n      with: { cache: yarn }\n'), { yarnrc: 'cacheFolder: ./.yarn/cache\n' })).toEqual([
      { path: './.yarn/cache', by: 'actions/setup-node (cache: yarn)' },
    ]);
    expect(setupCaches(action('    - uses: actions/setup-go@v5\n      with: { go-version-file: go.mod }\n')).map((c) => c.path)).toEqual([
      '~/go/pkg/mod',
      '~/.cache/go-build',
    ]);
    expect(setupCaches(action('    - uses: actions/setup-python@v5\n      with: { cache: pip }\n')).map((c) => c.path)).toEqual(['~/.cache/pip']);
    expect(setupCaches('not: [yaml')).toEqual([]);
  });

  it('places a path as a step resolves it: the runner’s home, the checkout, or elsewhere', () => {
    expect(cachePlace('~/.npm')).toBe('home');
    expect(cachePlace('node_modules')).toBe('checkout');
    expect(cachePlace('./.venv')).toBe('checkout');
    expect(cachePlace('${{ github.workspace }}/.venv')).toBe('checkout');
    expect(cachePlace('$GITHUB_WORKSPACE/vendor')).toBe('checkout');
    expect(cachePlace('../shared-cache')).toBe('elsewhere');
    expect(cachePlace('/opt/cache')).toBe('elsewhere');
    expect(cachePlace('${{ runner.temp }}/x')).toBe('elsewhere');
  });
});

describe('crew doctor: a setup cache inside the checkout', () => {
  const saved = { ...process.env };
  afterEach(() => {
    restoreEnv(saved);
  });

  async function findings(files: Record<string, string>) {
    const gh = await fakeForTest({ files: { ...HEALTHY, ...files } });
    process.env.GITHUB_API_URL = gh.url;
    const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
    const settings = new GitHubRepositorySettings(createClient(gh.userToken('acme'), quiet), { owner: 'acme', repo: 'widgets' }, 'https://github.com');
    return diagnose(await gatherFacts(settings, { asking: 'token' })).filter((f) => f.check === 'setup-cache');
  }

  it('names the path, the step and what to do; a cache in the runner’s home is fine; no setup action, no finding', async () => {
    expect(await findings({ '.github/actions/crew-setup/action.yml': CACHES_NODE_MODULES })).toEqual([
      {
        check: 'setup-cache',
        status: 'problem',
        says: ".github/actions/crew-setup/action.yml caches `node_modules` (actions/cache), inside the checkout: by a job's end model-written code has written there, and the entry saved then would bring its files into later jobs, whose setup runs outside the sandbox.",
        fix: "cache the package manager's own folder, outside the checkout, instead (actions/setup-node's `cache: npm` caches ~/.npm; pip's is ~/.cache/pip), and let `setup:` install from it: docs/workflow.md#dependency-caches",
      },
    ]);
    const moved = await findings({ '.github/actions/crew-setup/action.yml': SETUP_NODE_NPM, '.npmrc': 'cache=.npm-cache\n' });
    expect(moved.map((f) => `${f.status}: ${f.says.split(':')[0]}`)).toEqual([
      'problem: .github/actions/crew-setup/action.yml caches `.npm-cache` (actions/setup-node (cache',
    ]);
    expect(await findings({ '.github/actions/crew-setup/action.yml': SETUP_NODE_NPM })).toEqual([
      { check: 'setup-cache', status: 'ok', says: 'the setup steps (.github/actions/crew-setup/action.yml) cache `~/.npm`, outside the checkout.' },
    ]);
    expect(await findings({})).toEqual([]);
  });

  it('a file it reads over 1 MB is named with what to do, not as a status GitHub answered', async () => {
    const [finding] = await findings({ '.github/actions/crew-setup/action.yml': SETUP_NODE_NPM, '.npmrc': `# ${'x'.repeat(1024 * 1024)}\n` });
    expect(finding).toMatchObject({ check: 'setup-cache', status: 'unknown' });
    expect(finding!.says).toMatch(
      /^the setup action's caches on main: \.npmrc at main is \d+ bytes, too large for GitHub's contents API to send \(1 MB at most\); make it smaller\.$/,
    );
  });
});
