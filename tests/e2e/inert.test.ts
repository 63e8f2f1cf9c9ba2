import { beforeAll, describe, expect, it } from 'vitest';
import { parseAttemptCommit } from '../../src/steps/task-results';
import { git } from '../support/git-cli';
import type { FakeGitHub } from '../support/github/fake-github';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play, shown } from './helpers';

/**
 * What a reader's GitHub would act on, outside code: closed fences, backtick spans and
 * `<code>` elements are taken out (GitHub neither mentions nor renders markup inside them).
 */
const outsideCode = (body: string) =>
  body
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n {0,3}\1[`~]*[ \t]*$/gm, ' ')
    .replace(/<code>[\s\S]*?<\/code>/g, ' ')
    .replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, ' ');

/** A mention of the model's targets, as GitHub's mention filter would find it. */
const MODEL_MENTION = /(?<![A-Za-z0-9_])@(?:octocat|acme\/security)\b/i;
/** A closing keyword before an issue reference, in every form GitHub documents (raw text: GitHub parses code too). */
const CLOSING =
  /(?<![A-Za-z0-9])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?![A-Za-z0-9])[*_~`]*\s*:?\s*[*_~`]*(?:<)?(?:#\d+|GH-\d+|[\w.-]+\/[\w.-]+#\d+|https?:\/\/\S+\/issues\/\d+)/gi;

describe('model text is inert wherever crew posts it', () => {
  let r: ScenarioResult;
  let unrelated = '';
  let posts: Array<{ where: string; body: string }> = [];
  let messages: Array<{ ref: string; message: string }> = [];
  beforeAll(async () => {
    r = await play('inert-model-text', {
      hooks: {
        beforeClose: async ({ gh }) => {
          unrelated = gh.issues.get(2)?.state ?? 'missing';
          messages = await allMessages(gh);
        },
      },
    });
    const pr = r.pulls.find((p) => p.head === 'crew/1/r1/integration');
    posts = [
      ...crewComments(r).map((c) => ({ where: `issue comment: ${shown(c.body).split('\n')[0]!.slice(0, 60)}`, body: shown(c.body) })),
      ...(pr?.comments ?? [])
        .filter((c) => c.author === 'github-actions[bot]')
        .map((c) => ({ where: `PR comment: ${shown(c.body).split('\n')[0]!.slice(0, 60)}`, body: shown(c.body) })),
      ...(pr ? [{ where: 'PR body', body: pr.body ?? '' }] : []),
    ];
  }, 600_000);

  it('ends like any run: the pull request is opened and merged, and it closes the run issue only', () => {
    expectFaithful(r);
    expect(r.jobs.filter((j) => j.result === 'failure')).toEqual([]);
    const pr = r.pulls.find((p) => p.head === 'crew/1/r1/integration')!;
    expect(pr.merged).toBe(true);
    expect(r.issue.state).toBe('closed');
    expect(unrelated).toBe('open');
  });

  it('every kind of model text reached a post (so the checks below look at it)', () => {
    const all = posts.map((p) => p.body).join('\n');
    for (const tag of [
      'QUESTION',
      'CRITERION',
      'PLAN-SUMMARY',
      'TITLE',
      'SUMMARY',
      'DETAILS',
      'REASON',
      'EVIDENCE',
      'NEXT-STEP',
      'RETRO ',
      'RETRO-WELL',
      'RETRO-WRONG',
      'RETRO-PROPOSAL',
      'RETRO-MEMORY',
    ])
      expect(all, tag).toContain(tag);
    expect(posts.map((p) => p.where)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/crew:plan/),
        expect.stringMatching(/^issue comment: Before planning/),
        expect.stringMatching(/crew:report/),
        expect.stringMatching(/crew:retro/),
        'PR body',
      ]),
    );
  });

  it('no post mentions the model’s targets outside code; crew’s own mention of the requester stays', () => {
    for (const p of posts) expect(outsideCode(p.body), p.where).not.toMatch(MODEL_MENTION);
    const plan = posts.find((p) => p.body.includes('crew:plan'))!;
    expect(outsideCode(plan.body)).toMatch(/Requested by @maintainer\b/);
    expect(outsideCode(posts.find((p) => p.where === 'PR body')!.body)).toMatch(/requested by @maintainer\b/);
  });

  it('no post renders the model’s image or HTML', () => {
    for (const p of posts) {
      const prose = outsideCode(p.body);
      expect(prose, p.where).not.toMatch(/(?<!\\)!\[/);
      expect(prose, p.where).not.toMatch(/<(?:img|picture|source|video)\b/i);
      expect(prose, p.where).not.toContain('<details><summary>x</summary>');
    }
  });

  it('no post carries a closing keyword but crew’s own "Closes #1" in the PR body, in code or not', () => {
    for (const p of posts) {
      const found = [...p.body.matchAll(CLOSING)].map((m) => m[0]);
      expect(found, p.where).toEqual(p.where === 'PR body' ? ['Closes #1'] : []);
    }
  });

  it('no commit message on any branch carries the model’s closing keyword or mention (its task title says "Fixes #2" too)', () => {
    expect(messages.some((m) => m.message.includes('TITLE'))).toBe(true);
    for (const { ref, message } of messages) {
      expect(
        [...message.matchAll(CLOSING)].map((m) => m[0]),
        `${ref}: ${message.split('\n')[0]}`,
      ).toEqual([]);
      expect(outsideCode(message), ref).not.toMatch(MODEL_MENTION);
    }
  });
});

/** Every commit message on every branch of the fake's repository (crew's, the state branch, the default branch after the merge). */
async function allMessages(gh: FakeGitHub): Promise<Array<{ ref: string; message: string }>> {
  const out: Array<{ ref: string; message: string }> = [];
  for (const { ref } of await gh.repo.listRefs('refs/heads/')) {
    const log = await git(['log', '--format=%B%x00', ref], { cwd: gh.repoDir });
    for (const message of log
      .split('\0')
      .map((m) => m.trim())
      .filter(Boolean))
      out.push({ ref, message });
  }
  return out;
}

describe('model text is inert in git as well (inert-git)', () => {
  let r: ScenarioResult;
  let unrelated = '';
  let messages: Array<{ ref: string; message: string }> = [];
  beforeAll(async () => {
    r = await play('inert-git', {
      hooks: {
        beforeClose: async ({ gh }) => {
          unrelated = gh.issues.get(2)?.state ?? 'missing';
          messages = await allMessages(gh);
        },
      },
    });
  }, 600_000);

  it('the merge (GitHub’s merge commit, every commit of the branch on the default branch) closes the run’s issue and leaves #2 open', () => {
    expectFaithful(r);
    const pr = r.pulls.find((p) => p.head === 'crew/1/r1/integration')!;
    expect(pr.merged).toBe(true);
    expect(r.issue.state).toBe('closed');
    expect(unrelated).toBe('open');
    // The pull request's title, which GitHub copies into the merge commit, is the issue's: inert too.
    expect(pr.title).toBe('Make capitalize robust (it fixes issue #2 too)');
  });

  it('task titles, summaries and the resolver’s explanation reached git, inert: no closing reference or mention in any commit message', () => {
    const all = messages.map((m) => m.message).join('\n');
    expect(all).toContain('crew: t1 Handle the empty string, fixes issue #2 (cc `@octocat`)');
    expect(all).toContain('Closes: issue acme/textkit#2, resolves issue https://github.com/acme/textkit/issues/2 (cc `@octocat` `@acme/security`)');
    expect(all).toContain('Lower-case the rest; closes issue #2 for `@octocat`');
    expect(all).toContain('Changed the return line of capitalize in src/index.js; fixes issue #2');
    // The resolver's merge commit, made on the integration branch, reached the default branch with the pull request's merge
    // (crew deletes the integration branch once merged, #37).
    expect(messages.some((m) => m.ref === 'refs/heads/main' && m.message.includes("Kept t1's empty-string guard"))).toBe(true);
    expect(messages.some((m) => m.ref === 'refs/heads/main' && m.message.startsWith('Merge pull request'))).toBe(true);
    for (const { ref, message } of messages) {
      expect(
        [...message.matchAll(CLOSING)].map((m) => m[0]),
        `${ref}: ${message.split('\n')[0]}`,
      ).toEqual([]);
      expect(outsideCode(message), ref).not.toMatch(MODEL_MENTION);
    }
  });

  it('the Crew-Result trailer still reads back exactly what the worker reported', () => {
    const attempts = messages.filter((m) => m.message.includes('Crew-Result: ')).map((m) => parseAttemptCommit(m.message));
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    for (const a of attempts)
      expect(a?.checked.summary).toContain('fixes #2, Closes: acme/textkit#2, resolves https://github.com/acme/textkit/issues/2 (cc @octocat @acme/security)');
  });
});
