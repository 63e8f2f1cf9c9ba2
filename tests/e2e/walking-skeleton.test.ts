import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, type ScenarioResult } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful } from './helpers';

/**
 * `npm run demo`, run as a person runs it: a process that plays scenarios/demo.yaml and
 * prints what happens. Every check below reads what it left: its output, result.json and
 * the repository it wrote next to it.
 */
describe('walking skeleton: /crew run → plan comment → matrix workers → PR, as `npm run demo` shows it', () => {
  let r: ScenarioResult;
  let out: string;
  let printed: string;
  let clone: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'crew-demo-'));
    clone = join(out, 'integration');
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'demo', '--', '--out', out], { cwd: PROJECT_ROOT, maxBuffer: 32 * 1024 * 1024 });
    printed = stdout;
    r = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as ScenarioResult;
    execFileSync('git', ['clone', '--quiet', '--branch', 'crew/1/r1/integration', join(out, 'repo.git'), clone]);
  }, 360_000);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('prints what a maintainer sees: the plan comment as it evolves, the branches, the PR, the report, and where the result is', () => {
    const order = [
      '@maintainer comments: /crew run',
      'crew posts its plan comment:',
      'crew edits its plan comment (edit 1):',
      'Branches crew pushed:',
      'crew/1/r1/integration',
      'Pull request #2: Add a slugify function',
      'Report on #2:',
      'Retrospective on #2:',
      'What it cost:',
      `${join(out, 'result.json')}`,
    ];
    let at = 0;
    for (const line of order) {
      const i = printed.indexOf(line, at);
      expect(i, `"${line}" after position ${at}`).toBeGreaterThanOrEqual(at);
      at = i;
    }
    expect(printed).not.toContain('did not end as expected');
  });

  it("runs every job of the short workflow successfully, through dist/: crew-jobs.yml's jobs, named after the calling job as GitHub names them", () => {
    expectFaithful(r);
    expect(r.workflow).toBe('short');
    const jobs = r.jobs.map((j) => `${j.event}:${j.name}:${j.result}`);
    // Two workflow runs: the comment's (t1 and t3; t1's job goes on to t2, which t1 alone unblocked: a chain), and the
    // dispatch with no tasks the job of the last task sent to finish the run. advance runs only there: a work job that
    // succeeds needs no advance after it.
    expect(jobs.sort()).toEqual(
      [
        'issue_comment:crew / route:success',
        'issue_comment:crew / work (t1):success',
        'issue_comment:crew / work (t3):success',
        'issue_comment:crew / advance:skipped',
        'issue_comment:crew / critic:skipped',
        'issue_comment:crew / merge:skipped',
        'issue_comment:crew / cleanup:skipped',
        'workflow_dispatch:crew / route:skipped',
        'workflow_dispatch:crew / work:skipped',
        'workflow_dispatch:crew / advance:success',
        'workflow_dispatch:crew / critic:success',
        'workflow_dispatch:crew / merge:skipped',
        'workflow_dispatch:crew / cleanup:skipped',
      ].sort(),
    );
    // t2 runs in t1's job, so no workflow run starts for it: two job starts fewer on the critical path.
    expect(r.jobs.filter((j) => j.result !== 'skipped')).toHaveLength(5);
  });

  it("runs crew in each job from crew's own checkout at the reusable workflow's commit (job.workflow_sha), after the default branch", async () => {
    const logs = (await readdir(join(out, 'logs'))).filter((f) => /-crew_[a-z]+(_t\d+_)?\.log$/.test(f));
    expect(logs).toHaveLength(5);
    for (const f of logs) {
      // The runner checks crew's repository out only at the sha it holds it at: a tag or the caller's sha would fail the job.
      expect(await readFile(join(out, 'logs', f), 'utf8'), f).toMatch(
        /checked out (?!your-org\/)[\w-]+\/[\w-]+@[0-9a-f]{7}\n[\s\S]*checked out your-org\/crew@[0-9a-f]{7} into \.git\/crew-action\n/,
      );
    }
  });

  it('acknowledges the command with 👀 and keeps exactly one plan comment, edited in place', () => {
    const mine = crewComments(r);
    expect(mine).toHaveLength(1);
    const plan = mine[0]!;
    expect(plan.body).toContain('<!-- crew:plan issue=1 run=1 -->');
    expect(plan.body).toContain('✅ Done');
    expect(plan.updatedAt >= plan.createdAt).toBe(true);
    expect(plan.body).toMatch(/\| \*\*t1\*\* Implement slugify \| coder \| sonnet \| – \| ✅ success \| \[`crew\/1\/r1\/t1`\]/);
    expect(plan.body).toContain('```mermaid');
    expect(plan.body).toContain('t1 --> t2');
    expect(plan.body).toContain('**Done criteria** · critic: ✅ PASS (iteration 1)');
    expect(plan.body).toContain('- [x] The README documents slugify with an example');
    expect(plan.body).toContain('- [x] The test suite passes, including tests for slugify (`npm test`)');
    expect(r.github.crew.byRoute['POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions']).toBe(1);
    // It works from the comment id it stored: it never lists the issue's comments, however many there are.
    expect(r.github.crew.byRoute['GET /repos/{owner}/{repo}/issues/{issue_number}/comments']).toBeUndefined();
  });

  it('says what the run costs: model use and billable Actions minutes, beside the estimate made with the plan', () => {
    const plan = crewComments(r)[0]!.body;
    const report = r.pulls[0]!.comments[0]!.body;
    const ran = r.jobs.filter((j) => j.result !== 'skipped');
    // Every job that ran wrote the run's state, so each recorded itself there once, in a write it made anyway.
    const files = execFileSync('git', ['--git-dir', join(out, 'repo.git'), 'ls-tree', '-r', '--name-only', 'crew/state', 'issue-1/run-1/jobs/'])
      .toString()
      .trim()
      .split('\n');
    expect(files).toHaveLength(ran.length);
    const steps = files.map(
      (f) => (JSON.parse(execFileSync('git', ['--git-dir', join(out, 'repo.git'), 'show', `crew/state:${f}`]).toString()) as { step: string }).step,
    );
    expect(steps.sort()).toEqual(['advance', 'critic', 'route', 'work', 'work']);
    // GitHub bills each job that ran at least a minute, and no more than its time rounded up to the minute
    // (a chained job's parts joined again: it is one job).
    const jobs: Array<{ startedAt: number; finishedAt: number }> = [];
    for (const j of r.jobTimes) {
      if (j.chainPart) jobs.at(-1)!.finishedAt = j.finishedAt;
      else jobs.push({ ...j });
    }
    expect(jobs).toHaveLength(ran.length);
    const ceiling = jobs.reduce((sum, j) => sum + Math.max(1, Math.ceil((j.finishedAt - j.startedAt) / 60_000)), 0);
    const billed = Number(/^\*\*Usage:\*\* .* · about \$[\d.]+ · (\d+) billable Actions minutes$/m.exec(plan)?.[1]);
    expect(billed).toBeGreaterThanOrEqual(ran.length);
    expect(billed).toBeLessThanOrEqual(ceiling);
    // The estimate made with the plan stays on the plan comment; the report sets the actual figures beside it.
    const estimate =
      /^\*\*Estimate:\*\* \$([\d.]+)–\$([\d.]+) of model use and (\d+)–(\d+) billable Actions minutes for the whole run \(planning's \$[\d.]+ and \d+ minutes? included\)/m.exec(
        plan,
      );
    expect(estimate, plan).not.toBeNull();
    const [low, high, fewest, mostMinutes] = estimate!.slice(1).map(Number) as [number, number, number, number];
    expect(report).toMatch(/^\*\*Total usage:\*\* .* · about \$[\d.]+ · \d+ billable Actions minutes$/m);
    const vs =
      /^\*\*Estimate vs actual:\*\* model use \$([\d.]+)–\$([\d.]+) estimated, \$([\d.]+) spent \((under|within|over) the estimate\) · Actions minutes (\d+)–(\d+) estimated, (\d+) billed so far \((under|within|over) the estimate\)$/m.exec(
        report,
      );
    expect(vs, report).not.toBeNull();
    expect(vs!.slice(1, 3).map(Number)).toEqual([low, high]);
    expect(vs!.slice(5, 7).map(Number)).toEqual([fewest, mostMinutes]);
    const [spent, soFar] = [Number(vs![3]), Number(vs![7])];
    expect(vs![4]).toBe(spent < low ? 'under' : spent > high ? 'over' : 'within');
    expect(vs![8]).toBe(soFar < fewest ? 'under' : soFar > mostMinutes ? 'over' : 'within');
    // The report is written in the critic job, before its last writes: it has counted every job but the end of that one.
    expect(soFar).toBeGreaterThanOrEqual(ran.length);
    expect(soFar).toBeLessThanOrEqual(billed);
  });

  it('checks the commenter with the collaborator-permission API', () => {
    expect(r.github.crew.byRoute['GET /repos/{owner}/{repo}/collaborators/{username}/permission']).toBe(1);
  });

  it('pushes one branch per task and an integration branch, none nested under another', () => {
    const names = r.branches.map((b) => b.name).sort();
    expect(names).toEqual(['crew/1/r1/integration', 'crew/1/r1/t1', 'crew/1/r1/t2', 'crew/1/r1/t3', 'crew/state', 'main']);
    for (const a of names) for (const b of names) if (a !== b) expect(b.startsWith(`${a}/`)).toBe(false);
  });

  it('starts t2 as soon as t1 is done, not after the first matrix: in t1’s own job, which has the time, with nothing else waiting', () => {
    // The one dispatch, with no tasks, finishes the run; t2 needed none.
    expect(r.github.crew.byRoute['POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches']).toBe(1);
    const dispatched = r.jobs.filter((j) => j.event === 'workflow_dispatch' && j.job === 'work' && j.result !== 'skipped');
    expect(dispatched).toEqual([]);
    expect(r.jobs.find((j) => j.name === 'crew / work (t1)')!.chained).toEqual(['t2']);
    expect(r.jobs.find((j) => j.name === 'crew / work (t3)')!.chained).toBeUndefined();
  });

  it('opens one PR from the integration branch that closes the issue, with the report as a comment', () => {
    expect(r.pulls).toHaveLength(1);
    const pr = r.pulls[0]!;
    expect(pr).toMatchObject({ state: 'open', head: 'crew/1/r1/integration', base: 'main', title: 'Add a slugify function' });
    expect(pr.body).toContain('Closes #1');
    expect(pr.files.sort()).toEqual(['README.md', 'src/index.js', 'src/slugify.js', 'test/slugify.test.js']);
    // The report, then the retrospective.
    expect(pr.comments).toHaveLength(2);
    expect(pr.comments[0]!.body).toContain('## crew report · issue #1 · run 1');
    expect(pr.comments[1]!.body).toContain('## crew retrospective · run 1 (light)');
    expect(pr.comments[0]!.body).toContain('<details><summary>t2 · Test slugify — success</summary>');
    // The critic ran the command criterion for real, and judged the semantic one with evidence.
    expect(pr.comments[0]!.body).toContain('### Critic: ✅ PASS (iteration 1');
    expect(pr.comments[0]!.body).toMatch(/`npm test` exited with 0\n[\s\S]*ℹ pass 3\nℹ fail 0/);
    expect(pr.comments[0]!.body).toContain('README.md lists `slugify(text)` in its Functions list');
    expect(pr.body).toContain('- ✅ The test suite passes, including tests for slugify (`npm test`)');
    expect(r.issue.state).toBe('open');
  });

  it('spends model tokens only in agents: intake, decomposer, plan review, the workers’ turns, the critic and the retrospector', () => {
    expect(r.model.byRole).toEqual({ intake: 1, decomposer: 1, plan_reviewer: 1, worker: 10, critic: 2, retrospector: 1 });
    // A clear issue: its "Done when" read by intake, a plan reviewed before any worker starts, the critic gating the integrated branch.
    expect(r.model.order.slice(0, 3)).toEqual(['intake', 'decomposer', 'plan_reviewer']);
    expect(r.model.order.slice(3, -3).every((role) => role === 'worker')).toBe(true);
    expect(r.model.order.slice(-3)).toEqual(['critic', 'critic', 'retrospector']);
  });

  it('stays within a small REST budget', () => {
    // 3 tasks: well under the target of 3 requests per task plus 15 per run.
    expect(r.github.crew.total).toBeLessThanOrEqual(3 * 3 + 15);
  });

  it('integrates every task: the library’s own tests pass on the integration branch', async () => {
    expect(await readFile(join(clone, 'src', 'slugify.js'), 'utf8')).toContain('export function slugify');
    expect(await readFile(join(clone, 'src', 'index.js'), 'utf8')).toContain("export { slugify } from './slugify.js';");
    expect(await readFile(join(clone, 'README.md'), 'utf8')).toContain('`slugify(text)`');
    const out = execFileSync(process.execPath, ['--test', '--test-reporter=tap'], { cwd: clone }).toString();
    expect(out).toMatch(/# pass 3/);
    expect(out).toMatch(/# fail 0/);
  });
});
