import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/domain/doctor';
import { main } from '../../../src/cli/main';
import type { FakeGitHub } from '../../support/github/fake-github';
import type { RepoSettings } from '../../support/github/model';
import { PROJECT_ROOT } from '../../support/scenario/run-scenario';
import { fakeForTest } from '../fake-github/helpers';
import { restoreEnv } from '../../support/process-env';

const SHORT_FORM = readFileSync(join(PROJECT_ROOT, 'workflow-templates', 'crew.yml'), 'utf8');
const HEALTHY_FILES = {
  'README.md': '# widgets\n',
  '.github/workflows/crew.yml': SHORT_FORM,
  '.github/crew.yml': 'setup:\n  - npm ci\ncriteria:\n  - npm test\n',
};
const HEALTHY_SETTINGS: Partial<RepoSettings> = { secrets: ['ANTHROPIC_API_KEY'] };

/** `crew doctor --repo acme/widgets [--json]` against the fake, as a person runs it with their token. */
async function doctor(gh: FakeGitHub, login = 'acme', json = true): Promise<{ code: number; out: string; findings: Finding[] }> {
  process.env.GITHUB_API_URL = gh.url;
  process.env.GITHUB_TOKEN = gh.userToken(login);
  let out = '';
  const code = await main(['doctor', '--repo', `${gh.owner}/${gh.repoName}`, ...(json ? ['--json'] : [])], { write: (t) => void (out += t) }, false);
  return { code, out, findings: json ? (JSON.parse(out) as { findings: Finding[] }).findings : [] };
}

const problems = (findings: Finding[]) => findings.filter((f) => f.status === 'problem');

