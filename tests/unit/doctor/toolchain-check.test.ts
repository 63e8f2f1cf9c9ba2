import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../src/adapters/github/octokit';
import { GitHubRepositorySettings } from '../../../src/adapters/github/repository-settings';
import { diagnose, type Finding } from '../../../src/domain/doctor';
import { toolchainFindings } from '../../../src/domain/toolchain-check';
import { versionMeets } from '../../../src/domain/version-range';
import { gatherFacts } from '../../../src/doctor/gather';
import { runnerToolchains } from '../../../src/doctor/runner-toolchains';
import { PROJECT_ROOT } from '../../support/scenario/run-scenario';
import { fakeForTest } from '../fake-github/helpers';
import { restoreEnv } from '../../support/process-env';

/** `crew doctor`'s toolchain check (#51): the versions the default branch's files declare, against the setup steps and the runner's programs. */
const SHORT_FORM = readFileSync(join(PROJECT_ROOT, 'workflow-templates', 'crew.yml'), 'utf8');
const HEALTHY = { 'README.md': '# widgets\n', '.github/workflows/crew.yml': SHORT_FORM };
const NODE_18 = { ...HEALTHY, '.nvmrc': '18\n', 'package.json': '{"name":"w"}' };
const SETS_UP_GO = 'name: setup\nruns:\n  using: composite\n  steps:\n    - uses: actions/setup-go@v5\n      with: { go-version-file: go.mod }\n';

const toolchain = (findings: Finding[]) => findings.filter((f) => f.check === 'toolchain');

describe('whether a runner’s version meets what a file asks for', () => {
  it.each([
    ['18', 'v18.19.0', true],
    ['18', 'v24.1.0', false],
    ['v20.11.1', '20.11.1', true],
    ['20.x', '20.3.0', true],
    ['>=20', '24.1.0', true],
    ['>=20 <22', '22.0.0', false],
    ['^18.17.0 || >=20.3.0', '20.4.0', true],
    ['^18.17.0 || >=20.3.0', '19.0.0', false],
    ['~1.2', '1.2.9', true],
    ['~1.2', '1.3.0', false],
    ['3.12', '3.12.3', true],
    ['3.12', '3.13.0', false],
    ['>=3.9', '3.12.3', true],
    ['>=3.9,<3.12', '3.12.3', false],
    ['~=3.11', '3.13.1', true],
    ['~=3.11.2', '3.12.0', false],
    ['1.22.3', 'go1.22.3', true],
    ['1.22', '1.21.9', false],
    ['1.78.0', '1.78.0', true],
  ])('%s with %s: %s', (asked, found, meets) => {
    expect(versionMeets(asked, found)).toBe(meets);
  });

  it.each([['lts/*'], ['node'], ['stable'], ['nightly-2024-05-01'], ['18 - 20']])('cannot tell for %s', (asked) => {
    expect(versionMeets(asked, '20.1.0')).toBeUndefined();
  });
});

