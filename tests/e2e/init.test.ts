import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { git, FIXTURE_IDENTITY } from '../support/git-cli';
import { PROJECT_ROOT, runScenario, type ScenarioResult } from '../support/scenario/run-scenario';
import { ScenarioSchema } from '../support/scenario/schema';
import { needToolchains, type Toolchain } from '../support/toolchains';
import { crewComments, expectFaithful } from './helpers';

/**
 * `crew init` as a person runs it (the bundled CLI, in a clone of their repository, --yes), then the
 * repository's first crew run on the offline world with exactly the files it wrote: its workflow and
 * its .github/crew.yml, whose setup runs before the worker and whose criteria the critic runs.
 */
const run = promisify(execFile);
const CREW = join(PROJECT_ROOT, 'bin', 'crew.js');
const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function filesUnder(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      if (e.isDirectory()) await walk(join(d, e.name));
      else out[relative(dir, join(d, e.name))] = await readFile(join(d, e.name), 'utf8');
    }
  };
  await walk(dir);
  return out;
}

/** A clone of the fixture (one commit), and what `crew init --yes` printed (the short workflow, its default) and wrote in it. */
async function initIn(fixture: string): Promise<{ printed: string; files: Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'crew-init-e2e-'));
  temps.push(dir);
  await cp(join(PROJECT_ROOT, 'tests', 'scenarios', 'fixtures', fixture), dir, { recursive: true });
  const env = { ...FIXTURE_IDENTITY, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  await git(['init', '--quiet', '--initial-branch', 'main'], { cwd: dir, env });
  await git(['add', '-A'], { cwd: dir, env });
  await git(['commit', '--quiet', '-m', 'tally'], { cwd: dir, env });
  await git(['remote', 'add', 'origin', 'https://github.com/acme/widgets.git'], { cwd: dir, env });
  const { stdout } = await run(process.execPath, [CREW, 'init', '--yes'], { cwd: dir });
  return { printed: stdout, files: await filesUnder(dir) };
}

/** A worker's report is at least 20 lines (crew sends a shorter one back). */
const DETAILS = Array.from({ length: 20 }, (_, i) => `- NOTES.md, report line ${i + 1}`).join('\n');
const reply = (name: string, input: Record<string, unknown>) => ({ content: [{ type: 'tool_use', name, input }] });

/** The first run: one task (intake keeps it whole) that writes NOTES.md; the critic runs the configured criteria itself. */
function firstRun(name: string, files: Record<string, string>) {
  return ScenarioSchema.parse({
    name,
    description: `The first crew run on a repository crew init set up (${name}).`,
    repo: { files },
    users: [{ login: 'maintainer', permission: 'write' }],
    issue: { title: 'Write NOTES.md', body: 'Add NOTES.md saying what tally counts.', author: 'maintainer' },
    timeline: [{ comment: '/crew run', author: 'maintainer' }, { wait: 'idle' }],
    model: {
      entries: [
        {
          role: 'intake',
          replies: [
            reply('submit_intake', {
              task: 'Add NOTES.md saying what tally counts.',
              criteria: [{ text: 'NOTES.md says that tally counts words', kind: 'semantic' }],
              questions: [],
              single_task: true,
              persona: 'writer',
              model: 'haiku',
            }),
          ],
        },
        { role: 'plan_reviewer', replies: [reply('submit_review', { verdict: 'PASS' })] },
        {
          role: 'worker',
          task: 't1',
          replies: [
            reply('write_file', { path: 'NOTES.md', content: '# Notes\n\ntally counts the words in a text.\n' }),
            reply('report_result', { status: 'success', quality: 'GREEN', completeness: 100, summary: 'Wrote NOTES.md.', details: DETAILS }),
          ],
        },
      ],
    },
  });
}

/** Each fixture's criteria run for real in the critic's sandbox, so they need their toolchain (tests/support/toolchains.ts). */
const SETUP_ACTION = '.github/actions/crew-setup/action.yml';
/** `setupStep`: the one step the setup action holds, when the fixture declares a toolchain version (#51). */
const cases: Array<{ fixture: string; setup: string[]; criteria: string[]; needs: Toolchain[]; setupStep?: Record<string, unknown> }> = [
  { fixture: 'init-npm', setup: ['npm ci'], criteria: ['npm test'], needs: [] },
  {
    fixture: 'init-python',
    setup: [],
    criteria: ['python3 -m unittest discover'],
    needs: ['python3'],
    setupStep: { name: 'Python >=3.9 (pyproject.toml (requires-python))', uses: 'actions/setup-python@v5', with: { 'python-version-file': 'pyproject.toml' } },
  },
  {
    fixture: 'init-go',
    setup: ['go mod download'],
    criteria: ['go vet ./...', 'go test ./...'],
    needs: ['go'],
    setupStep: { name: 'Go 1.19 (go.mod (go line))', uses: 'actions/setup-go@v5', with: { 'go-version-file': 'go.mod', cache: false } },
  },
];

