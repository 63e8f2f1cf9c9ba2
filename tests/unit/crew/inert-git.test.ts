import { describe, expect, it } from 'vitest';
import { attemptCommitMessage, parseAttemptCommit, type AttemptOutcome } from '../../../src/steps/task-results';
import { inertGit, inertJson } from '../../../src/text/inert';

/** The closing references GitHub reads (its docs, "Linking a pull request to an issue"), as the fake GitHub reads them too. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+(?:#|[\w.-]+\/[\w.-]+#|https?:\/\/\S+\/issues\/)\d+/i;
const MENTION = /(?<![\w`])@[A-Za-z0-9]/;

describe('inertGit: model text in commit messages and pull request titles', () => {
  it('neutralises every closing form and puts mentions in backticks; plain text stays plain', () => {
    const hostile = [
      'closes #2',
      'Fixes: #12 and resolves acme/widgets#3',
      'fixed https://github.com/acme/widgets/issues/4',
      'RESOLVED GH-5',
      'thanks @octocat and @acme/core-team.',
      'mail me at a@b.example, see #6 <b>as is</b>',
    ];
    for (const h of hostile) {
      const out = inertGit(h);
      expect(out, h).not.toMatch(CLOSING);
      expect(out, h).not.toMatch(MENTION);
      expect(inertGit(out), h).toBe(out);
    }
    expect(inertGit('closes #2')).toBe('closes issue #2');
    expect(inertGit('thanks @octocat.')).toBe('thanks `@octocat`.');
    expect(inertGit('mail me at a@b.example, see #6 <b>as is</b>')).toBe('mail me at a@b.example, see #6 <b>as is</b>');
    expect(inertGit('crew: integrate t1')).toBe('crew: integrate t1');
  });

  it('inertJson writes the same value with no mention, reference, URL or closing form in it', () => {
    const value = { summary: 'Fixes #2, closes https://github.com/o/r/issues/3 and GH-4; cc @octocat', path: 'a\\/b', n: 1e-7, neg: -1 };
    const json = inertJson(JSON.stringify(value));
    expect(JSON.parse(json)).toEqual(value);
    expect(json).not.toMatch(/[@#]|https?:\/\/|GH-\d/i);
  });
});

describe('an attempt’s commit message: inert, with a trailer that reads back exactly', () => {
  const outcome: AttemptOutcome = {
    attempt: 1,
    checked: {
      status: 'success',
      quality: 'GREEN',
      completeness: 100,
      summary: 'Closes #2. Thanks @octocat, see https://github.com/acme/widgets/issues/9 — fixes acme/widgets#7',
      details: 'resolves #3',
      reason: null,
      retry: false,
      metadataIssues: [],
    } as unknown as AttemptOutcome['checked'],
    seen: {
      persona: 'coder',
      ending: 'reported',
      changedFiles: ['src/a.ts'],
      turns: 2,
      usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0000001 },
    } as unknown as AttemptOutcome['seen'],
    final: true,
    sandboxWarning: null,
    refused: { 'evil.example': 2 },
  };

  it('no closing reference or mention anywhere in the message, and parseAttemptCommit gets the outcome back unchanged', () => {
    const message = attemptCommitMessage('t1', 'Add the parser, fixes #2 for @octocat', outcome);
    expect(message).not.toMatch(CLOSING);
    expect(message).not.toMatch(MENTION);
    expect(message.split('\n')[0]).toBe('crew: t1 Add the parser, fixes issue #2 for `@octocat` (attempt 1, success)');
    expect(parseAttemptCommit(message)).toEqual(outcome);
  });
});
