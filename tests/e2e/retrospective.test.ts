import { describe, expect, it } from 'vitest';
import type { Retrospective } from '../../src/domain/retrospective';
import { minutesPerTask, type JobTime } from '../../src/domain/actions-minutes';
import { quantile } from '../../src/domain/estimate';
import type { Script } from '../support/anthropic/script';
import type { Scenario } from '../support/scenario/schema';
import { crewComments, expectFaithful, play } from './helpers';

const read = async (gh: { repo: { readFile(ref: string, path: string): Promise<string | undefined> } }, path: string) =>
  (await gh.repo.readFile('refs/heads/crew/state', path)) ?? '';
const retroComments = (r: Awaited<ReturnType<typeof play>>) => r.pulls.flatMap((p) => p.comments).filter((c) => c.body.includes('<!-- crew:retro'));

/** A proposal whose score is exactly `recurrence*0.3 + impact*0.3 + generality*0.2 + feasibility*0.2`. */
const proposal = (kind: 'improvement' | 'skill', title: string, [recurrence, impact, generality, feasibility]: [number, number, number, number]) => ({
  kind,
  title,
  body: `${title}.`,
  recurrence,
  impact,
  generality,
  feasibility,
});

function scriptRetrospector(s: Scenario, input: Record<string, unknown>): void {
  const script = s.model as Script;
  script.entries = [
    ...script.entries.filter((e) => e.role !== 'retrospector'),
    { role: 'retrospector', replies: [{ content: [{ type: 'tool_use', name: 'submit_retrospective', input }] }] },
  ];
}

