import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../support/github/fake-github';
import { crewComments, expectFaithful, play, playAnswer, shown } from './helpers';

/**
 * `budgets.run` reached while re-planning, in the resolver of a merge conflict, or at the retrospective (#52):
 * the work is kept and crew asks, as at a worker's, planning's or the critic's budget end, instead of failing
 * the run, handing a person the merge, or posting a failure; `/crew continue` goes on with exactly that step.
 */

interface AtStop {
  phase: string;
  waiting: Record<string, unknown> & { commentId: number };
  question: string;
  plan: string;
  labels: string[];
}

async function runRecord(gh: FakeGitHub) {
  return JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/run.json'))!);
}

async function atStop(gh: FakeGitHub): Promise<AtStop> {
  const crew = [...gh.comments.values()].filter((c) => c.issue === 1 && c.user !== 'maintainer');
  const run = await runRecord(gh);
  return {
    phase: run.phase,
    waiting: run.waiting,
    question: shown(crew.find((c) => c.body.includes('crew stopped at a budget'))?.body ?? ''),
    plan: crew.find((c) => c.body.includes('<!-- crew:plan issue=1 run=1'))?.body ?? '',
    labels: [...(gh.issues.get(1)?.labels ?? [])],
  };
}

const lastCrewComment = (gh: FakeGitHub) => shown([...gh.comments.values()].filter((c) => c.issue === 1 && c.user !== 'maintainer').at(-1)!.body);