describe('/crew doctor in a job: the runner’s own programs', () => {
  const saved = { ...process.env };
  afterEach(() => {
    restoreEnv(saved);
  });

  /** The facts as the route job gathers them, with the runner's versions given. */
  async function inJob(files: Record<string, string>, runner: Record<string, string | null>) {
    const gh = await fakeForTest({ files });
    process.env.GITHUB_API_URL = gh.url;
    const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
    const settings = new GitHubRepositorySettings(createClient(gh.userToken('acme'), quiet), { owner: 'acme', repo: 'widgets' }, 'https://github.com');
    const asked: string[][] = [];
    const facts = await gatherFacts(settings, {
      asking: 'job',
      jobHasKey: true,
      runnerToolchains: async (tools) => (asked.push(tools), Object.fromEntries(tools.map((t) => [t, runner[t] ?? null]))),
    });
    return { findings: toolchain(diagnose(facts)), asked };
  }

  it('.nvmrc says 18, the runner’s node is 24, no setup steps: a problem naming the file, both versions and the fix', async () => {
    const { findings, asked } = await inJob(NODE_18, { node: '24.1.0' });
    expect(asked).toEqual([['node']]);
    expect(findings).toEqual([
      {
        check: 'toolchain',
        status: 'problem',
        says: "`.nvmrc` asks for Node 18, but the runner's node is 24.1.0, and there is no .github/actions/crew-setup/action.yml to set it up: crew's jobs would build and test with the wrong version.",
        fix: '`npx crew init` writes .github/actions/crew-setup/action.yml with actions/setup-node with node-version-file (it keeps one you have: add the step yourself, docs/workflow.md)',
      },
    ]);
  });

  it('python and go the same; setup steps that set up go but not python flag only python; a runner without the program', async () => {
    const files = {
      ...HEALTHY,
      '.python-version': '3.11\n',
      'go.mod': 'module m\n\ngo 1.22\n',
      '.github/actions/crew-setup/action.yml': SETS_UP_GO,
    };
    const { findings, asked } = await inJob(files, { python: '3.12.3', go: '1.21.0' });
    expect(asked).toEqual([['python']]);
    expect(findings.map((f) => `${f.status}: ${f.says}`)).toEqual([
      "problem: `.python-version` asks for Python 3.11, but the runner's python3 is 3.12.3, and .github/actions/crew-setup/action.yml does not set python up: crew's jobs would build and test with the wrong version.",
      'ok: `go.mod (go line)` asks for Go 1.22; the setup steps (.github/actions/crew-setup/action.yml) set go up.',
    ]);
    const missing = await inJob({ ...HEALTHY, 'go.mod': 'module m\n\ngo 1.22\n' }, {});
    expect(missing.findings.map((f) => `${f.status}: ${f.says}`)).toEqual([
      'problem: `go.mod (go line)` asks for Go 1.22, the runner has no go, and there is no .github/actions/crew-setup/action.yml to set it up.',
    ]);
  });

  it('ok when the runner’s own version meets it (pyproject’s requires-python)', async () => {
    const { findings } = await inJob({ ...HEALTHY, 'pyproject.toml': '[project]\nname = "w"\nrequires-python = ">=3.9"\n' }, { python: '3.12.3' });
    expect(findings.map((f) => f.status)).toEqual(['ok']);
    expect(findings[0]!.says).toBe("`pyproject.toml (requires-python)` asks for Python >=3.9; the runner's python3 is 3.12.3, which meets it.");
  });
});

describe("the runner's programs, asked for their versions", () => {
  it('a program that does not answer in time is reported as silent, not missing, and the finding says how long crew waited', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'crew-silent-go-'));
    try {
      await writeFile(join(bin, 'go'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
      vi.stubEnv('PATH', `${bin}:${process.env.PATH}`);
      const found = await runnerToolchains(['go'], 300);
      expect(found).toEqual({ go: { silentForMs: 300 } });
      const [finding] = toolchainFindings(
        { declared: [{ tool: 'go', version: '1.22', source: 'go.mod (go line)', file: 'go.mod' }], setUp: null, runner: { go: { silentForMs: 15_000 } } },
        'job',
      );
      expect(finding).toEqual({
        status: 'unknown',
        says: "`go.mod (go line)` asks for Go 1.22; the runner's `go version` did not answer in 15 s, so crew cannot tell its version, and there is no .github/actions/crew-setup/action.yml to set it up.",
        fix: '`npx crew init` writes .github/actions/crew-setup/action.yml with actions/setup-go with go-version-file (it keeps one you have: add the step yourself, docs/workflow.md)',
      });
    } finally {
      vi.unstubAllEnvs();
      await rm(bin, { recursive: true, force: true });
    }
  });

  it("this machine's node answers with its version; a program not on PATH is null", async () => {
    const found = await runnerToolchains(['node']);
    expect(found.node).toMatch(/^\d+\.\d+\.\d+$/);
    vi.stubEnv('PATH', '/nonexistent');
    try {
      expect(await runnerToolchains(['node', 'go'])).toEqual({ node: null, go: null });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