describe('the retrospective', () => {
  it('light after a clean pass: skills only, posted on the PR, linked from the plan comment, kept on the state branch', async () => {
    let json = '';
    let md = '';
    let prompt = '';
    const r = await play('scenarios/demo.yaml', {
      hooks: {
        beforeClose: async ({ gh, anthropic }) => {
          json = await read(gh, 'issue-1/run-1/retrospective.json');
          md = await read(gh, 'issue-1/run-1/retrospective.md');
          prompt = JSON.stringify(anthropic.requests.find((q) => q.role === 'retrospector')?.body.messages[0]);
        },
      },
    });
    expectFaithful(r);
    expect(prompt).toContain('Mode: light');
    expect(prompt).toContain('iteration 1: PASS');
    const retro = JSON.parse(json) as Retrospective;
    expect(retro.mode).toBe('light');
    // Light mode adopts no improvements, however well they score: the one scoring 3.2 is held, the skill (4.0) adopted.
    expect(retro.adopted.map((p) => [p.kind, p.score])).toEqual([['skill', 4]]);
    expect(retro.held.map((p) => [p.kind, p.score, p.decision])).toEqual([['improvement', 3.2, 'hold']]);
    const [comment] = retroComments(r);
    expect(comment!.body).toContain('## crew retrospective · run 1 (light)');
    expect(comment!.body).toContain("1. [codebase] textkit's tests use node:test");
    // The run's cost beside the estimate made with its plan.
    expect(comment!.body).toMatch(
      /\n\n\*\*Estimate vs actual:\*\* model use \$[\d.]+(–\$[\d.]+)? estimated, \$[\d.]+ spent \((under|within|over) the estimate\)/,
    );
    expect(md).toContain('## crew retrospective · run 1 (light)');
    const plan = crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(plan.body).toMatch(/\*\*Retrospective\*\* \(light\): http:\/\/127\.0\.0\.1:\d+\/acme\/textkit\/issues\/2#issuecomment-\d+/);
  }, 360_000);

  it('full after an accepted FAIL, with the scoring boundaries and the caps of full mode', async () => {
    let retro: Retrospective | undefined;
    let prompt = '';
    const r = await play('critic-commands', {
      edit: (s) =>
        scriptRetrospector(s, {
          summary: 'Two criteria could not be met by the task as planned.',
          went_wrong: ['The changelog and docs criteria were outside the task.'],
          proposals: [
            proposal('improvement', 'exactly the threshold', [5, 4, 2, 2]), // 3.5: adopt
            proposal('improvement', 'well above', [5, 5, 5, 5]), // 5.0: adopt
            proposal('improvement', 'just below', [4, 4, 3, 2]), // 3.4: hold
            proposal('skill', 'a good skill', [4, 4, 4, 4]), // 4.0: adopt (full mode keeps 1 skill)
            proposal('skill', 'a second good skill', [4, 4, 3, 4]), // 3.8: adopt-scoring, held by the cap
            proposal('skill', 'the hold floor', [3, 2, 3, 2]), // 2.5: hold
            proposal('skill', 'below the floor', [3, 3, 1, 2]), // 2.4: discard
          ],
          memory_candidates: [{ type: 'lesson', content: 'Command criteria that name files no task creates cannot pass.', confidence: 0.8 }],
        }),
      hooks: {
        beforeClose: async ({ gh, anthropic }) => {
          retro = JSON.parse(await read(gh, 'issue-1/run-1/retrospective.json')) as Retrospective;
          prompt = JSON.stringify(anthropic.requests.find((q) => q.role === 'retrospector')?.body.messages[0]);
        },
      },
    });
    expectFaithful(r);
    expect(prompt).toContain('Mode: full');
    expect(prompt).toContain('accepted by a maintainer despite a FAIL');
    expect(retro!.mode).toBe('full');
    expect(retro!.adopted.map((p) => [p.title, p.score])).toEqual([
      ['well above', 5],
      ['a good skill', 4],
      ['exactly the threshold', 3.5],
    ]);
    expect(retro!.held.map((p) => [p.title, p.score])).toEqual([
      ['a second good skill', 3.8],
      ['just below', 3.4],
      ['the hold floor', 2.5],
    ]);
    expect(retro!.discarded.map((p) => [p.title, p.score])).toEqual([['below the floor', 2.4]]);
    expect(retroComments(r)[0]!.body).toContain('## crew retrospective · run 1 (full)');
  }, 360_000);

  it('/crew retro forces a full one on a clean run, replacing the light one in place', async () => {
    const modes: string[] = [];
    const r = await play('scenarios/demo.yaml', {
      edit: (s) => s.timeline.push({ comment: '/crew retro', author: 'maintainer' }, { wait: 'idle' }),
      hooks: {
        beforeClose: async ({ anthropic }) =>
          void modes.push(
            ...anthropic.requests
              .filter((q) => q.role === 'retrospector')
              .map((q) => (JSON.stringify(q.body.messages[0]).match(/Mode: (full|light)/) ?? [])[1]!),
          ),
      },
    });
    expectFaithful(r);
    expect(modes).toEqual(['light', 'full']);
    const comments = retroComments(r);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('(full)');
  }, 360_000);

  it('/crew remember opens a knowledge-base PR from a crew/ branch; once merged, the next run’s workers receive the entry', async () => {
    let knowledge = '';
    let run2Prompt = '';
    const run1Jobs: JobTime[] = [];
    const r = await play('scenarios/demo.yaml', {
      edit: (s) =>
        s.timeline.push(
          { comment: '/crew remember 1', author: 'maintainer' },
          { wait: 'idle' },
          { merge_pr: { author: 'maintainer', method: 'merge' } },
          { comment: '/crew run', author: 'maintainer' },
          { wait: 'idle' },
        ),
      hooks: {
        beforeClose: async ({ gh, anthropic }) => {
          for (const f of (await gh.repo.listFiles('refs/heads/crew/state')).filter((p) => p.startsWith('issue-1/run-1/jobs/')))
            run1Jobs.push(JSON.parse(await read(gh, f)) as JobTime);
          knowledge = (await gh.repo.readFile('refs/heads/main', '.github/crew/knowledge.jsonl')) ?? '';
          const workers = anthropic.requests.filter((q) => q.role === 'worker' && q.turn === 0);
          run2Prompt = JSON.stringify(workers.at(-1)?.body.messages[0]);
        },
      },
    });
    expectFaithful(r);
    const memoryPr = r.pulls.find((p) => p.head === 'crew/1/r1/memory-1')!;
    expect(memoryPr).toMatchObject({ base: 'main', merged: true });
    const entry = JSON.parse(knowledge.trim()) as Record<string, unknown>;
    expect(entry).toMatchObject({ type: 'codebase', confidence: 0.9, source: 'issue #1 run 1 retrospective, remembered by @maintainer' });
    expect(entry.content).toBe("textkit's tests use node:test with node:assert/strict, one file per helper under test/; `npm test` runs them.");
    expect(crewComments(r).some((c) => c.body.startsWith('Opened ') && c.body.includes(`/pull/${memoryPr.number} to add memory 1 to the knowledge base`))).toBe(
      true,
    );
    expect(run2Prompt).toContain("[codebase] textkit's tests use node:test with node:assert/strict");
    expect(r.branches.map((b) => b.name)).toContain('crew/1/r2/integration');
    // The second run's estimate rests on the first, read back from crew/state: its three tasks' work jobs replace crew's
    // assumptions for the minutes per task (one run is too few for the rest, which keep the assumptions).
    const plan2 = crewComments(r).find((c) => c.body.includes('<!-- crew:plan issue=1 run=2 -->'))!.body;
    const estimate =
      /^\*\*Estimate:\*\* .* and (\d+)–(\d+) billable Actions minutes for the whole run \(planning's \$[\d.]+ and (\d+) minutes? included\) · based on 1 earlier run of this repository \(3 tasks\) · /m.exec(
        plan2,
      );
    expect(estimate, plan2).not.toBeNull();
    const [fewest, most, spent] = estimate!.slice(1).map(Number) as [number, number, number];
    const perTask = [...minutesPerTask(run1Jobs).values()];
    expect(perTask).toHaveLength(3);
    expect([fewest, most]).toEqual([spent + 3 * Math.ceil(quantile(perTask, 0.25)) + 2, spent + 3 * Math.ceil(quantile(perTask, 0.9)) + 10]);
  }, 360_000);
});
