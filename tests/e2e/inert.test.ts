import { beforeAll, describe, expect, it } from 'vitest';
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
  beforeAll(async () => {
    r = await play('inert-model-text', {
      hooks: {
        beforeClose: async ({ gh }) => {
          unrelated = gh.issues.get(2)?.state ?? 'missing';
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
});