describe('crew doctor with an admin’s token, against the fake GitHub', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    delete process.env.GH_TOKEN;
    process.env.GITHUB_SERVER_URL = 'https://github.com';
  });
  afterEach(() => {
    restoreEnv(saved);
  });

  it('a repository set up as crew init leaves it (and its secret set) is healthy: every check ok, exit 0', async () => {
    const gh = await fakeForTest({ files: HEALTHY_FILES, settings: HEALTHY_SETTINGS });
    const { code, out, findings } = await doctor(gh);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ repository: 'acme/widgets', defaultBranch: 'main', healthy: true });
    expect(findings.map((f) => `${f.check}:${f.status}`)).toEqual([
      'actions:ok',
      'pull-requests:ok',
      'workflow-permissions:ok',
      'branch-rules:ok',
      'state-branch:ok',
      'workflow-file:ok',
      'config:ok',
      'secret:ok',
    ]);
    expect(findings.find((f) => f.check === 'workflow-file')!.says).toContain('the short form, at v1');
    // The secret's value is never read: only its name was asked for.
    expect(gh.requests.filter((r) => r.route.includes('/actions/secrets/')).map((r) => r.path)).toEqual([
      '/repos/acme/widgets/actions/secrets/ANTHROPIC_API_KEY',
    ]);
  });

  // Each misconfiguration alone, on an otherwise healthy repository: the one finding it causes, and its fix.
  const cases: Array<{
    name: string;
    settings?: Partial<RepoSettings>;
    files?: Record<string, string | undefined>;
    check: string;
    says: RegExp;
    fix: RegExp;
    stateBranch?: boolean;
  }> = [
    {
      name: 'Actions turned off',
      settings: { actions_enabled: false },
      check: 'actions',
      says: /turned off/,
      fix: /https:\/\/github\.com\/acme\/widgets\/settings\/actions/,
    },
    {
      name: 'Actions may not create pull requests',
      settings: { actions_can_create_pull_requests: false },
      check: 'pull-requests',
      says: /may not create pull requests/,
      fix: /settings\/actions: Workflow permissions → tick "Allow GitHub Actions to create and approve pull requests"/,
    },
    {
      name: "a ruleset requiring signed commits on crew's branches",
      settings: { ruleset_branch_prefixes: ['crew/1/'] },
      check: 'branch-rules',
      says: /a ruleset refuses crew's pushes .*required_signatures/,
      fix: /settings\/rules: leave `crew\/\*\*` out of the ruleset's branches, or add crew's token .* bypass list/,
    },
    {
      name: 'branch protection on crew/state',
      settings: { protected_branches: ['crew/state'] },
      stateBranch: true,
      check: 'state-branch',
      says: /branch protection rule covers `crew\/state`/,
      fix: /settings\/branches: remove `crew\/state`/,
    },
    {
      name: 'no workflow on the default branch',
      files: { '.github/workflows/crew.yml': undefined },
      check: 'workflow-file',
      says: /no \.github\/workflows\/crew\.yml on main/,
      fix: /npx crew init/,
    },
    {
      name: 'an invalid .github/crew.yml',
      files: { '.github/crew.yml': 'max_parallel: lots\n' },
      check: 'config',
      says: /\.github\/crew\.yml is not valid: .*max_parallel/,
      fix: /edit https:\/\/github\.com\/acme\/widgets\/edit\/main\/\.github\/crew\.yml/,
    },
    {
      name: 'no ANTHROPIC_API_KEY secret',
      settings: { secrets: [] },
      check: 'secret',
      says: /no ANTHROPIC_API_KEY secret/,
      fix: /gh secret set ANTHROPIC_API_KEY/,
    },
  ];

  it.each(cases)('names $name with its fix, and exits 1', async ({ settings, files, check, says, fix, stateBranch }) => {
    const all = Object.fromEntries(Object.entries({ ...HEALTHY_FILES, ...files }).filter((e): e is [string, string] => e[1] !== undefined));
    const gh = await fakeForTest({ files: all, settings: { ...HEALTHY_SETTINGS, ...settings } });
    // crew/state exists once crew has run (made here by the fake, as GitHub lets an admin make it before the rule).
    if (stateBranch) await gh.repo.setRef('refs/heads/crew/state', (await gh.repo.branchSha('main'))!);
    const { code, findings } = await doctor(gh);
    expect(code).toBe(1);
    expect(problems(findings).map((f) => f.check)).toEqual([check]);
    const found = problems(findings)[0]!;
    expect(found.says).toMatch(says);
    expect(found.fix).toMatch(fix);
  });

  it('prints each finding with its fix at the terminal', async () => {
    const gh = await fakeForTest({ files: HEALTHY_FILES, settings: { actions_can_create_pull_requests: false } });
    const { code, out } = await doctor(gh, 'acme', false);
    expect(code).toBe(1);
    expect(out).toContain('crew doctor: acme/widgets (default branch main)');
    expect(out).toMatch(/ {2}FIX {3}GitHub Actions may not create pull requests.*\n {8}fix: https:\/\/github\.com\/acme\/widgets\/settings\/actions/);
    expect(out).toMatch(/ {2}FIX {3}the repository has no ANTHROPIC_API_KEY secret/);
    expect(out.trimEnd().split('\n').at(-1)).toBe('2 things to fix before crew can run here.');
  });

  it("a writer's token cannot read the admin-only settings: those checks are unknown, each saying where to look, never a problem", async () => {
    const gh = await fakeForTest({ files: HEALTHY_FILES, settings: HEALTHY_SETTINGS });
    gh.addUser('wendy', { permission: 'write' });
    const { code, findings } = await doctor(gh, 'wendy');
    expect(code).toBe(0);
    const unknown = findings.filter((f) => f.status === 'unknown');
    expect(unknown.map((f) => f.check)).toEqual(['actions', 'pull-requests']);
    expect(unknown[0]!.says).toContain('your token cannot read it (it needs admin');
    expect(unknown[0]!.fix).toBe('https://github.com/acme/widgets/settings/actions');
  });

  // The toolchain check (#51) with a token: the runner is not here to ask (/crew doctor in a job asks it: toolchain-check.test.ts).
  const NODE_18 = { ...HEALTHY_FILES, '.nvmrc': '18\n', 'package.json': '{"name":"w"}' };
  const toolchain = (findings: Finding[]) => findings.filter((f) => f.check === 'toolchain');

  it('.nvmrc and no setup steps: a note naming the file and the version, and that crew init writes the steps', async () => {
    const { code, findings } = await doctor(await fakeForTest({ files: NODE_18, settings: HEALTHY_SETTINGS }));
    expect(code).toBe(0);
    expect(toolchain(findings)).toEqual([
      {
        check: 'toolchain',
        status: 'note',
        says: "`.nvmrc` asks for Node 18, and there is no .github/actions/crew-setup/action.yml to set it up: crew's jobs use the runner's own node, whichever version that is.",
        fix: "`npx crew init` writes .github/actions/crew-setup/action.yml with actions/setup-node with node-version-file (it keeps one you have: add the step yourself, docs/workflow.md); `/crew doctor` on an issue compares it with the runner's",
      },
    ]);
  });

  it('a lockfile over the contents API’s 1 MB does not cost the toolchain check (its contents are never needed)', async () => {
    const lock = `{"lockfileVersion":3,"packages":{${Array.from({ length: 30_000 }, (_, i) => `"node_modules/p${i}":{"version":"1.0.0"}`).join(',')}}}`;
    expect(Buffer.byteLength(lock)).toBeGreaterThan(1024 * 1024);
    const { findings } = await doctor(await fakeForTest({ files: { ...NODE_18, 'package-lock.json': lock }, settings: HEALTHY_SETTINGS }));
    expect(toolchain(findings)).toEqual([expect.objectContaining({ status: 'note', says: expect.stringContaining('`.nvmrc` asks for Node 18') })]);
  });

  it('a toolchain file or crew.yml over 1 MB is named in its finding, and every other check still runs (exit 1, no throw)', async () => {
    const big = `[project]\nname = "w"\nrequires-python = ">=3.9"\n# ${'x'.repeat(1024 * 1024)}\n`;
    const { code, findings } = await doctor(
      await fakeForTest({ files: { ...NODE_18, 'pyproject.toml': big, '.github/crew.yml': `# ${'y'.repeat(1024 * 1024)}\n` }, settings: HEALTHY_SETTINGS }),
    );
    expect(code).toBe(1);
    expect(findings.map((f) => `${f.check}:${f.status}`)).toEqual([
      'actions:ok',
      'pull-requests:ok',
      'workflow-permissions:ok',
      'branch-rules:ok',
      'state-branch:ok',
      'workflow-file:ok',
      'config:problem',
      'toolchain:note',
      'toolchain:unknown',
      'secret:ok',
    ]);
    expect(findings.find((f) => f.check === 'config')!.says).toMatch(
      /^\.github\/crew\.yml at main is \d+ bytes, too large for GitHub's contents API to send \(1 MB at most\)/,
    );
    // .nvmrc still read and checked; pyproject.toml said, by name.
    expect(toolchain(findings)[0]!.says).toContain('`.nvmrc` asks for Node 18');
    expect(toolchain(findings)[1]!.says).toMatch(
      /^pyproject\.toml at main is \d+ bytes, too large for GitHub's contents API .*: a toolchain version it may declare was not checked\.$/,
    );
  });

  it('no toolchain finding when no file declares a version; ok when the setup steps set the toolchain up', async () => {
    expect(toolchain((await doctor(await fakeForTest({ files: HEALTHY_FILES }))).findings)).toEqual([]);
    const action = 'name: setup\nruns:\n  using: composite\n  steps:\n    - uses: actions/setup-node@v4\n      with: { node-version-file: .nvmrc }\n';
    const covered = await fakeForTest({ files: { ...NODE_18, '.github/actions/crew-setup/action.yml': action } });
    expect(toolchain((await doctor(covered)).findings)).toEqual([
      { check: 'toolchain', status: 'ok', says: '`.nvmrc` asks for Node 18; the setup steps (.github/actions/crew-setup/action.yml) set node up.' },
    ]);
  });

  it('says what to do without a token, with an unknown repository, and for a bad --repo', async () => {
    const gh = await fakeForTest({ files: HEALTHY_FILES });
    delete process.env.GITHUB_TOKEN;
    let out = '';
    const write = { write: (t: string) => void (out += t) };
    expect(await main(['doctor', '--repo', 'acme/widgets'], write, false)).toBe(2);
    expect(out).toContain('set GITHUB_TOKEN or GH_TOKEN (GITHUB_TOKEN=$(gh auth token) npx crew doctor)');
    process.env.GITHUB_API_URL = gh.url;
    process.env.GITHUB_TOKEN = gh.userToken('acme');
    out = '';
    expect(await main(['doctor', '--repo', 'acme/gadgets'], write, false)).toBe(2);
    expect(out).toContain('GitHub shows no repository acme/gadgets to this token (404)');
    out = '';
    expect(await main(['doctor', '--repo', 'widgets'], write, false)).toBe(2);
    expect(out).toContain('--repo is OWNER/NAME');
  });
});
