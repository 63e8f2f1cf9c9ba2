import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/anthropic/index';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play } from './helpers';

type ScriptEntries = { entries: Array<{ role: string; replies: Array<{ content: Array<Record<string, any>> }> }> };

const textOf = (q: RecordedRequest | undefined, part: 'system' | 'first'): string => {
  if (!q) return '';
  const blocks = (c: unknown) => (typeof c === 'string' ? c : (c as Array<{ type: string; text?: string }>).map((b) => b.text ?? '').join('\n'));
  return part === 'system' ? blocks(q.body.system) : blocks(q.body.messages.find((m) => m.role === 'user')?.content ?? '');
};

/** A body padded to 1 MB with mixed text (words, markup, control characters, other scripts), the same every time. */
function padTo1MB(body: string): string {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = ['lorem ', 'ipsum ', '<b>', '</b>', '\n', '\t', '\u0001', 'é', '漢字', '🙂', '&amp;', '`', '|', '# '];
  let out = `${body}\nFILLER-START\n`;
  while (out.length < 1_000_000) out += alphabet[Math.floor(rand() * alphabet.length)];
  return out;
}

describe('one hostile, huge issue, through dist/ and the shipped workflow', () => {
  const pwn = join(tmpdir(), `crew-pwn-${process.pid}-${Date.now()}`);
  const longReply = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} of the worker's very long reply`).join('\n');
  let r: ScenarioResult;
  let requests: RecordedRequest[] = [];
  let payloadTitle = '';
  let stateRequest = '';
  let stateResult = '';
  let all = '';
  let intake = '';
  beforeAll(async () => {
    r = await play('hostile-issue', {
      edit: (s) => {
        s.issue.title = s.issue.title.replaceAll('PWN', pwn);
        s.issue.body = padTo1MB(s.issue.body.replaceAll('PWN', pwn));
        payloadTitle = s.issue.title;
        const last = (s.model as ScriptEntries).entries.find((e) => e.role === 'worker')!.replies[1]!.content;
        last[0]!.text = longReply;
        last[1]!.input.details = `${last[1]!.input.details}\n## Output\n${longReply}`;
      },
      hooks: {
        beforeClose: async ({ anthropic, gh }) => {
          requests = [...anthropic.requests];
          stateRequest = (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/request.md')) ?? '';
          stateResult = (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/results/result_t1.md')) ?? '';
        },
      },
    });
    all = requests.map((q) => JSON.stringify(q.body)).join('\n');
    intake = textOf(
      requests.find((q) => q.role === 'intake'),
      'first',
    );
  }, 600_000);

  it('ends like any run: every job succeeds and a pull request is opened', () => {
    expectFaithful(r);
    expect(r.jobs.filter((j) => j.result === 'failure')).toEqual([]);
    expect(r.pulls).toHaveLength(1);
  });

  it('hidden instructions never reach a prompt; what a reader sees does', () => {
    expect(all).not.toMatch(/HIDDEN-(?!BIDI)/);
    expect(intake).toContain('PAYLOAD-VERSION of the body.');
    expect(intake).toContain('Zero width: ignore this is visible text.');
    expect(intake).toContain('Bidi: HIDDEN-BIDI-REVERSED is visible');
    expect(intake).toContain('[image]');
    expect(intake).toContain('<span>hover me</span>');
    expect(intake).toContain('&lt;!-- entity-spelled, which a reader sees as text --&gt;');
    expect(all).not.toMatch(/[\u200B-\u200D\u202A-\u202E]/);
  });

  it('the issue is read from the event payload: an edit and a comment after the trigger are left out', () => {
    expect(r.issue.title).toBe('EDITED-TITLE'); // the edit did happen, before crew's first job read anything
    expect(all).not.toContain('EDITED-');
    expect(all).not.toContain('LATE-COMMENT');
    expect(r.pulls[0]!.title).toBe(payloadTitle);
  });

  it('shell and workflow expressions in the title and body are never executed', () => {
    for (const suffix of ['-title', '-backtick', '-body', '-body-backtick']) expect(existsSync(`${pwn}${suffix}`), suffix).toBe(false);
    expect(intake).toContain(`$(touch ${pwn}-body)`);
    expect(r.pulls[0]!.title).toContain('${{ secrets.ANTHROPIC_API_KEY }}');
  });

  it('configuration, templates and knowledge come from the default branch, not the branch under work', () => {
    const worker = requests.find((q) => q.role === 'worker');
    expect(all).not.toContain('FROM-TASK-BRANCH');
    expect(textOf(worker, 'system')).toContain('DEFAULT-APPEND');
    expect(textOf(worker, 'first')).toContain('DEFAULT-KNOWLEDGE: keep helpers small.');
    expect(
      requests
        .filter((q) => q.role === 'critic')
        .map((q) => textOf(q, 'system'))
        .join(''),
    ).toContain('DEFAULT-APPEND');
    // worker_max_turns: 1 from the branch would have ended the task at its first turn.
    expect(r.model.byRole.worker).toBe(2);
    expect(crewComments(r).find((c) => c.body.includes('<!-- crew:plan'))!.body).toMatch(/\| \*\*t1\*\* .* \| ✅ success \| .* \| 1 \|/);
  });

  it('a 1 MB body, 10,000 comments and a 5,000-line reply stay bounded, are cut with a note, and the comments are never listed', () => {
    expect(r.github.crew.byRoute['GET /repos/{owner}/{repo}/issues/{issue_number}/comments']).toBeUndefined();
    expect(r.issue.comments.length).toBeGreaterThan(10_000);
    expect(intake).toContain('FILLER-START');
    expect(intake.length).toBeLessThan(30_000);
    expect(intake).toMatch(/\[truncated: the text has 1,000,\d{3} characters; only the first part is shown\]/);
    expect(stateRequest.length).toBeGreaterThan(1_000_000); // people can still read all of it on crew/state
    const posted = [...crewComments(r), ...r.pulls.flatMap((p) => [{ body: p.body ?? '' }, ...p.comments])];
    for (const p of posted) expect(p.body.length).toBeLessThanOrEqual(65_536);
    const report = r.pulls[0]!.comments.find((c) => c.body.includes('line 1 of the worker'))!;
    expect(report.body).toMatch(/\[cut: the details had [\d,]+ characters; the first 40,000 are kept\]/);
    expect(report.body).not.toContain('line 5000 of');
    expect(stateResult).toMatch(/details cut to 40,000 characters/);
  });
});

describe('caps per run, through dist/', () => {
  it('a plan needing more branches than the cap allows stops the run with one comment, before any branch exists', async () => {
    const r = await play('caps');
    expectFaithful(r);
    const mine = crewComments(r);
    expect(mine).toHaveLength(2); // the plan comment and the one that says why the run stopped
    const stop = mine.find((c) => c.body.includes('crew stopped run 1'))!;
    expect(stop.body).toContain('more branches than `caps.branches_per_run` allows (4 per run; this run would need 7)');
    expect(stop.body).toContain('raise `caps.branches_per_run` in `.github/crew.yml` on the default branch');
    expect(mine.find((c) => c.body.includes('<!-- crew:plan'))!.body).toContain('stopped at caps.branches_per_run');
    expect(r.branches.map((b) => b.name).sort()).toEqual(['crew/state', 'main']);
    expect(r.jobs.filter((j) => j.result !== 'skipped').map((j) => `${j.job}:${j.result}`)).toEqual(['route:failure']);
    expect(r.model.byRole.worker).toBeUndefined();
  });

  it('a model asking more questions than the comment cap allows gets none posted, and one comment says why', async () => {
    const r = await play('caps', {
      edit: (s) => {
        s.config = 'caps:\n  comments_per_run: 1\n';
        (s.model as ScriptEntries).entries.find((e) => e.role === 'intake')!.replies[0]!.content[0]!.input.questions = [
          'What should each note say?',
          'Which folder?',
        ];
      },
    });
    expectFaithful(r);
    const mine = crewComments(r);
    expect(mine.map((c) => (c.body.includes('<!-- crew:plan') ? 'plan' : c.body.split('\n')[0]))).toEqual([
      'plan',
      '**crew stopped run 1**: it would have created more comments than `caps.comments_per_run` allows (1 per run; this run would need 2).',
    ]);
    expect(r.issue.labels).not.toContain('crew: waiting');
    expect(r.model.byRole.decomposer).toBeUndefined();
  });

  it('the run budget binds the planning agents too: once the intake spends it, the decomposer is never called and one comment names the budget and asks (#52)', async () => {
    const r = await play('run-budget');
    expectFaithful(r);
    expect(r.model.byRole).toEqual({ intake: 1 });
    const asked = crewComments(r).filter((c) => !c.body.includes('<!-- crew:plan'));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body).toMatch(
      /^\*\*crew stopped at a budget\*\*: the run has spent \$[\d.]+ \([\d,]+ tokens\) of `budgets\.run` \(\$50\.00, 1,000 tokens\)\. crew was still planning/,
    );
    expect(asked[0]!.body).toContain('- `/crew continue` — go on planning, with another `budgets.run` to spend from here');
    expect(r.pulls).toHaveLength(0);
  });
});
