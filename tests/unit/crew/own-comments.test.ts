import { describe, expect, it } from 'vitest';
import { withIdempotencyKey } from '../../../src/adapters/github/forge';
import type { CommentEvent } from '../../../src/event';
import type { StepContext } from '../../../src/steps/context';
import { isOwnComment } from '../../../src/steps/route';
import { withPlanCommentSync } from '../../../src/steps/plan-comment/sync';

const comment = (login: string, body: string): CommentEvent => ({
  kind: 'comment',
  action: 'created',
  issue: { number: 1, title: 'T', body: '', isPull: false, labels: ['crew: waiting'] },
  comment: { id: 7, body, createdAt: '2026-11-25T10:00:00Z', author: { login, type: 'User' } },
});

function ctxAs(login: string | Error): { ctx: StepContext; lookups: () => number; warnings: string[] } {
  let n = 0;
  const warnings: string[] = [];
  const ctx = withPlanCommentSync({
    forge: {
      botLogin: async () => {
        n++;
        if (login instanceof Error) throw login;
        return login;
      },
    },
    log: { info: () => undefined, warn: (m: string) => void warnings.push(m), checkpoint: () => undefined },
  } as unknown as StepContext);
  return { ctx, lookups: () => n, warnings };
}

describe("crew's own comments under a personal token", () => {
  const question = withIdempotencyKey('**crew needs a decision** about t2.', 'abc123def456');

  it('a comment with crew’s key by crew’s login is crew’s own', async () => {
    const { ctx } = ctxAs('crew-bot');
    expect(await isOwnComment(ctx, comment('crew-bot', question))).toBe(true);
    expect(await isOwnComment(ctx, comment('CREW-BOT', question))).toBe(true);
  });

  it('someone who lends crew their own token still answers as themselves: no key, no look-up', async () => {
    const { ctx, lookups } = ctxAs('maintainer');
    expect(await isOwnComment(ctx, comment('maintainer', 'Use a bulleted list.'))).toBe(false);
    expect(await isOwnComment(ctx, comment('maintainer', '> crew needs a decision\n\nUse a bulleted list. <!-- crew:plan issue=1 run=1 -->'))).toBe(false);
    expect(lookups()).toBe(0);
  });

  it('a keyed comment by someone else is theirs', async () => {
    const { ctx } = ctxAs('crew-bot');
    expect(await isOwnComment(ctx, comment('mallory', question))).toBe(false);
  });

  it('when crew cannot tell its login, a keyed comment counts as its own, so a failure never answers itself', async () => {
    const { ctx, warnings } = ctxAs(new Error('bot_login: invalid .github/crew.yml'));
    expect(await isOwnComment(ctx, comment('crew-bot', question))).toBe(true);
    expect(warnings.join('\n')).toMatch(/could not tell crew's own login/);
  });
});
