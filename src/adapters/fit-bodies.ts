import type { Forge } from '../ports';
import { BODY_LIMIT, capBody, KEY_ROOM } from '../text/markdown';

/**
 * Every body crew posts or edits (comments, pull requests) goes through here, so none can
 * exceed GitHub's 65,536-character limit and be refused with a 422. Steps that know a
 * better link for the full text (report.md, the run folder) fold first; this is the net
 * under everything else, linking to `fullText`.
 */
export function fitBodies(forge: Forge, fullText: string): Forge {
  // Comments get an idempotency key after this, so they leave room for it; PR bodies get none.
  const fit = (body: string) => capBody(body, fullText, BODY_LIMIT - KEY_ROOM);
  const overrides: Partial<Forge> = {
    postComment: (issue, body) => forge.postComment(issue, fit(body)),
    updateComment: (id, body) => forge.updateComment(id, fit(body)),
    createPull: (input) => forge.createPull({ ...input, body: fit(input.body) }),
    updatePull: (n, input) => forge.updatePull(n, input.body === undefined ? input : { ...input, body: fit(input.body) }),
  };
  return new Proxy(forge, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key in overrides) return overrides[key as keyof Forge];
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