describe('crew init, then the first run with the files it wrote', () => {
  it.for(cases)(
    '$fixture: init proposes its setup and criteria, and the first run opens a pull request with every criterion met',
    { timeout: 360_000 },
    async ({ fixture, setup, criteria, needs, setupStep }, ctx) => {
      const { printed, files: written } = await initIn(fixture);
      // The setup steps init wrote, when the fixture declares a version, as the bundled CLI wrote them.
      if (setupStep) {
        expect((parse(written[SETUP_ACTION]!) as { runs: { steps: unknown[] } }).runs.steps).toEqual([setupStep]);
        expect(printed).toContain(`Wrote ${SETUP_ACTION}.`);
      } else expect(written[SETUP_ACTION]).toBeUndefined();
      // The run below is played with every file init wrote, its setup action included: the offline runner stands in
      // for actions/setup-python and actions/setup-go (tests/support/runner/setup-actions.ts).
      const files = written;
      expect(printed).toContain(`Proposed setup: ${setup.length ? setup.join(' && ') : 'none'}`);
      expect(printed).toContain(`Proposed criteria: ${criteria.join('; ')}`);
      expect(printed).toContain('gh secret set ANTHROPIC_API_KEY');
      expect(printed).toContain('https://github.com/acme/widgets/settings/actions');
      expect(files['.github/workflows/crew.yml']).toMatch(/uses: your-org\/crew\/\.github\/workflows\/crew-jobs\.yml@v1$/m);
      for (const c of [...setup, ...criteria]) expect(files['.github/crew.yml']).toContain(JSON.stringify(c));
      // What init proposes needs no toolchain; the run that follows runs its commands.
      await needToolchains(ctx, ...needs);

      // CREW_SCENARIO_OUT=<dir> keeps each run's result.json and job logs, as play() does.
      const outDir = process.env.CREW_SCENARIO_OUT ? join(process.env.CREW_SCENARIO_OUT, fixture) : undefined;
      let played: Array<{ job: string; uses: string; with: Record<string, unknown> }> = [];
      let judgment: { evaluations: Array<{ kind: string; text: string; met: boolean; evidence: string[] }> } | undefined;
      const r: ScenarioResult = await runScenario(firstRun(fixture, files), {
        baseDir: PROJECT_ROOT,
        ...(outDir ? { outDir } : {}),
        hooks: {
          beforeClose: async ({ gh, runner }) => {
            judgment = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/judgments/judgment_1.json'))!);
            played = runner.runs.flatMap((run) => run.jobs.flatMap((j) => (j.standIns ?? []).map((s) => ({ job: j.name, ...s }))));
          },
        },
      });
      expectFaithful(r);
      expect(r.jobs.filter((j) => j.result === 'failure')).toEqual([]);
      expect(r.pulls).toHaveLength(1);
      const pull = r.pulls[0]!;
      expect(pull.files).toEqual(['NOTES.md']);
      // The criteria from .github/crew.yml are in the pull request, and the critic (which runs them on the integrated
      // branch, and passes the run only when each exits 0) passed it: crew opens its pull request only then.
      for (const c of criteria) expect(pull.body).toContain(`\`${c}\``);
      expect(r.jobs.find((j) => j.job === 'critic' && j.result !== 'skipped')?.result).toBe('success');
      // Each configured command ran on the integrated branch (after the setup init proposed) and exited 0.
      const commands = judgment!.evaluations.filter((e) => e.kind === 'command');
      expect(commands.map((e) => e.text)).toEqual(criteria.map((c) => `\`${c}\` exits 0`));
      for (const e of commands) expect(e).toMatchObject({ met: true, evidence: expect.arrayContaining([expect.stringContaining('exited with 0')]) });
      expect(crewComments(r).some((c) => c.body.includes('❌'))).toBe(false);
      // The setup action's step ran, with the inputs init wrote, in the jobs that run the repository's code.
      if (setupStep) {
        const { uses, with: withs } = setupStep as { uses: string; with: Record<string, unknown> };
        const ran = played.filter((p) => p.uses === uses.split('@')[0]);
        expect(ran.map((p) => p.with)).toEqual(ran.map(() => withs));
        expect(ran.map((p) => p.job)).toEqual(expect.arrayContaining([expect.stringMatching(/critic/)]));
      } else expect(played).toEqual([]);
    },
  );
});
