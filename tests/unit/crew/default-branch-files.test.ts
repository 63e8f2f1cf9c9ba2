import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultBranchFiles } from '../../../src/default-branch';
import type { Remote, WorkingCopy } from '../../../src/ports';

/** A job with no checkout reads crew's own workflow file through the contents API (src/default-branch.ts). */
describe("crew's own workflow file, read from the default branch", () => {
  // On GitHub's runners (crew's own CI) the variable names the running workflow; here the default, crew.yml.
  beforeEach(() => void vi.stubEnv('GITHUB_WORKFLOW_REF', ''));
  afterEach(() => void vi.unstubAllEnvs());
  const files = (viaApi: () => Promise<string | undefined>, warnings: string[]) =>
    defaultBranchFiles({
      defaultBranch: async () => 'main',
      checkedOut: false,
      repo: {} as WorkingCopy,
      remote: {} as Remote,
      viaApi,
      workflowFile: 'crew.yml',
      jobName: 'merge',
      startedAt: 0,
      warn: (m) => warnings.push(m),
    });

  it('says in the job log why the file could not be read, not only that it is missing', async () => {
    const warnings: string[] = [];
    const f = files(async () => {
      throw new Error('HTTP 502 Bad Gateway\nat the contents API');
    }, warnings);
    expect(await f.jobLimit()).toMatchObject({ unreadable: '.github/workflows/crew.yml is not on the default branch' });
    await f.ciWorkflows();
    expect(warnings).toEqual([
      "could not read .github/workflows/crew.yml from the default branch (HTTP 502 Bad Gateway): crew takes the job's time limit and fix_ci's workflows as unknown",
    ]);
  });

  it('reads the limit from the file when it is there, with nothing to say', async () => {
    const warnings: string[] = [];
    const f = files(async () => 'jobs:\n  merge:\n    timeout-minutes: 12\n', warnings);
    expect(await f.jobLimit()).toEqual({ minutes: 12, startedAt: 0 });
    expect(warnings).toEqual([]);
  });
});
