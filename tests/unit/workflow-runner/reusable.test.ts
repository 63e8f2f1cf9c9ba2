import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OUT, job, onlyRun, startWorld, writeAction, type World } from './helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A repository `lib` (mapped like an action repository) holding a reusable workflow and an action. */
async function lib(dir: string, called: string): Promise<string> {
  const root = await writeAction(dir, 'lib', `${OUT}\nout('ran', 'lib action at ' + process.env.GITHUB_ACTION_PATH);\n`);
  await mkdir(join(root, '.github', 'workflows'), { recursive: true });
  await writeFile(join(root, '.github', 'workflows', 'called.yml'), called);
  return root;
}

const CALLED = `name: called
on:
  workflow_call:
    inputs:
      greeting: { type: string, required: true }
      mood: { type: string, default: calm }
    secrets:
      KEY: { required: true }
      OPTIONAL: { required: false }
    outputs:
      said: { value: '\${{ jobs.first.outputs.said }}' }
permissions: {}
jobs:
  first:
    runs-on: ubuntu-latest
    permissions:
      issues: write
    outputs:
      said: \${{ steps.s.outputs.said }}
    steps:
      - id: s
        run: |
          echo "said=\${{ inputs.greeting }} \${{ inputs.mood }}" >> "$GITHUB_OUTPUT"
          echo "context=\${{ github.event_name }} \${{ github.workflow_ref }} \${{ github.job }} $GITHUB_JOB" >> "$GITHUB_OUTPUT"
          echo "secrets=\${{ secrets.KEY }}|\${{ secrets.OPTIONAL }}|\${{ secrets.OTHER }}" >> "$GITHUB_OUTPUT"
          echo "where=\${{ job.workflow_repository }} \${{ job.workflow_ref }} \${{ job.workflow_file_path }}" >> "$GITHUB_OUTPUT"
          echo "dispatched=\${{ github.event.inputs.issue }}" >> "$GITHUB_OUTPUT"
  second:
    needs: first
    runs-on: ubuntu-latest
    strategy:
      matrix:
        task: [t1, t2]
    steps:
      - uses: actions/checkout@v4
        with:
          repository: \${{ job.workflow_repository }}
          ref: \${{ job.workflow_sha }}
          path: .git/lib-action
          persist-credentials: false
      - id: a
        uses: ./.git/lib-action
`;

const caller = (job: string) => `name: caller
on:
  workflow_dispatch:
    inputs:
      issue: { required: true }
permissions: {}
jobs:
${job}
  after:
    needs: call
    runs-on: ubuntu-latest
    steps:
      - id: r
        run: echo "got=\${{ needs.call.outputs.said }} \${{ needs.call.result }}" >> "$GITHUB_OUTPUT"
`;

