import { describe, expect, it } from 'vitest';
import { checkResult, MIN_REPORT_LINES, reportProblems, resultFile, unbackedClaims, type Observed } from '../../../src/domain/result';
import { ZERO_USAGE } from '../../../src/domain/run-state';
import { parseReport } from '../../../src/agents/worker';

const long = Array.from({ length: MIN_REPORT_LINES }, (_, i) => `line ${i + 1}`).join('\n');
const seen = (over: Partial<Observed> = {}): Observed => ({
  persona: 'writer',
  ending: 'reported',
  changedFiles: ['README.md'],
  turns: 3,
  usage: ZERO_USAGE,
  toolCalls: { read_file: 1 },
  ...over,
});

describe('claude-crew’s metadata rules on what the worker reported', () => {
  it('a full report passes untouched', () => {
    const r = checkResult({ status: 'success', quality: 'GREEN', completeness: 100, summary: 'done', details: long }, seen());
    expect(r).toMatchObject({ status: 'success', quality: 'GREEN', completeness: 100, retry: false, reason: null, metadataIssues: [], complete: true });
  });

  it('missing marker (no report at all): failure, retried', () => {
    expect(checkResult(undefined, seen({ ending: 'no_report' }))).toMatchObject({
      status: 'failure',
      retry: true,
      complete: false,
      metadataIssues: [expect.stringContaining('completion marker missing')],
    });
  });

  it('missing status: failure', () => {
    const r = checkResult({ quality: 'GREEN', completeness: 90, summary: 's', details: long }, seen());
    expect(r.status).toBe('failure');
    expect(r.retry).toBe(true);
    expect(r.metadataIssues).toContain('status missing, treated as failure');
  });

  it('missing quality: YELLOW; missing completeness: 0', () => {
    const r = checkResult({ status: 'success', summary: 's', details: long }, seen());
    expect(r).toMatchObject({ quality: 'YELLOW', completeness: 0, status: 'success', retry: false });
    expect(r.metadataIssues).toEqual(['quality missing, defaulted to YELLOW', 'completeness missing, defaulted to 0']);
  });

  it('under 20 lines: RED and retried', () => {
    const r = checkResult({ status: 'success', quality: 'GREEN', completeness: 100, summary: 'short', details: 'two\nlines' }, seen());
    expect(r).toMatchObject({ quality: 'RED', retry: true, status: 'success' });
    expect(r.metadataIssues).toEqual([`report has 4 lines (under ${MIN_REPORT_LINES}); quality set to RED`]);
  });

  it('a coder task with an empty diff: failure', () => {
    const r = checkResult(
      { status: 'success', quality: 'GREEN', completeness: 100, summary: 's', details: `${long}\n\`\`\`js\nx\n\`\`\`` },
      seen({ persona: 'coder', changedFiles: [] }),
    );
    expect(r).toMatchObject({ status: 'failure', retry: true, reason: 'the coder task changed no files' });
  });

  it('warns, without retrying, about a researcher without sources and a coder without code', () => {
    expect(
      checkResult({ status: 'success', quality: 'GREEN', completeness: 100, summary: 's', details: long }, seen({ persona: 'researcher' })).metadataIssues,
    ).toEqual(['Sources section missing']);
    expect(checkResult({ status: 'success', quality: 'GREEN', completeness: 100, summary: 's', details: long }, seen({ persona: 'coder' }))).toMatchObject({
      retry: false,
      metadataIssues: ['code block missing'],
    });
  });

  it('turn limit, time limit, budget and shutdown end the attempt as the spec says', () => {
    expect(checkResult(undefined, seen({ ending: 'max_turns' }))).toMatchObject({ status: 'timeout', retry: true });
    expect(checkResult(undefined, seen({ ending: 'wall_clock' }))).toMatchObject({ status: 'timeout', retry: false }); // task_timeout covers every attempt: none would have time left
    // The attempt's own budget (#49): a retry gets a new one while the task's and the run's have room (the work step decides).
    expect(checkResult(undefined, seen({ ending: 'budget' }))).toMatchObject({
      status: 'failure',
      retry: true,
      reason: "the worker spent the attempt's budget",
    });
    expect(checkResult(undefined, seen({ ending: 'loop', error: 'the worker called edit_file with the same input 5 times' }))).toMatchObject({
      status: 'failure',
      retry: true,
      reason: 'the attempt was stopped going round in circles: the worker called edit_file with the same input 5 times',
    });
    expect(checkResult(undefined, seen({ ending: 'shutdown' }))).toMatchObject({ status: 'partial', retry: false });
  });

  it('a shutdown because the run stopped at a budget says the budget, not an abort, in its summary and reason too (#52)', () => {
    const r = checkResult(undefined, seen({ ending: 'shutdown', stoppedBy: 'budget' }));
    const why = 'the run stopped at a budget; the worker stopped at the end of a turn';
    expect(r).toMatchObject({ status: 'partial', retry: false, summary: why, reason: why });
    expect(JSON.stringify(r)).not.toContain('aborted');
    expect(checkResult(undefined, seen({ ending: 'shutdown' })).reason).toContain('the run was aborted');
  });

  it('a report in the last turn after a limit stands, and its reason says which limit (#49)', () => {
    const r = checkResult(
      { status: 'partial', quality: 'YELLOW', completeness: 60, summary: 'half done', details: long },
      seen({ ending: 'reported', limit: 'budget' }),
    );
    expect(r).toMatchObject({ status: 'partial', retry: true, complete: true });
    expect(r.reason).toBe("the worker reported partial: half done (it spent the attempt's budget and reported in its last turn)");
  });

  it('an error outside the tools: failure, retried, with the error as the reason', () => {
    expect(checkResult(undefined, seen({ ending: 'error', error: 'the Anthropic API kept failing after 5 attempts' }))).toMatchObject({
      status: 'failure',
      retry: true,
      complete: false,
      reason: 'the attempt stopped on an error: the Anthropic API kept failing after 5 attempts',
    });
  });

  it('changes to protected paths that crew undid: a metadata issue, and a reason the next attempt reads, whatever else happened', () => {
    const reverted = ['.github/crew.yml', '.github/workflows/ci.yml'];
    const ok = checkResult({ status: 'success', quality: 'GREEN', completeness: 100, summary: 'done', details: long }, seen({ reverted }));
    expect(ok).toMatchObject({ status: 'success', retry: false });
    expect(ok.metadataIssues).toEqual(['changes to protected paths were reverted: .github/crew.yml, .github/workflows/ci.yml']);
    expect(ok.reason).toBe('crew undid the changes to protected paths (.github/crew.yml, .github/workflows/ci.yml): agents may not change them, with any tool');
    const timedOut = checkResult(undefined, seen({ ending: 'max_turns', reverted }));
    expect(timedOut).toMatchObject({ status: 'timeout', retry: true });
    expect(timedOut.reason).toMatch(/^the worker reached its turn limit; crew undid the changes to protected paths/);
  });

  it('keeps only the valid parts of what the model sent', () => {
    expect(parseReport({ status: 'done', quality: 'BLUE', completeness: 'lots', summary: 's', feedback: { type: 'difficulty', issue: 'x' } })).toEqual({
      summary: 's',
    });
    expect(
      parseReport({
        status: 'partial',
        feedback: { type: 'difficulty', issue: 'x', attempts: [], impediment: { category: 'scope', requestedAction: 'widen' } },
      }),
    ).toMatchObject({ status: 'partial', feedback: { impediment: { category: 'scope' } } });
  });
});

