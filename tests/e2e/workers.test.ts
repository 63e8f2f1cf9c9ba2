import { describe, expect, it } from 'vitest';
import { git } from '../support/git-cli';
import { crewComments, expectFaithful, play } from './helpers';

const CANARY = 'sk-ant-canary-do-not-leak-0123456789abcdef';

describe('workers: attempts, limits, messages and the sandbox, through dist/', () => {
  it('a retry receives the failure reason; nothing from earlier attempts is lost; a thin success is retried; run_command cannot change protected paths; the repo’s persona override and map are in the cached prefix', async () => {
    let second = '';
    let third = '';
    let attempts: string[] = [];
    let branch: Record<string, string | undefined> = {};
    let systems: unknown[] = [];
    let firstResult = '';
    const r = await play('worker-retry', {
      hooks: {
        beforeClose: async ({ gh, anthropic }) => {
          const worker = anthropic.requests.filter((q) => q.role === 'worker');
          second = JSON.stringify(worker.find((q) => q.attempt === 2)?.body.messages[0]);
          third = JSON.stringify(worker.find((q) => q.attempt === 3)?.body.messages[0]);
          systems = worker.map((q) => q.body.system);
          attempts = (await gh.repo.listFiles('refs/heads/crew/state')).filter((f) => f.includes('/results/attempts/'));
          firstResult = (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/results/attempts/result_t1_a1.md')) ?? '';
          const ref = 'refs/heads/crew/1/r1/t1';
          branch = {
            notes: await gh.repo.readFile(ref, 'NOTES.md'),
            crewYml: await gh.repo.readFile(ref, '.github/crew.yml'),
            mainCrewYml: await gh.repo.readFile('refs/heads/main', '.github/crew.yml'),
          };
        },
      },
    });
    expectFaithful(r);
    expect(second).toContain('Attempt: 2');
    expect(second).toContain(
      'The last attempt did not succeed because: the worker reached its turn limit; crew undid the changes to protected paths (.github/crew.yml)',
    );
    // A success reported in under 20 lines is RED and retried, and the retry is told why.
    expect(third).toContain('Attempt: 3');
    expect(third).toContain('The last attempt did not succeed because: the report was too thin (3 lines; at least 20 are expected)');
    // The retry is told plainly what the branch already holds, so it builds on it instead of redoing it.
    expect(third).toContain('## What the branch already holds');
    expect(third).toMatch(/NOTES\.md +\|/);
    expect(third).toMatch(/src\/index\.js +\|/);
    expect(attempts.sort()).toEqual(['a1', 'a2', 'a3'].map((a) => `issue-1/run-1/results/attempts/result_t1_${a}.md`));
    expect(firstResult).toMatch(/metadata_issues:[\s\S]*- "?changes to protected paths were reverted: .github\/crew.yml/);
    // What run_command wrote to .github/crew.yml never reached a commit; attempt 1's own file did, and stayed.
    expect(branch.crewYml).toBe(branch.mainCrewYml);
    expect(branch.crewYml).not.toContain('allow_unsandboxed');
    expect(branch.notes).toBe('# Notes\n\ncapitalize needs an example.\n');
    // The repository's worker_coder override from the default branch, then the repository map, in the cached system block.
    expect(systems).toHaveLength(7);
    for (const system of systems as Array<Array<{ type: string; text: string; cache_control?: unknown }>>) {
      expect(system).toHaveLength(1);
      expect(system[0]!.text).toMatch(
        /^You are crew's worker, acting as a coder for ACME \(repository override: keep every change small\)\.\n\n## Repository map\n/,
      );
      // Ranked for the task (#48): the source file first, with its definitions.
      expect(system[0]!.text).toContain('\n\nsrc/index.js\n  2│ export function capitalize(text) {\n');
      expect(system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    }
    const plan = crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(plan.body).toMatch(/\| \*\*t1\*\* .* \| ✅ success \| .* \| 3 \|/);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files.sort()).toEqual(['NOTES.md', 'src/index.js']);
  });

  it('a task budget is a hard stop: the worker gets one last turn to report, its work is pushed and the plan comment says so, with no retry; the run asks (#52), and `/crew continue` finishes it from its branch', async () => {
    let notes: string | undefined;
    let t1 = '';
    let lastTurn = '';
    let atStop: { notes?: string; t1: string; plan: string; question: string } | undefined;
    const r = await play('worker-budget', {
      hooks: {
        onStep: async (_step, index, gh) => {
          if (index !== 2) return;
          const crew = [...gh.comments.values()].filter((c) => c.issue === 1 && c.user !== 'maintainer');
          atStop = {
            notes: await gh.repo.readFile('refs/heads/crew/1/r1/t1', 'NOTES.md'),
            t1: (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json')) ?? '',
            plan: crew.find((c) => c.body.includes('<!-- crew:plan'))!.body,
            question: crew.find((c) => c.body.includes('crew stopped at a budget'))?.body ?? '',
          };
        },
        beforeClose: async ({ gh, anthropic }) => {
          notes = await gh.repo.readFile('refs/heads/crew/1/r1/t1', 'NOTES.md');
          t1 = (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/tasks/task_t1.json')) ?? '';
          lastTurn = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker' && q.task === 't1')[1]?.body.messages.at(-1));
        },
      },
    });
    expectFaithful(r);
    expect(lastTurn).toContain("crew: this attempt's budget is spent, so this is your last turn. Call report_result now");
    expect(atStop!.notes).toBe('# Notes\n\nStarted.\n');
    expect(JSON.parse(atStop!.t1)).toMatchObject({
      status: 'pending',
      attempts: 1,
      summary: 'Started NOTES.md; the budget ran out before the notes were written.',
      error:
        "the worker reported partial: Started NOTES.md; the budget ran out before the notes were written. (it spent the attempt's budget and reported in its last turn)",
      limitReached: { limit: 'budget', attempt: 1, turns: 2, reported: true, files: 1 },
    });
    expect(atStop!.plan).toMatch(
      /⏳ \*\*t1\*\*, attempt 1, spent its budget \(`budgets`\) after 2 turns, and it reported in its last turn\. Its work is kept: committed on \[`crew\/1\/r1\/t1`\]/,
    );
    expect(atStop!.question).toMatch(
      /^\*\*crew stopped at a budget\*\*: t1 has spent \$\d+\.\d+ \([\d,]+ tokens\) of `budgets\.task` \(\$20\.00, 1,000 tokens\)\./,
    );
    expect(atStop!.question).toContain('- `/crew continue` — go on from the work on the branch, t1 with a fresh `budgets.task`;');
    // No re-planning: the task kept its work and went on from it.
    expect(r.model.byRole).toEqual({ intake: 1, plan_reviewer: 1, worker: 3, critic: 1, retrospector: 1 });
    expect(JSON.parse(t1)).toMatchObject({ status: 'success', attempts: 2, replacedBy: null });
    expect(notes).toBe('# Notes\n\nStarted.\n\nDone after /crew continue.\n');
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
  });

  it('/crew abort mid-task: the worker stops at its next turn, its work is kept, the run ends ABORTED', async () => {
    let notes: string | undefined;
    let more: string | undefined;
    let head: string | undefined;
    const inbox: Array<{ from: string; to: string; type: string; text: string }> = [];
    const r = await play('worker-abort', {
      hooks: {
        beforeClose: async ({ gh }) => {
          notes = await gh.repo.readFile('refs/heads/crew/1/r1/t1', 'NOTES.md');
          more = await gh.repo.readFile('refs/heads/crew/1/r1/t1', 'MORE.md');
          head = await gh.repo.branchSha('crew/1/r1/t1');
          for (const f of (await gh.repo.listFiles('refs/heads/crew/state')).filter((p) => p.startsWith('issue-1/run-1/inbox/'))) {
            inbox.push(JSON.parse((await gh.repo.readFile('refs/heads/crew/state', f))!));
          }
        },
      },
    });
    expectFaithful(r);
    expect(r.model.byRole.worker).toBe(2); // the third turn never happened
    expect(notes).toBe('# Notes\n\nFirst part.\n');
    expect(more).toBeUndefined();
    // The shutdown_request reached t1, and its answer is recorded for the leader, saying where the partial work is.
    expect(inbox.filter((m) => m.type === 'shutdown_request').map((m) => m.to)).toEqual(['t1']);
    const answer = inbox.filter((m) => m.type === 'shutdown_response');
    expect(answer).toEqual([expect.objectContaining({ from: 't1', to: 'leader', text: `stopped after 2 turns; partial work is at ${head!.slice(0, 7)}` })]);
    const plan = crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!;
    expect(plan.body).toContain('🛑 Aborted');
    expect(plan.body).toContain('🟡 partial');
    expect(crewComments(r).some((c) => c.body.startsWith('Aborting run 1. t1 will stop at the end of a turn within half a minute'))).toBe(true);
    expect(r.pulls).toEqual([]);
  });

  it('canary secrets never reach a tool, a comment, the PR, a log or a branch, even when the model pastes what it found', async () => {
    const bodies: string[] = [];
    const logs: string[] = [];
    const pushed: string[] = [];
    let tokens: string[] = [];
    let toolOutput = '';
    let pasted = '';
    // Token-shaped strings the model claims to have found (as if a secret had reached it some other way).
    const found = ['ghp_' + 'Q7'.repeat(18), 'AKIAIOSFODNN7EXAMPLE', 'xoxb-1234567890-exfiltrate'];
    const details = [
      '## What changed',
      '- `NOTES.md`',
      '',
      '```md',
      '# Notes',
      '```',
      '',
      '## How I checked it',
      '- Re-read the file.',
      '',
      '## Not done',
      '- Nothing.',
      '',
      '## Risks',
      '- None.',
      '',
      '## What I found',
      ...found,
      CANARY,
    ];
    const r = await play('worker-canary', {
      edit: (s) => {
        // The worker pastes everything its command printed into a file and its report, and adds what it "knows".
        s.model = {
          ...(s.model as object),
          respond: (q: { role: string; turn: number; body: { messages: Array<{ content: unknown }> } }) => {
            if (q.role !== 'worker' || q.turn === 0) return undefined;
            if (q.turn === 1) {
              pasted = JSON.stringify(q.body.messages.at(-1)?.content);
              return { content: [{ type: 'tool_use', name: 'write_file', input: { path: 'NOTES.md', content: `# Notes\n\nWhat env printed:\n${pasted}\n` } }] };
            }
            return {
              content: [
                { type: 'text', text: `Pasting the environment: ${pasted} ${CANARY}` },
                {
                  type: 'tool_use',
                  name: 'report_result',
                  input: {
                    status: 'success',
                    quality: 'GREEN',
                    completeness: 100,
                    summary: `Added NOTES.md. Found ${CANARY} and ${found.join(' ')}.`,
                    details: [...details, pasted].join('\n'),
                    feedback: { type: 'implementation', result: CANARY, changes: found },
                  },
                },
              ],
            };
          },
        };
      },
      hooks: {
        beforeClose: async ({ gh, anthropic, runner }) => {
          bodies.push(...anthropic.requests.map((q) => JSON.stringify(q.body)));
          toolOutput = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker')[1]?.body.messages.at(-1));
          tokens = gh.issuedTokens.filter((t) => t.startsWith('ghs_'));
          for (const run of runner.runs) for (const job of run.jobs) logs.push(...job.rawLog);
          // Everything crew pushed: every file and every commit message on every branch, crew/state included.
          for (const { ref } of await gh.repo.listRefs('refs/heads/')) {
            pushed.push(await git(['log', '--format=%B', ref], { cwd: gh.repoDir }));
            for (const f of await gh.repo.listFiles(ref)) pushed.push((await gh.repo.readFile(ref, f)) ?? '');
          }
        },
      },
    });
    expectFaithful(r);
    expect(toolOutput).toContain('crew-tool'); // the command really ran, as the sandbox user
    expect(toolOutput).toContain('PATH=');
    expect(pasted).toContain('PATH='); // and the model did paste it
    expect(tokens.length).toBeGreaterThan(0);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.body).toContain('Added NOTES.md. Found *** and *** *** ***.');
    expect(pushed.join('\n')).toContain('What env printed:');
    const everything = [
      ...bodies,
      ...logs,
      ...pushed,
      ...r.issue.comments.map((c) => c.body),
      ...r.pulls.flatMap((p) => [p.title, p.body ?? '', ...p.comments.map((c) => c.body)]),
    ].join('\n');
    for (const secret of [CANARY, ...tokens, ...found]) expect(everything.includes(secret), secret.slice(0, 8)).toBe(false);
  });

  it('messages between running workers arrive between turns as teammate-message blocks', async () => {
    let t2: string[] = [];
    let cached = false;
    const r = await play('worker-messages', {
      hooks: {
        beforeClose: async ({ anthropic }) => {
          const worker = anthropic.requests.filter((q) => q.role === 'worker');
          t2 = worker.filter((q) => q.task === 't2').map((q) => JSON.stringify(q.body.messages));
          cached = worker.every(
            (q) => JSON.stringify(q.body.system).includes('cache_control') && JSON.stringify((q.body.tools as unknown[]).at(-1)).includes('cache_control'),
          );
        },
      },
    });
    expectFaithful(r);
    expect(t2[0]).not.toContain('teammate-message');
    expect(t2.slice(1).some((m) => m.includes('<teammate-message from=\\"t1\\" type=\\"message\\">\\nslugify(text) will live in src/slugify.js'))).toBe(true);
    expect(cached).toBe(true); // the stable prefix carries cache markers on every worker turn
    expect(r.pulls[0]!.files.sort()).toEqual(['README.md', 'src/slugify.js']);
  });
});

describe('report checks inside the conversation (#17 §5)', () => {
  it('a 16-line report is sent back as a tool error and fixed in one more turn: one attempt, the work kept, the critic passes', async () => {
    let requests: Array<{ attempt?: number; turn: number; last: string }> = [];
    let result = '';
    const r = await play('report-fixed-in-conversation', {
      hooks: {
        beforeClose: async ({ anthropic, gh }) => {
          requests = anthropic.requests
            .filter((q) => q.role === 'worker')
            .map((q) => ({ attempt: q.attempt, turn: q.turn, last: JSON.stringify(q.body.messages.at(-1)) }));
          result = (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/results/result_t1.md')) ?? '';
        },
      },
    });
    expectFaithful(r);
    expect(requests.map((q) => [q.attempt, q.turn])).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    // The third request answers the thin report with the reason, as an error, and keeps the work.
    expect(requests[2]!.last).toContain('"is_error":true');
    expect(requests[2]!.last).toContain('Not accepted yet, only the report: your work is kept as it is.');
    expect(requests[2]!.last).toContain('the report has 16 lines; at least 20 are expected');
    // The same report also said "npm test passes" with no command run: the one re-ask names both.
    expect(requests[2]!.last).toContain(
      JSON.stringify('the report claims checks it has no evidence for ("test passes"), but you ran no command in this attempt').slice(1, -1),
    );
    expect(result).toMatch(/^attempt: 1$/m);
    expect(result).toMatch(/^quality: GREEN$/m);
    expect(r.pulls).toHaveLength(1);
  }, 300_000);
});

describe('trusted setup', () => {
  it('runs before the agent; its output is visible to the sandboxed tools but never committed', async () => {
    let toolOutput = '';
    const r = await play('worker-setup', {
      hooks: {
        beforeClose: async ({ anthropic }) =>
          void (toolOutput = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker')[1]?.body.messages.at(-1))),
      },
    });
    expectFaithful(r);
    expect(toolOutput).toContain('exit code 0');
    expect(toolOutput).toContain('built-by-setup');
    expect(r.pulls[0]!.files).toEqual(['NOTES.md']);
  });
});