describe('a budget reached while re-planning, merging or at the retrospective keeps what was done (#52), through dist/', () => {
  function expectStoppedWhileReplanning(seen: AtStop & { draft?: string }) {
    expect(seen.phase).toBe('ESCALATING');
    expect(seen.waiting).toMatchObject({ kind: 'budget', limit: 'run', at: 'replan', replan: { tasks: ['t1'], endOfRun: false } });
    expect(seen.waiting.commentId).toBeGreaterThan(0);
    // The worker's draft is on its branch: nothing of the failed task's work is lost.
    expect(seen.draft).toBe('# Notes\n\nA draft.\n');
    expect(seen.question).toMatch(
      /^\*\*crew stopped at a budget\*\*: the run has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.run` \(\$\d+\.\d+, 20,000,000 tokens\)\. Nothing is lost: every task's work so far is committed and pushed to its branch\. crew was re-planning t1, which failed, when the budget ran out\.\n\n- 🔁 t1: failure, to be re-planned; its work so far is on \[`crew\/1\/r1\/t1`\]\([^)]+\)\n\nReply with one of:\n- `\/crew continue` — re-plan t1 and go on from the work on the branches, with another `budgets\.run` to spend from here; `\/crew continue \$N` gives it \$N more instead;\n- `\/crew accept` — open the pull request with what exists/,
    );
    expect(seen.plan).toContain('**Stopped at a budget** while re-planning: the run has spent');
    expect(seen.plan).toContain('**Commands now:** `/crew continue` · `/crew accept` · `/crew abort`');
    expect(seen.labels).toContain('crew: waiting');
  }

  const replanStop = async (gh: FakeGitHub) => ({ ...(await atStop(gh)), draft: await gh.repo.readFile('refs/heads/crew/1/r1/t1', 'NOTES.md') });

  it('re-planning: the run waits with the draft on its branch; `/crew continue $5` re-plans the task and ends in a pull request', async () => {
    let t1: unknown;
    const { r, seen } = await playAnswer('replan-budget-end', '/crew continue $5', replanStop, async ({ gh }) => {
      t1 = JSON.parse((await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json'))!);
    });
    expectStoppedWhileReplanning(seen);
    expect(t1).toMatchObject({ replacedBy: ['t2'] });
    // The refused request never reached the model; going on asked the decomposer once.
    expect(r.model.byRole.decomposer).toBe(1);
    expect(r.model.byRole.worker).toBe(2);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    expect(crewComments(r).some((c) => c.body.includes('**crew stopped** during') || c.body.includes('did not succeed'))).toBe(false);
    expect(r.issue.labels).not.toContain('crew: waiting');
  }, 600_000);

  it('re-planning: `/crew accept` opens the pull request with the failed task’s draft as it is, unjudged', async () => {
    const { r, seen } = await playAnswer('replan-budget-end', '/crew accept', replanStop);
    expectStoppedWhileReplanning(seen);
    expect(r.model.byRole.decomposer).toBeUndefined();
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
    expect(r.pulls[0]!.body).toContain('accepted this with `/crew accept` when the run stopped at a budget');
  }, 600_000);

  it('the resolver: the run waits with both branches kept; `/crew accept` is refused, `/crew continue $5` merges and ends in a pull request', async () => {
    let seen: (AtStop & { integration?: string }) | undefined;
    let afterAccept: { phase: string; waiting: unknown; said: string } | undefined;
    const r = await play('integration-budget-end', {
      hooks: {
        onStep: async (_step, index, gh) => {
          if (index === 2) seen = { ...(await atStop(gh)), integration: await gh.repo.branchSha('crew/1/r1/integration') };
          if (index === 4) afterAccept = { ...(await runRecord(gh)), said: lastCrewComment(gh) };
        },
      },
    });
    expectFaithful(r);
    expect(seen!.phase).toBe('ESCALATING');
    expect(seen!.waiting).toMatchObject({ kind: 'budget', limit: 'run', at: 'integration', conflict: { task: 't2', files: ['src/index.js'] } });
    expect(seen!.integration).toBeUndefined();
    expect(seen!.question).toMatch(
      /^\*\*crew stopped at a budget\*\*: the run has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.run` \(\$\d+\.\d+, 20,000,000 tokens\)\. Nothing is lost: every task's work is done and on its branch\. Merging t2 conflicts with the work before it in `src\/index\.js`, and the resolver stopped before it merged them; the integration branch was not changed\.\n\n- ✅ t1: done, on \[`crew\/1\/r1\/t1`\]\([^)]+\)\n- ✅ t2: done, on \[`crew\/1\/r1\/t2`\]\([^)]+\)\n\nReply with one of:\n- `\/crew continue` — the resolver merges t2 again \(or crew merges a fix you pushed to a task branch first\), with another `budgets\.run` to spend from here; `\/crew continue \$N` gives it \$N more instead;\n- `\/crew abort` — end the run; its branches are cleaned up as a failed run's are\.\n\n`\/crew accept` has nothing to take here: the tasks' branches conflict, so there is no integrated work to open a pull request with\./,
    );
    expect(seen!.plan).toContain('**Stopped at a budget** while merging the tasks: the run has spent');
    expect(seen!.plan).toContain('**Commands now:** `/crew continue` · `/crew abort`');
    expect(crewComments(r).some((c) => c.body.includes('**crew needs a decision**'))).toBe(false);
    expect(afterAccept).toMatchObject({ phase: 'ESCALATING', waiting: seen!.waiting });
    expect(afterAccept!.said).toBe(
      "crew did not accept: run 1 stopped at its budget while merging the tasks: t2's branch conflicts with the work before it, and the resolver stopped before it merged them, so there is no integrated work to open a pull request with. Comment `/crew continue` to let the resolver merge it (or push a fix to a task branch first, and crew merges that) (`/crew continue $N` to set how much more it may spend), or `/crew abort` to end the run.",
    );
    // The resolver's refused request never reached the model; after `/crew continue` it merged in its three turns.
    expect(r.model.byRole.resolver).toBe(4);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toEqual(['src/index.js']);
    expect(r.pulls[0]!.body).not.toContain('accepted this with `/crew accept`');
  }, 600_000);

  it('the retrospective: skipped with a note on the pull request, not a failure; `/crew accept` says there is nothing to take, `/crew continue $5` writes it in the note’s place', async () => {
    let atEnd: { phase: string; retroAtBudget?: { commentId: number }; retro: unknown; labels: string[]; note: string; plan: string } | undefined;
    let said = '';
    let retro: { retro: { commentId: number } | null; retroAtBudget?: unknown } | undefined;
    const r = await play('retro-budget-end', {
      hooks: {
        onStep: async (_step, index, gh) => {
          if (index === 2) {
            const run = await runRecord(gh);
            const body = (id: number | undefined) => shown([...gh.comments.values()].find((c) => c.id === id)?.body ?? '');
            atEnd = { ...run, labels: [...(gh.issues.get(1)?.labels ?? [])], note: body(run.retroAtBudget?.commentId), plan: body(run.planCommentId) };
          }
          if (index === 4) said = lastCrewComment(gh);
        },
        beforeClose: async ({ gh }) => void (retro = await runRecord(gh)),
      },
    });
    expectFaithful(r);
    expect(atEnd).toMatchObject({ phase: 'COMPLETED', retro: null, retroAtBudget: { phase: 'COMPLETED' } });
    expect(atEnd!.labels).not.toContain('crew: waiting');
    expect(atEnd!.note).toMatch(
      /^\*\*No retrospective\*\* of run 1 yet: the run has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.run` \(\$\d+\.\d+, 20,000,000 tokens\), and writing it would spend more\. This is not a failure: the run itself is not affected, and its pull request stands as it is\. Comment `\/crew continue` on #1 to write it here, with another `budgets\.run` to spend from what the run spent \(`\/crew continue \$N`: \$N more\)\. Nothing else waits for it\.$/,
    );
    expect(atEnd!.plan).toContain("**Retrospective**: skipped at the run's budget ([the note](");
    expect(atEnd!.plan).toMatch(/\*\*Commands now:\*\* [^\n]*`\/crew continue`/);
    const pr = r.pulls[0]!;
    const note = pr.comments.find((c) => c.id === atEnd!.retroAtBudget!.commentId)!;
    expect(r.issue.comments.concat(pr.comments).some((c) => c.body.includes('could not write the retrospective'))).toBe(false);
    expect(said.replace(/is http:\/\/[^ ]+\/pull\/(\d+)\)/, 'is #$1)')).toBe(
      `There is nothing to accept: run 1 has ended (its pull request is #${pr.number}); only its retrospective was skipped at the run's budget. Comment \`/crew continue\` to write it (\`/crew continue $N\` to set how much more it may spend).`,
    );
    // Written after `/crew continue $5`, in the note's place: the note is now the retrospective.
    expect(retro).toMatchObject({ retro: { commentId: note.id } });
    expect(retro!.retroAtBudget).toBeUndefined();
    expect(note.body).toContain('The default retrospector of a scenario that does not script one has nothing to add.');
    expect(r.model.byRole.retrospector).toBe(1);
    expect(pr.merged).toBe(false);
  }, 600_000);
});
