import { describe, expect, it } from 'vitest';
import { crewComments, expectFaithful, play, shown } from './helpers';

/** The workflow runs the scenario's `issues` events started, by job, with each job's result. */
const issuesJobs = (r: Awaited<ReturnType<typeof play>>) =>
  r.jobs.filter((j) => j.event === 'issues' && j.result !== 'skipped').map((j) => `${j.run}:${j.job}:${j.result}`);

describe('more ways to start (#19 §4)', () => {
  it('trigger_label: a triage user’s label is refused with a comment and starts nothing; the same label from a writer runs to a pull request', async () => {
    const r = await play('trigger-label');
    expectFaithful(r);
    const said = crewComments(r).map((c) => shown(c.body));
    expect(said[0]).toBe('@triager, crew only takes commands from people with write access to this repository (your access: read). Nothing was started.');
    // The triage user's label: a route job that refused. The writer's: route, then the task.
    expect(issuesJobs(r)).toEqual(['1:route:success', '2:route:success', '2:work:success']);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.merged).toBe(false);
    expect(said[1]).toMatch(/^<!-- crew:plan issue=1 run=1 -->/);
    expect(said[1]).toContain('✅ Done');
    expect(said).toHaveLength(2);
  }, 360_000);

  it('the label `crew: best of 2` (#50): with label triggers on, a writer’s label starts a run of two parallel attempts per task', async () => {
    let run: { attempts?: unknown } | undefined;
    const r = await play('trigger-label', {
      edit: (s) => {
        const last = s.timeline.findLast((step) => 'label' in step) as { label: string[] };
        last.label = ['crew: best of 2'];
      },
      hooks: {
        beforeClose: async ({ gh }) => {
          run = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!) as typeof run;
        },
      },
    });
    expectFaithful(r);
    expect(run?.attempts).toEqual({ parallel: 2, max: 3 });
    // One work job per attempt, named by its leg (the short form's jobs are `crew / work (<leg>)`).
    const legs = r.jobs.filter((j) => j.event === 'issues' && j.result === 'success').flatMap((j) => /work \((.+)\)$/.exec(j.name)?.[1] ?? []);
    expect(legs.sort()).toEqual(['t1', 't1-a2']);
    expect(r.pulls).toHaveLength(1);
    const plan = crewComments(r)
      .map((c) => shown(c.body))
      .find((b) => b.startsWith('<!-- crew:plan'))!;
    expect(plan).toContain('**Attempts of t1** (2 in parallel');
    expect(plan).toContain('equal on the evidence; the first is kept');
  }, 360_000);

  it('trigger_assignee: assigning someone else starts no job at all; assigning the trigger login runs to a pull request, requested by who assigned', async () => {
    let run: { requestedBy: string; trigger: Record<string, unknown> } | undefined;
    const r = await play('trigger-assignee', {
      hooks: {
        beforeClose: async ({ gh }) => {
          run = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!) as typeof run;
        },
      },
    });
    expectFaithful(r);
    expect(run?.requestedBy).toBe('maintainer');
    expect(run?.trigger).toMatchObject({ commentId: 0, how: 'assignee' });
    // The assignment to triager was filtered by the route job's `if:`: no job ran for it.
    expect(issuesJobs(r)).toEqual(['2:route:success', '2:work:success']);
    expect(r.pulls).toHaveLength(1);
    expect(crewComments(r).map((c) => shown(c.body))[0]).toContain('✅ Done');
  }, 360_000);
});