describe('a job that calls a reusable workflow (docs: "Reusing workflows")', () => {
  it("runs the called jobs in the caller's run, named `<caller> / <job>`, with the caller's github context, the inputs and secrets passed, and the job context's workflow facts", async () => {
    world = await startWorld({
      files: {
        '.github/workflows/caller.yml': caller(`  call:
    uses: someone/lib/.github/workflows/called.yml@v1
    permissions:
      issues: write
    with:
      greeting: hello
    secrets:
      KEY: \${{ secrets.KEY }}`),
      },
      secrets: { KEY: 'key-value-1', OTHER: 'other-value-2' },
      actions: async (dir) => ({ lib: await lib(dir, CALLED) }),
    });
    await world.dispatch('caller.yml', { issue: '7' });
    await world.settle();
    const run = onlyRun(world.runner);
    expect(run.jobs.map((j) => j.name).sort()).toEqual(['after', 'call / first', 'call / second (t1)', 'call / second (t2)']);
    const first = job(run, 'first');
    expect(first.result).toBe('success');
    const o = first.steps[0]!.outputs;
    expect(o.said).toBe('hello calm');
    // The github context is the caller's: its event, its workflow file; github.job and GITHUB_JOB are the called job's id.
    expect(o.context).toBe(`workflow_dispatch ${world.gh.owner}/${world.gh.repoName}/.github/workflows/caller.yml@refs/heads/main first first`);
    // Only the secrets the caller passes (explicitly here): not OTHER, which the caller has but did not pass.
    expect(o.secrets).toBe('key-value-1||');
    expect(o.where).toBe('someone/lib someone/lib/.github/workflows/called.yml@v1 .github/workflows/called.yml');
    expect(o.dispatched).toBe('7');
    // The caller's outputs are the called workflow's on.workflow_call.outputs; its result, its jobs'.
    expect(job(run, 'after').steps[0]!.outputs.got).toBe('hello calm success');
    // The action from a checkout of the called workflow's repository at job.workflow_sha.
    for (const leg of run.jobs.filter((j) => j.id === 'second')) {
      expect(leg.result).toBe('success');
      expect(leg.steps[1]!.outputs.ran).toMatch(/^lib action at .*\/\.git\/lib-action$/);
    }
    // The Actions API lists the called jobs under those names (crew finds its work legs by them).
    const { data } = await world.owner.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', {
      owner: world.gh.owner,
      repo: world.gh.repoName,
      run_id: run.id,
    });
    expect(data.jobs.map((j) => j.name).sort()).toEqual(['after', 'call / first', 'call / second (t1)', 'call / second (t2)']);
  });

  it('passes all the caller secrets with `secrets: inherit`', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/caller.yml': caller(`  call:
    uses: someone/lib/.github/workflows/called.yml@v1
    permissions:
      issues: write
    with:
      greeting: hi
      mood: glad
    secrets: inherit`),
      },
      secrets: { KEY: 'key-value-1', OTHER: 'other-value-2' },
      actions: async (dir) => ({ lib: await lib(dir, CALLED) }),
    });
    await world.dispatch('caller.yml', { issue: '8' });
    await world.settle();
    const o = job(onlyRun(world.runner), 'first').steps[0]!.outputs;
    expect(o.said).toBe('hi glad');
    expect(o.secrets).toBe('key-value-1||other-value-2');
  });

  it("fails the checkout of the called workflow's repository at any other commit (the caller's sha, a tag)", async () => {
    world = await startWorld({
      files: {
        '.github/workflows/caller.yml': caller(`  call:
    uses: someone/lib/.github/workflows/called.yml@v1
    permissions:
      issues: write
    with:
      greeting: hello
    secrets:
      KEY: \${{ secrets.KEY }}`),
      },
      secrets: { KEY: 'key-value-1' },
      actions: async (dir) => ({ lib: await lib(dir, CALLED.replace('ref: ${{ job.workflow_sha }}', 'ref: ${{ github.sha }}')) }),
    });
    await world.dispatch('caller.yml', { issue: '9' });
    await world.settle();
    const run = onlyRun(world.runner);
    const legs = run.jobs.filter((j) => j.id === 'second');
    expect(legs.map((l) => l.result)).toEqual(['failure', 'failure']);
    expect(legs[0]!.annotations.map((a) => a.message).join('\n')).toMatch(/reference is not a tree/);
  });

  it.each([
    [
      'a permission the caller does not grant',
      `    permissions:\n      issues: read\n    secrets: inherit`,
      "The nested job 'first' is requesting 'issues: write', but is only allowed 'issues: read'.",
    ],
    [
      'a secret it does not declare',
      `    permissions:\n      issues: write\n    secrets:\n      KEY: x\n      NOPE: y`,
      'Invalid secret, NOPE is not defined in the referenced workflow.',
    ],
    ['a required secret not passed', `    permissions:\n      issues: write`, 'Secret KEY is required, but not provided while calling.'],
    [
      'an input it does not declare',
      `    permissions:\n      issues: write\n    secrets: inherit\n    with:\n      greeting: a\n      colour: b`,
      'Invalid input, colour is not defined in the referenced workflow.',
    ],
  ])('refuses the whole run before any job for %s (startup_failure)', async (_what, rest, why) => {
    world = await startWorld({
      files: {
        '.github/workflows/caller.yml': caller(`  call:
    uses: someone/lib/.github/workflows/called.yml@v1
${rest}${rest.includes('with:') ? '' : '\n    with:\n      greeting: hello'}`),
      },
      secrets: { KEY: 'key-value-1' },
      actions: async (dir) => ({ lib: await lib(dir, CALLED) }),
    });
    await world.dispatch('caller.yml', { issue: '1' });
    await world.settle();
    const run = onlyRun(world.runner);
    expect(run.jobs).toEqual([]);
    expect(run.startupFailure).toContain(why);
    const { data } = await world.owner.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}', {
      owner: world.gh.owner,
      repo: world.gh.repoName,
      run_id: run.id,
    });
    expect(data.conclusion).toBe('startup_failure');
  });
});
