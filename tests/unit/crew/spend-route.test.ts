import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Octokit } from '@octokit/core';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { parseConfig } from '../../../src/config/schema';
import { GITHUB } from '../../../src/domain/surface';
import { readEvent } from '../../../src/event';
import type { Log, ModelRequest } from '../../../src/ports';
import { loadTemplate } from '../../../src/templates';
import { paths, readRun, writeRun } from '../../../src/state/run-files';
import type { StepContext } from '../../../src/steps/context';
import { route } from '../../../src/steps/route';
import type { FakeGitHub, GitHubEvent } from '../../support/github/fake-github';
import { fakeGitHubForTest } from '../../support/github/for-test';
import { forgeOn } from '../../support/github/forge-on';
import { CountingState } from './memory-state';
import { view } from './run-fixtures';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

/** Thrown by the model stub at a run's first model request (intake): where these tests stop. */
class StopAtIntake extends Error {}

/**
 * Repository budgets per UTC day and month and the rate per person (#52), on the route job against
 * the fake GitHub, crew/state in memory and the job's clock set by each test: `/crew run` comments
 * as GitHub sends them, and the model requests each run makes.
 */
describe('route: repository budgets and the rate per person (#52)', () => {
  let gh: FakeGitHub;
  let people: Map<string, Octokit>;
  let state: CountingState;
  let requests: ModelRequest[];
  const events: GitHubEvent[] = [];
  const lines: string[] = [];
  const log: Log = { info: (m) => void lines.push(m), warn: (m) => void lines.push(`warn: ${m}`), checkpoint: () => undefined };

  beforeEach(async () => {
    ({ gh } = await fakeGitHubForTest({ prefix: 'spend-route-', apiUrl: true }));
    people = new Map();
    for (const login of ['maintainer', 'alice', 'bob']) {
      gh.addUser(login, { permission: 'write' });
      people.set(login, new Octokit({ auth: gh.userToken(login), baseUrl: gh.url }));
    }
    events.length = 0;
    lines.length = 0;
    gh.onEvent((e) => void events.push(e));
    state = new CountingState();
    requests = [];
  });

  async function issue(title: string): Promise<number> {
    return (await people.get('maintainer')!.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title, body: `${title}.` })).data
      .number;
  }

  /** `login` comments `/crew run` on the issue at `now`, and the route job runs for it: 'intake' when the run reached its first model request. */
  async function crewRun(n: number, now: string, config: string, login = 'maintainer', body = '/crew run'): Promise<'intake' | 'no run'> {
    await people
      .get(login)!
      .request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: gh.owner, repo: gh.repoName, issue_number: n, body });
    return routeJob('issue_comment', now, config);
  }

  /** The route job for the newest `name` event the fake sent, at `now`. */
  async function routeJob(name: string, now: string, config: string): Promise<'intake' | 'no run'> {
    const dir = await mkdtemp(join(tmpdir(), 'spend-event-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const ev = events.filter((e) => e.name === name).at(-1)!;
    await writeFile(join(dir, 'event.json'), JSON.stringify(ev.payload));
    const ctx = withPlanCommentSync({
      event: readEvent(name, join(dir, 'event.json')),
      config: async () => parseConfig(config),
      forge: forgeOn(gh, gh.actionsToken({ contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'write' }), log),
      ciWorkflows: async () => ({ names: [] }),
      state,
      clock: { now: () => new Date(now) },
      log,
      surface: GITHUB,
      runId: String(1000 + events.length),
      template: (name: string) => loadTemplate(name),
      remote: { head: async (branch: string) => gh.repo.branchSha(branch) },
      // The checkout: the repository map reads no files (#48), and the planning roles' tools are jailed to this folder.
      repo: { readFileAt: async (rev: string, path: string) => (await gh.repo.readFile(rev, path)) ?? undefined, listFiles: async () => [], dir },
      model: () => ({
        complete: async (req: ModelRequest) => {
          requests.push(req);
          throw new StopAtIntake('stopped at the run’s first model request');
        },
      }),
      output: () => undefined,
    } as unknown as StepContext);
    const e = await route(ctx).then(
      () => undefined,
      (x: unknown) => x,
    );
    if (e instanceof StopAtIntake) return 'intake';
    if (e) throw e;
    return 'no run';
  }

  const reader = { read: (p: string) => state.files.get(p), list: (pre: string) => [...state.files.keys()].filter((k) => k.startsWith(pre)).sort() };

  /** The run ended having spent `costUsd`, as its jobs record it on crew/state. */
  function spent(n: number, k: number, costUsd: number): void {
    const rec = readRun(reader, n, k)!;
    state.files.set(paths.run(n, k), JSON.stringify({ ...rec, phase: 'COMPLETED', usage: { ...rec.usage, costUsd } }, null, 2));
  }

  /** A finished run recorded on crew/state (not played): started at `createdAt` by `by`, having spent `costUsd`. */
  function recorded(n: number, k: number, createdAt: string, costUsd: number, by = 'maintainer'): void {
    const run = { ...view([]).run, issue: n, run: k, phase: 'COMPLETED' as const, requestedBy: by, createdAt, usage: { ...view([]).run.usage, costUsd } };
    void state.update(`issue-${n}/`, 'seed', (tx) => writeRun(tx, run, createdAt));
  }

  const crewSaid = (n: number) =>
    [...gh.comments.values()].filter((c) => c.issue === n && !people.has(c.user)).map((c) => c.body.replace(/\n\n<!-- crew:post key=[0-9a-f]+ -->$/, ''));

  it('three runs in one day against budgets.day 1.00: the third, which would pass it, is refused with the spend and when it resets, and asks the model nothing', async () => {
    const config = 'budgets:\n  day: 1.00\n';
    const [a, b, c] = [await issue('One'), await issue('Two'), await issue('Three')];
    expect(await crewRun(a, '2026-12-06T09:00:00Z', config)).toBe('intake');
    spent(a, 1, 0.4);
    expect(await crewRun(b, '2026-12-06T11:00:00Z', config)).toBe('intake');
    spent(b, 1, 0.4);
    const asked = requests.length;
    expect(asked).toBe(2);

    expect(await crewRun(c, '2026-12-06T15:30:00Z', config)).toBe('no run');
    expect(requests).toHaveLength(asked);
    expect(readRun(reader, c, 1)).toBeUndefined();
    expect(crewSaid(c)).toEqual([
      [
        "crew did not start this run: a repository budget is spent. The repository's runs have spent $0.80 today (UTC), against `budgets.day` of $1.00, and a run here typically costs $0.40 (the median of recent runs), so this one would pass it.",
        '',
        "The day's count starts again at 2026-12-07 00:00 UTC: ask again then, or raise `budgets.day` in `.github/crew.yml` on the default branch. No model was asked anything for this request.",
      ].join('\n'),
    ]);

    // The next UTC day starts the count again: the same request runs.
    expect(await crewRun(c, '2026-12-07T00:00:00Z', config)).toBe('intake');
    expect(readRun(reader, c, 1)!.phase).toBe('PLANNING');
  });

  it('budgets.month counts every run of the UTC month, pruned runs by their digests, and starts again on the first of the next month', async () => {
    const config = 'budgets:\n  month: 2.00\n';
    const n = await issue('Monthly');
    recorded(90, 1, '2026-12-01T08:00:00Z', 0.9);
    // A run pruned from crew/state: only its digest is left, and its cost still counts.
    state.files.set(
      paths.digest(91, 1),
      JSON.stringify({
        schema: 1,
        issue: 91,
        run: 1,
        title: 'Old',
        phase: 'COMPLETED',
        createdAt: '2026-12-02T08:00:00Z',
        endedAt: '2026-12-02T09:00:00Z',
        ended: 'merged',
        prunedAt: '2026-12-05T00:00:00Z',
        pr: null,
        reportCommentId: null,
        figures: { tasks: [], afterPlan: null },
        costUsd: 1.2,
        taskCount: 0,
      }),
    );
    // November's spend is not December's.
    recorded(92, 1, '2026-11-30T23:59:59Z', 50);
    expect(await crewRun(n, '2026-12-31T23:59:00Z', config)).toBe('no run');
    expect(crewSaid(n)[0]).toContain("The repository's runs have spent $2.10 this month (UTC), against `budgets.month` of $2.00.");
    expect(crewSaid(n)[0]).toContain("The month's count starts again at 2027-01-01 00:00 UTC");
    expect(requests).toHaveLength(0);
    expect(await crewRun(n, '2027-01-01T00:00:00Z', config)).toBe('intake');
  });

  it('at 80 % of a budget the run starts and its plan comment warns, with the spend and when it resets', async () => {
    const config = 'budgets:\n  day: 5.00\n';
    for (let i = 1; i <= 8; i++) recorded(100 + i, 1, '2026-12-06T01:00:00Z', 0.5);
    const n = await issue('Near');
    expect(await crewRun(n, '2026-12-06T12:00:00Z', config)).toBe('intake');
    const rec = readRun(reader, n, 1)!;
    expect(rec.spendWarning).toEqual({ period: 'day', spentUsd: 4, budgetUsd: 5, resetsAt: '2026-12-07T00:00:00Z' });
    const plan = gh.comments.get(rec.planCommentId!)!.body;
    expect(plan).toContain(
      "Budget: the repository's runs have spent $4.00 of `budgets.day` ($5.00) today (UTC), 80 %. crew starts no new run once a typical run would pass it; the count starts again at 2026-12-07 00:00 UTC.",
    );
  });

  it('below 80 % the plan comment says nothing of budgets', async () => {
    const n = await issue('Far');
    for (let i = 1; i <= 7; i++) recorded(100 + i, 1, '2026-12-06T01:00:00Z', 0.5);
    expect(await crewRun(n, '2026-12-06T12:00:00Z', 'budgets:\n  day: 5.00\n')).toBe('intake');
    const rec = readRun(reader, n, 1)!;
    expect(rec.spendWarning).toBeUndefined();
    expect(gh.comments.get(rec.planCommentId!)!.body).not.toContain('Budget:');
  });

  it('a person past limits.runs_per_person_per_day is refused once with the reason (a 👎 after that); a listed maintainer is not; the next UTC day counts again', async () => {
    const config = 'limits:\n  runs_per_person_per_day: 2\n  rate_exempt: [Bob]\n';
    const [a, b, c, d] = [await issue('A'), await issue('B'), await issue('C'), await issue('D')];
    // Yesterday's runs do not count.
    recorded(80, 1, '2026-12-05T23:00:00Z', 0, 'alice');
    expect(await crewRun(a, '2026-12-06T09:00:00Z', config, 'alice')).toBe('intake');
    spent(a, 1, 0);
    expect(await crewRun(b, '2026-12-06T09:10:00Z', config, 'alice')).toBe('intake');
    spent(b, 1, 0);
    const asked = requests.length;

    expect(await crewRun(c, '2026-12-06T09:20:00Z', config, 'alice')).toBe('no run');
    expect(requests).toHaveLength(asked);
    expect(crewSaid(c)).toEqual([
      '@alice, crew did not start this run: you have started 2 runs today (UTC), and `limits.runs_per_person_per_day` allows 2. Your count starts again at 2026-12-07 00:00 UTC. A maintainer can raise the limit, or add you to `limits.rate_exempt`, in `.github/crew.yml`.',
    ]);
    // Asked again within the hour: no second comment, a 👎 on the comment.
    expect(await crewRun(c, '2026-12-06T09:25:00Z', config, 'alice')).toBe('no run');
    expect(crewSaid(c)).toHaveLength(1);
    const last = [...gh.comments.values()].filter((x) => x.issue === c && x.user === 'alice').at(-1)!;
    expect(last.reactions.map((r) => r.content)).toContain('-1');
    expect(requests).toHaveLength(asked);

    // bob is listed (logins compare without case): his third run today starts.
    for (const [k, n] of [a, b].entries()) recorded(n, 2 + k, '2026-12-06T08:00:00Z', 0, 'bob');
    expect(await crewRun(d, '2026-12-06T09:30:00Z', config, 'bob')).toBe('intake');

    // A new UTC day: alice may run again.
    expect(await crewRun(c, '2026-12-07T00:00:01Z', config, 'alice')).toBe('intake');
  });

  it('/crew status shows today’s and this month’s spend against the budgets and the month’s costliest runs, in one comment; without budgets it stays quiet', async () => {
    const n = await issue('Status');
    expect(await crewRun(n, '2026-12-06T08:00:00Z', '')).toBe('intake');
    spent(n, 1, 0.3);
    recorded(70, 1, '2026-12-02T08:00:00Z', 1.25);
    recorded(71, 1, '2026-11-02T08:00:00Z', 9);
    const before = crewSaid(n).length;
    await crewRun(n, '2026-12-06T12:00:00Z', '', 'maintainer', '/crew status');
    expect(crewSaid(n).length).toBe(before);
    await crewRun(n, '2026-12-06T12:00:00Z', 'budgets:\n  day: 1.00\n  month: 20\n', 'maintainer', '/crew status');
    expect(crewSaid(n).slice(before)).toEqual([
      [
        '**Spend**',
        '',
        '- Today (UTC): $0.30 in 1 run of `budgets.day` $1.00 (30 %), resets 2026-12-07 00:00 UTC',
        '- This month (UTC): $1.55 in 2 runs of `budgets.month` $20.00 (7 %), resets 2027-01-01 00:00 UTC',
        `- Costliest runs this month: #70 run 1 $1.25, #${n} run 1 $0.30`,
      ].join('\n'),
    ]);
    expect(requests).toHaveLength(1);
  });

  it('a label trigger counts for the person who labelled: past the rate it is refused with a comment, and nothing starts', async () => {
    const config = 'trigger_label: crew\nlimits:\n  runs_per_person_per_day: 1\n';
    const [a, b] = [await issue('A'), await issue('B')];
    await people
      .get('alice')!
      .request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { owner: gh.owner, repo: gh.repoName, issue_number: a, labels: ['crew'] });
    expect(await routeJob('issues', '2026-12-06T09:00:00Z', config)).toBe('intake');
    expect(readRun(reader, a, 1)!.requestedBy).toBe('alice');
    await people
      .get('alice')!
      .request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', { owner: gh.owner, repo: gh.repoName, issue_number: b, labels: ['crew'] });
    expect(await routeJob('issues', '2026-12-06T09:05:00Z', config)).toBe('no run');
    expect(readRun(reader, b, 1)).toBeUndefined();
    expect(crewSaid(b)).toEqual([expect.stringMatching(/^@alice, crew did not start this run: you have started 1 run today \(UTC\)/)]);
    expect(requests).toHaveLength(1);
  });

  it('a budget refusal is said once an hour on the issue, whoever asks (a 👎 inside the hour), as the rate refusal is', async () => {
    const config = 'budgets:\n  day: 0.50\n';
    const n = await issue('Budget, asked again');
    recorded(60, 1, '2026-12-06T01:00:00Z', 0.6);
    expect(await crewRun(n, '2026-12-06T10:00:00Z', config)).toBe('no run');
    expect(crewSaid(n)).toEqual([expect.stringMatching(/^crew did not start this run: a repository budget is spent\./)]);
    // Within the hour, the same person and then another: no second comment, a 👎 on each comment.
    expect(await crewRun(n, '2026-12-06T10:20:00Z', config)).toBe('no run');
    expect(await crewRun(n, '2026-12-06T10:40:00Z', config, 'alice')).toBe('no run');
    expect(crewSaid(n)).toHaveLength(1);
    for (const login of ['maintainer', 'alice']) {
      const last = [...gh.comments.values()].filter((x) => x.issue === n && x.user === login).at(-1)!;
      expect(
        last.reactions.map((r) => r.content),
        login,
      ).toContain('-1');
    }
    // An hour after the comment: said again.
    expect(await crewRun(n, '2026-12-06T11:00:00Z', config)).toBe('no run');
    expect(crewSaid(n)).toHaveLength(2);
    expect(requests).toHaveLength(0);
  });

  it('/crew resume, /crew retry and /crew continue of an existing run wait while budgets.day is reached, saying the spend and the reset, and start nothing', async () => {
    const config = 'budgets:\n  day: 1.00\n';
    const n = await issue('Stopped runs');
    const base = view([]).run;
    const seed = (phase: 'INTERRUPTED' | 'FAILED' | 'ESCALATING') =>
      state.update(`issue-${n}/`, 'seed', (tx) =>
        writeRun(
          tx,
          {
            ...base,
            issue: n,
            run: 1,
            phase,
            createdAt: '2026-12-06T08:00:00Z',
            usage: { ...base.usage, costUsd: 1.2 },
            failure: phase === 'FAILED' ? { step: 'integration', message: 'x', resumeFrom: 'INTEGRATING' } : null,
            // Stopped at the day's budget earlier (#52): crew's question is comment 1, before any reply.
            waiting:
              phase === 'ESCALATING'
                ? { kind: 'budget' as const, commentId: 1, limit: 'day' as const, spentUsd: 1.2, budgetUsd: 1, resetsAt: '2026-12-07T00:00:00Z' }
                : null,
          },
          '2026-12-06T08:00:00Z',
        ),
      );
    for (const [phase, command] of [
      ['INTERRUPTED', '/crew resume'],
      ['FAILED', '/crew retry'],
      ['ESCALATING', '/crew continue'],
    ] as const) {
      await seed(phase);
      const before = crewSaid(n).length;
      expect(await crewRun(n, '2026-12-06T12:00:00Z', config, 'maintainer', command)).toBe('no run');
      expect(readRun(reader, n, 1)!.phase, command).toBe(phase);
      expect(crewSaid(n).slice(before), command).toEqual([
        `Run 1 does not go on yet: the repository's runs have spent $1.20 today (UTC), against \`budgets.day\` of $1.00; the count starts again at 2026-12-07 00:00 UTC. Comment \`${command}\` again after that, or once \`budgets.day\` is raised in \`.github/crew.yml\` on the default branch. Its work stays on its branches.`,
      ]);
    }
    expect(requests).toHaveLength(0);
  });
  it('/crew retry while a run waits at a budget (in its tasks, while planning, at the day’s budget) says to continue, accept or abort, and starts nothing', async () => {
    const config = 'budgets:\n  day: 1.00\n';
    const n = await issue('Waiting at a budget');
    const base = view([]).run;
    const cases = [
      [{ limit: 'run' as const, spentUsd: 5, budgetUsd: 5 }, 'waits at a budget', true],
      [{ limit: 'run' as const, spentUsd: 5, budgetUsd: 5, at: 'planning' as const }, 'waits at a budget while planning', false],
      [{ limit: 'day' as const, spentUsd: 1.2, budgetUsd: 1, resetsAt: '2026-12-07T00:00:00Z' }, 'waits at a budget', true],
    ] as const;
    for (const [stop, says, accept] of cases) {
      await state.update(`issue-${n}/`, 'seed', (tx) =>
        writeRun(
          tx,
          {
            ...base,
            issue: n,
            run: 1,
            phase: 'ESCALATING',
            createdAt: '2026-12-06T08:00:00Z',
            usage: { ...base.usage, costUsd: 1.2 },
            waiting: { kind: 'budget' as const, commentId: 1, ...stop },
          },
          '2026-12-06T08:00:00Z',
        ),
      );
      const before = crewSaid(n).length;
      expect(await crewRun(n, '2026-12-06T12:00:00Z', config, 'maintainer', '/crew retry')).toBe('no run');
      expect(readRun(reader, n, 1)!.phase).toBe('ESCALATING');
      expect(crewSaid(n).slice(before)).toEqual([
        `There is nothing to retry: run 1 ${says} (see the plan comment). Comment \`/crew continue\` to go on from where it stopped (\`/crew continue $N\` to set how much more it may spend)${accept ? ', `/crew accept` to open the pull request with what exists' : ''} or \`/crew abort\` to end it.`,
      ]);
    }
    expect(requests).toHaveLength(0);
  });
});
