import { describe, expect, it } from 'vitest';
import { REFUSAL_WINDOW_MS, refusalCommentDue, refusalKey } from '../../../src/domain/refusals';

describe('the refusal limit', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  it('allows one refusal comment per window: the first, and the first after an hour', () => {
    expect(refusalCommentDue(undefined, now)).toBe(true);
    expect(refusalCommentDue('2026-11-21T11:30:00Z', now)).toBe(false);
    expect(refusalCommentDue(new Date(now.getTime() - REFUSAL_WINDOW_MS + 1000).toISOString(), now)).toBe(false);
    expect(refusalCommentDue(new Date(now.getTime() - REFUSAL_WINDOW_MS).toISOString(), now)).toBe(true);
    expect(refusalCommentDue('2026-11-21T10:00:00Z', now)).toBe(true);
  });
  it('names one file per login, whatever its case, and never a path', () => {
    expect(refusalKey('Mallory')).toBe('mallory');
    expect(refusalKey('mal-lory2')).toBe('mal-lory2');
    expect(refusalKey('../x')).toBe('_2e_2e_2fx');
    expect(refusalKey('a/b')).not.toContain('/');
  });
});
