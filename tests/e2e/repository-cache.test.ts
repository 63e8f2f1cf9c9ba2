import { describe, expect, it } from 'vitest';
import { playCache, setupSeconds } from '../support/scenario/repository-cache';
import { expectFaithful } from './helpers';

describe('dependency caches between runs (#51: actions/setup-node `cache: npm` in the setup steps)', () => {
  it("the second run's work job restores what the first run's work job saved and downloads nothing; no entry ever holds what model-written setup wrote", async () => {
    const { r, jobs, events, stored, deps } = await playCache();
    expectFaithful(r);
    const work = jobs.filter((j) => /work/.test(j.name) && j.log.includes('setup ('));
    expect(work).toHaveLength(2);
    const [first, second] = work;
    expect(first!.log).toMatch(/Cache not found for input keys: node-cache-Linux-x64-npm-[0-9a-f]{64}/);
    expect(first!.log).toMatch(/Cache saved with key: node-cache-Linux-x64-npm-[0-9a-f]{64}/);
    expect(second!.log).toMatch(/Cache restored from key: node-cache-Linux-x64-npm-/);
    expect(deps).toEqual(['deps: 0 from the cache, 40 downloaded', 'deps: 40 from the cache, 0 downloaded']);
    // 40 downloads of 60 ms each against none.
    expect(setupSeconds(first!.log)).toBeGreaterThan(2.4);
    expect(setupSeconds(second!.log)).toBeLessThan(setupSeconds(first!.log));
    // The worker's command and the critic's sandboxed setup (the worker's script) wrote `poison` only into the tool
    // user's home: the one entry saved, after the first work job, holds the dependencies and no poison.
    const critic = jobs.find((j) => /critic/.test(j.name) && j.log.includes('setup ('))!;
    expect(critic.log).toMatch(/setup \(on a model-written tree, inside the sandbox/);
    // That setup starts from a copy of the critic job's restored ~/.npm: 40 of its 41 dependencies come from it
    // (41 downloads take 2.46 s at least), and what it writes there (the poison) stays in the copy.
    expect(critic.log).toMatch(/The sandbox's home starts with a copy of the runner's ~\/\.npm \(restored by the setup steps/);
    expect(setupSeconds(critic.log)).toBeLessThan(2.4);
    expect(events.filter((e) => e.kind === 'save')).toHaveLength(1);
    expect(stored.join('\n')).toContain('dep-39@1.0.39');
    expect(stored.join('\n')).not.toContain('poison');
  }, 400_000);
});
