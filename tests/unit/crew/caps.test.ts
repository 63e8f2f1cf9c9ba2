import { describe, expect, it } from 'vitest';
import { addPosted, capComment, capKey, capSummary, NOTHING_POSTED, refusal, type Caps } from '../../../src/domain/caps';
import { ConfigError, parseConfig } from '../../../src/config/schema';
import { GITHUB } from '../../../src/domain/surface';

const caps: Caps = { comments_per_run: 5, pull_requests_per_run: 1, branches_per_run: 4 };

describe('caps per run', () => {
  it('admits what fits, up to and including the cap, and counts it', () => {
    expect(refusal(NOTHING_POSTED, caps, { comments: 5, pull_requests: 1, branches: 4 })).toBeNull();
    expect(addPosted({ comments: 1, pullRequests: 0, branches: 2 }, { comments: 2, branches: 2 })).toEqual({ comments: 3, pullRequests: 0, branches: 4 });
    expect(refusal({ comments: 5, pullRequests: 1, branches: 4 }, caps, {})).toBeNull();
    expect(refusal({ comments: 5, pullRequests: 1, branches: 4 }, caps, { branches: 0, comments: -3 })).toBeNull();
  });

  it('refuses the first request that would pass a cap, and says which and by how much', () => {
    expect(refusal({ comments: 5, pullRequests: 0, branches: 0 }, caps, { comments: 1 })).toEqual({ kind: 'comments', limit: 5, needed: 6 });
    expect(refusal({ comments: 0, pullRequests: 1, branches: 0 }, caps, { pull_requests: 1, comments: 1 })).toEqual({
      kind: 'pull_requests',
      limit: 1,
      needed: 2,
    });
    expect(refusal(NOTHING_POSTED, caps, { branches: 7 })).toEqual({ kind: 'branches', limit: 4, needed: 7 });
  });

  it('a model asking for 50 comments one at a time gets exactly the cap', () => {
    let posted = { ...NOTHING_POSTED, comments: 1 }; // the plan comment
    let allowed = 0;
    for (let i = 0; i < 50; i++) {
      if (refusal(posted, caps, { comments: 1 })) break;
      posted = addPosted(posted, { comments: 1 });
      allowed++;
    }
    expect(allowed).toBe(4);
    expect(posted.comments).toBe(caps.comments_per_run);
  });

  it('the final comment names the cap, the numbers and how to raise it', () => {
    const r = { kind: 'branches' as const, limit: 4, needed: 7 };
    expect(capKey('branches')).toBe('caps.branches_per_run');
    expect(capSummary(r)).toBe('stopped at caps.branches_per_run: the run would need 7 branches, and the cap is 4');
    const c = capComment(3, r, GITHUB);
    expect(c).toContain('**crew stopped run 3**: it would have created more branches than `caps.branches_per_run` allows (4 per run; this run would need 7).');
    expect(c).toContain(
      'raise `caps.branches_per_run` in `.github/crew.yml` on the default branch (for example `caps: { branches_per_run: 8 }`), then comment `/crew run`',
    );
  });

  it('the config keys have defaults no ordinary run reaches, and bad values name the key', () => {
    expect(parseConfig('').caps).toEqual({ comments_per_run: 50, pull_requests_per_run: 5, branches_per_run: 40 });
    expect(parseConfig('caps: { branches_per_run: 3 }').caps).toEqual({ comments_per_run: 50, pull_requests_per_run: 5, branches_per_run: 3 });
    expect(() => parseConfig('caps: { comments_per_run: 0 }')).toThrow(ConfigError);
    expect(() => parseConfig('caps: { comments_per_run: 0 }')).toThrow(/`caps.comments_per_run`: .*\(got 0\)/);
    expect(() => parseConfig('caps: { issues_per_run: 3 }')).toThrow(/unknown key `caps.issues_per_run`/);
  });

  it('base_branch must be a plain branch name, never something git could take for an option', () => {
    expect(parseConfig('base_branch: release/1.x').base_branch).toBe('release/1.x');
    expect(() => parseConfig('base_branch: "--upload-pack=touch /tmp/x"')).toThrow(/`base_branch`: must be a plain branch name/);
  });
});
