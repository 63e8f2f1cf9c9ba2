import { describe, expect, it } from 'vitest';
import { fitBodies } from '../../../src/adapters/fit-bodies';
import type { Forge } from '../../../src/ports';

describe('every body crew posts goes through one fold', () => {
  it('comments, edits and pull requests over 65,536 characters are folded; everything else passes through', async () => {
    const sent: Array<[string, string]> = [];
    const real = {
      login: 'github-actions[bot]',
      async botLogin(this: { login: string }) {
        return this.login;
      },
      postComment: async (_n: number, body: string) => (sent.push(['post', body]), { id: 1, url: 'u' }),
      updateComment: async (_id: number, body: string) => void sent.push(['update', body]),
      createPull: async (i: { body: string }) => (sent.push(['create', i.body]), { number: 2, url: 'u', headSha: 'x' }),
      updatePull: async (_n: number, i: { title?: string; body?: string }) => void sent.push(['update-pull', i.body ?? `(title ${i.title})`]),
    } as unknown as Forge;
    const forge = fitBodies(real, 'https://example.test/state');
    const huge = [
      'Head.',
      `<details><summary>Log</summary>\n\n${'x'.repeat(80_000)}\n\n</details>`,
      'Reply with `/crew retry`.',
      '<!-- crew:decision -->',
    ].join('\n\n');
    await forge.postComment(1, huge);
    await forge.updateComment(1, huge);
    await forge.createPull({ title: 't', body: huge, head: 'h', base: 'b' });
    await forge.updatePull(2, { body: huge });
    await forge.updatePull(2, { title: 'only a title' });
    await forge.postComment(1, 'short');
    expect(await forge.botLogin()).toBe('github-actions[bot]');
    expect(
      sent.map(([kind, body]) => [
        kind,
        body.length <= 65_536,
        body.includes('(shortened)') && body.endsWith('Reply with `/crew retry`.\n\n<!-- crew:decision -->'),
      ]),
    ).toEqual([
      ['post', true, true],
      ['update', true, true],
      ['create', true, true],
      ['update-pull', true, true],
      ['update-pull', true, false],
      ['post', true, false],
    ]);
    expect(sent.at(-1)![1]).toBe('short');
    expect(sent[0]![1]).toContain('[the full text](https://example.test/state)');
  });

  it('leaves room for the idempotency key, so a body just under the limit keeps its end once the key is added', async () => {
    const { withIdempotencyKey } = await import('../../../src/adapters/github/forge');
    let got = '';
    const real = {
      postComment: async (_n: number, body: string) => ((got = withIdempotencyKey(body, 'a1b2c3d4e5f6')), { id: 1, url: 'u' }),
    } as unknown as Forge;
    const body = ['Head.', 'x'.repeat(65_500), 'The end.'].join('\n\n');
    await fitBodies(real, 'https://example.test/state').postComment(1, body);
    expect(got.length).toBeLessThanOrEqual(65_536);
    expect(got).toMatch(/The end\.\n\n<!-- crew:post key=a1b2c3d4e5f6 -->$/);
  });
});