describe('what is wrong with a report itself, for the worker to fix in the same conversation', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
  it('names missing metadata and a short report; a whole report has nothing wrong', () => {
    expect(reportProblems({ status: 'success', quality: 'GREEN', completeness: 100, summary: 's', details: lines(MIN_REPORT_LINES) })).toEqual([]);
    const thin = reportProblems({ status: 'success', quality: 'GREEN', completeness: 100, summary: 's', details: lines(14) });
    expect(thin).toEqual([expect.stringContaining('the report has 16 lines; at least 20 are expected')]);
    expect(reportProblems({ summary: 's', details: lines(30) })).toEqual([
      'status is missing: say success, partial or failure',
      'quality is missing: say GREEN, YELLOW or RED',
      'completeness is missing: a number from 0 to 100',
    ]);
  });
});

describe('a success claim without evidence', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');
  it('finds sentences that say a check passed, and not wishes, conditions or denials', () => {
    expect(unbackedClaims('## How I checked it\n- npm test passes.\n- `npm run lint` exits 0\n- I ran `make check` twice.')).toEqual([
      'test passes',
      '`npm run lint` exits 0',
      'I ran `make check`',
    ]);
    expect(unbackedClaims('All the tests pass now. The build is green.')).toEqual(['tests pass', 'build is green']);
    for (const honest of [
      'Re-read every changed file after editing it.',
      'I did not run the tests: the sandbox has no node.',
      'Someone should make sure the tests pass on Windows.',
      "The build won't pass until t2 lands.",
      'Run `npm test` once t2 is merged.',
    ])
      expect(unbackedClaims(honest), honest).toEqual([]);
  });

  it('goes back to the worker only when it ran no command, and only for a success', () => {
    const report = { status: 'success' as const, quality: 'GREEN' as const, completeness: 100, summary: 'npm test passes.', details: lines(MIN_REPORT_LINES) };
    expect(reportProblems(report, 0)).toEqual([
      expect.stringContaining('the report claims checks it has no evidence for ("test passes"), but you ran no command in this attempt'),
    ]);
    expect(reportProblems(report, 1)).toEqual([]);
    expect(reportProblems(report)).toEqual([]);
    expect(reportProblems({ ...report, status: 'partial' }, 0)).toEqual([]);
  });

  it('a claim the worker would not back or drop makes the result RED and asks for a new attempt', () => {
    const report = { status: 'success' as const, quality: 'GREEN' as const, completeness: 100, summary: 'The tests pass.', details: long };
    expect(checkResult(report, seen({ persona: 'coder', toolCalls: { edit_file: 1 } }))).toMatchObject({
      quality: 'RED',
      retry: true,
      reason: 'the report claims checks the worker never ran (tests pass)',
      metadataIssues: ['success claimed without evidence: the report says "tests pass", but the worker ran no command', 'code block missing'],
    });
    expect(checkResult(report, seen({ persona: 'coder', toolCalls: { edit_file: 1, run_command: 2 } }))).toMatchObject({ quality: 'GREEN', retry: false });
  });
});

describe('the result file crew composes', () => {
  it('has front matter from what crew observed, the body, and the marker last', () => {
    const r = checkResult(
      {
        status: 'success',
        quality: 'GREEN',
        completeness: 100,
        summary: 'done',
        details: long,
        feedback: { type: 'implementation', result: 'ok', changes: ['a'] },
      },
      seen(),
    );
    const file = resultFile('t1', 2, r, seen(), 'abc123');
    expect(file.startsWith('---\ntask: t1\nattempt: 2\nstatus: success\nquality: GREEN\ncompleteness: 100\n')).toBe(true);
    expect(file).toContain('tools_used:\n  read_file: 1');
    expect(file).toContain('changed_files:\n  - README.md');
    expect(file.trimEnd().endsWith('<!-- COMPLETE -->')).toBe(true);
  });

  it('has no marker when the worker never reported', () => {
    const file = resultFile('t1', 1, checkResult(undefined, seen({ ending: 'max_turns' })), seen({ ending: 'max_turns' }), 'abc');
    expect(file).not.toContain('<!-- COMPLETE -->');
    expect(file).toContain('status: timeout');
  });
});
