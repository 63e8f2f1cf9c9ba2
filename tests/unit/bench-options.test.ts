import { describe, expect, it } from 'vitest';
import { keepOtherProfiles, profilesFrom } from '../../scripts/bench';
import type { BenchResults, ProfileFigures } from '../../scripts/bench/results';
import { PROFILES } from '../support/latency';

describe('npm run bench -- --profile', () => {
  it('runs both profiles by default, or the one named, and refuses any other name saying which there are', () => {
    expect(profilesFrom([]).map((p) => p.name)).toEqual(['loopback', 'github-hosted']);
    expect(profilesFrom(['--profile=both']).map((p) => p.name)).toEqual(['loopback', 'github-hosted']);
    expect(profilesFrom(['--profile=github-hosted'])).toEqual([PROFILES['github-hosted']]);
    expect(profilesFrom(['--quick', '--profile', 'loopback'])).toEqual([PROFILES.loopback]);
    expect(() => profilesFrom(['--profile=fast'])).toThrow('npm run bench -- --profile=fast: no such profile; use loopback, github-hosted or both');
    expect(() => profilesFrom(['--profile'])).toThrow('--profile needs a value: loopback, github-hosted or both');
    expect(() => profilesFrom(['--profile', '--quick'])).toThrow('--profile needs a value');
  });

  it("a run of one profile keeps the other's figures from the results before it, in profile order", () => {
    const figures = (name: keyof typeof PROFILES, generated: string) => ({ profile: PROFILES[name], generated }) as ProfileFigures;
    const before = { profiles: [figures('loopback', 'old'), figures('github-hosted', 'old')] } as BenchResults;
    const fresh = { profiles: [figures('github-hosted', 'new')] } as BenchResults;
    expect(keepOtherProfiles(fresh, before).profiles.map((p) => [p.profile.name, p.generated])).toEqual([
      ['loopback', 'old'],
      ['github-hosted', 'new'],
    ]);
    // Results written before there were profiles have nothing to keep.
    expect(keepOtherProfiles(fresh, {} as BenchResults)).toBe(fresh);
    expect(keepOtherProfiles(fresh, undefined)).toBe(fresh);
  });
});
