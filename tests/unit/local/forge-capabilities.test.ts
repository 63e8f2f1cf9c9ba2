import { describe, expect, it } from 'vitest';
import { GitHubForge } from '../../../src/adapters/github/forge';
import { LocalForge } from '../../../src/adapters/local/forge';
import type { ForgeOnGitHub } from '../../../src/ports';

/** ForgeOnGitHub's members, checked against the interface both ways at compile time. */
const ON_GITHUB = [
  'react',
  'reviewThreads',
  'replyInThread',
  'checksOn',
  'approvals',
  'mergeMethods',
  'deletesHeadOnMerge',
  'mergePull',
  'earlierWorkLegs',
  'failedJobs',
  'jobLog',
] as const satisfies ReadonlyArray<keyof ForgeOnGitHub>;
const everyOne: Exclude<keyof ForgeOnGitHub, (typeof ON_GITHUB)[number]> extends never ? true : false = true;

describe("the Forge's required and optional parts", () => {
  it("leaves GitHub's own capabilities out of local mode's forge, rather than faking them with no-ops", () => {
    expect(everyOne).toBe(true);
    const local = Object.getOwnPropertyNames(LocalForge.prototype);
    expect(ON_GITHUB.filter((m) => local.includes(m))).toEqual([]);
  });

  it("has GitHub's forge implement every one of them", () => {
    const github = Object.getOwnPropertyNames(GitHubForge.prototype);
    expect(ON_GITHUB.filter((m) => !github.includes(m))).toEqual([]);
  });
});
