import { beforeAll, describe, expect, it } from 'vitest';
import { git } from '../support/git-cli';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play } from './helpers';

/**
 * Platform faults, played once through the shipped workflow and dist/ against the fakes
 * (tests/scenarios/platform-faults.yaml), then checked one concern at a time: GitHub
 * rate limits; GitHub 5xx and dropped connections during writes; Anthropic errors; the
 * runner's cancellation; a damaged state branch. docs/SECURITY.md links here.
 */
describe('platform faults: nothing lost, nothing doubled, every wait and failure visible', () => {
  let r: ScenarioResult;
  const planBodies: string[] = [];
  const worker = new Map<number, Array<number | string>>();
  let intake: Array<number | string> = [];
  const files: Record<string, string | undefined> = {};
  let interruptedCommit: string[] | undefined;
  let taskRecord: Record<string, unknown> = {};
  let stateHead = '';
  let routeJobs: Array<{ log: string[]; summary: string }> = [];
  let cancelledWork: Array<{ line: string; at: number }> = [];

  beforeAll(async () => {
    r = await play('platform-faults', {
      hooks: {
        onCrewComment: ({ body }) => void (body.includes('<!-- crew:plan') && planBodies.push(body)),
        beforeClose: async ({ gh, anthropic, runner }) => {
          for (const q of anthropic.requests.filter((x) => x.role === 'worker')) worker.set(q.turn, [...(worker.get(q.turn) ?? []), q.outcome]);
          intake = anthropic.requests.filter((x) => x.role === 'intake').map((q) => q.outcome);
          for (const f of ['NOTES.md', 'ran.log']) files[f] = await gh.repo.readFile('refs/heads/crew/1/r1/t1', f);
          const history = (await git(['log', '--format=%H %s', 'refs/heads/crew/1/r1/t1'], { cwd: gh.repoDir })).trim().split('\n');
          const hit = history.find((l) => l.includes('(attempt 1, interrupted)'));
          if (hit) interruptedCommit = (await git(['ls-tree', '-r', '--name-only', hit.split(' ')[0]!], { cwd: gh.repoDir })).trim().split('\n');
          taskRecord = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json'))!);
          stateHead = (await git(['log', '-1', '--format=%s', 'refs/heads/crew/state'], { cwd: gh.repoDir })).trim();
          const jobs = runner.runs.flatMap((run) => run.jobs);
          routeJobs = jobs.filter((j) => j.id === 'route').map((j) => ({ log: j.log, summary: j.summary }));
          const killed = jobs.find((j) => j.killedAt === 'worker-turn');
          cancelledWork = killed ? killed.log.map((line, i) => ({ line, at: killed.logAt![i]! })) : [];
        },
      },
    });
    expectFaithful(r);
  }, 600_000);

  const crew = () => crewComments(r);
  const routes = () => r.github.crew.byRoute;

  it('GitHub 403/429 rate limits, primary and secondary: waits for retry-after, the reset, or 60 s; logs it, and says so in the job summary and the plan comment', () => {
    const [first] = routeJobs;
    expect(first!.log.some((l) => /secondary rate limit on POST \S+reactions; crew waits 42s/.test(l))).toBe(true);
    expect(first!.log.some((l) => /GitHub rate limit on GET \S+permission; crew waits [67]s/.test(l))).toBe(true);
    // The third: the bare 429 on the plan comment's edit that says the run stopped (the Anthropic outage).
    expect(first!.summary).toContain('GitHub rate-limited this job 3 times; crew waited and carried on.');
    expect(first!.summary).toContain("waited 42 s for GitHub's secondary rate limit (POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions)");
    expect(first!.summary).toContain("waited 60 s for GitHub's secondary rate limit (PATCH /repos/{owner}/{repo}/issues/comments/{comment_id})");
    // Each limited request was made again once, and went through.
    const commands = r.issue.comments.filter((c) => c.author === 'maintainer' && c.body.startsWith('/crew')).length;
    expect(routes()['POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions']).toBe(commands + 1);
    const plan = crew().find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(plan.body).toMatch(/GitHub rate-limited crew for 60 s at \d\d:\d\d UTC; it waited and carried on\./);
  });

  it('GitHub 5xx or a dropped connection during a write: retried, and nothing is posted twice', () => {
    // The plan comment's answer was dropped, the outage comment's was a 502: each exists once.
    expect(crew().filter((c) => c.body.includes('<!-- crew:plan'))).toHaveLength(1);
    expect(crew().filter((c) => c.body.includes('kept failing after 5 attempts'))).toHaveLength(1);
    // The PR was created, its answer a 502; the repeat got 422 and found it.
    expect(routes()['POST /repos/{owner}/{repo}/pulls']).toBe(2);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.comments.filter((c) => c.author === 'github-actions[bot]').map((c) => /<!-- crew:(\w+)/.exec(c.body)?.[1])).toEqual(['report', 'retro']);
    // Labels (500 before they landed) and an edit (503) were repeated.
    expect(routes()['POST /repos/{owner}/{repo}/issues/{issue_number}/labels']).toBe(2);
  });

  it('Anthropic 429, 529, 500 and an overloaded error mid-stream: retried with backoff, the broken stream replayed once, no tool run twice; past the limit, a visible failure with the reason', () => {
    // Down for the first /crew run: five tries, then a comment with the reason and what to do.
    expect(intake).toEqual([529, 529, 529, 529, 529, 200]);
    const outage = crew().find((c) => c.body.includes('kept failing after 5 attempts'))!;
    expect(outage.body).toContain('**crew stopped** during the route step, calling the Anthropic API');
    expect(outage.body).toMatch(/last error: 529 .*Overloaded/);
    expect(outage.body).toContain('comment `/crew resume`');
    // The plan comment says the run stopped where it did, not "Planning" for ever.
    expect(planBodies.some((b) => b.includes('❌ Failed') && b.includes('crew stopped in PLANNING'))).toBe(true);
    expect(worker.get(0)).toContain(429);
    expect(worker.get(1)).toEqual(expect.arrayContaining([529, 500]));
    expect(worker.get(2)).toEqual(['midstream', 200]);
    // A command that appends and an edit that would apply twice: each left its mark once.
    expect(files['ran.log']).toBe('ran\n');
    expect(files['NOTES.md']).toBe('# Notes\n\nFirst part.\n\nSecond part.\n');
    expect(crew().find((c) => c.body.includes('<!-- crew:plan'))!.body).toContain('✅ Done');
  });

  it("the runner's cancellation (SIGINT, SIGTERM 7.5 s later, kill): the work so far is pushed within 5 s, the plan comment says interrupted, /crew resume finishes", () => {
    expect(r.jobs.filter((j) => j.job === 'work' && j.result !== 'skipped').map((j) => j.result)).toEqual(['cancelled', 'success']);
    const sigint = cancelledWork.find((l) => l.line.includes('crew received SIGINT'));
    const saved = cancelledWork.find((l) => /t1: interrupted; the work so far is on crew\/1\/r1\/t1 at [0-9a-f]{7}/.test(l.line));
    expect(sigint).toBeDefined();
    expect(saved).toBeDefined();
    // GitHub's real timing (the kill point's time_scale is 1): SIGTERM would come 7.5 s after SIGINT.
    expect(saved!.at - sigint!.at).toBeLessThan(5000);
    expect(cancelledWork.some((l) => l.line.includes('received SIGTERM'))).toBe(false);
    // What the worker wrote before the cancellation is on the branch; the command it never got to is not.
    expect(interruptedCommit).toContain('NOTES.md');
    expect(interruptedCommit).not.toContain('ran.log');
    expect(planBodies.find((b) => b.includes('⏹️ Interrupted'))).toContain('**Interrupted** — `/crew resume` to continue.');
    // Resumed from the branch: the task finished, and the interrupted attempt did not count against it.
    expect(taskRecord).toMatchObject({ status: 'success', attempts: 1 });
    expect(r.pulls[0]!.files.sort()).toEqual(['NOTES.md', 'ran.log']);
  });

  it('a damaged run.json on crew/state: a comment names the file, the field and the value, and what to do; crew writes nothing over it', () => {
    const damaged = crew().filter((c) => c.body.includes('reading the run state'));
    expect(damaged).toHaveLength(1);
    expect(damaged[0]!.body).toContain('crew/state: issue-1/run-1/run.json is not valid: field `phase` expected one of');
    expect(damaged[0]!.body).toContain('(got "DONE")');
    expect(damaged[0]!.body).toContain('crew has not written over it');
    expect(stateHead).toBe('Edit issue-1/run-1/run.json');
  });
});
