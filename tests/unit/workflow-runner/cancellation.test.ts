import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { job, legs, readLines, startWorld, workflow, writeAction, type World } from './helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/**
 * A step that records the signals it gets in `$PROBE_DIR/<name>`: `stubborn` ignores them (so only SIGKILL ends
 * it), `graceful` exits 0 on the first. It says `crew checkpoint: <checkpoint>` after `delay` ms, then idles.
 */
const SIGNAL_PROBE = `import { appendFileSync, writeFileSync } from 'node:fs';
const file = process.env.PROBE_DIR + '/' + process.env.INPUT_NAME;
writeFileSync(file + '.token', process.env.INPUT_TOKEN);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    appendFileSync(file, sig + ' ' + Date.now() + '\\n');
    if (process.env.INPUT_MODE === 'graceful') process.exit(0);
  });
}
setTimeout(() => console.log('crew checkpoint: ' + process.env.INPUT_CHECKPOINT), Number(process.env.INPUT_DELAY));
setTimeout(() => appendFileSync(file, 'finished\\n'), 8000);
`;
const PROBE_INPUTS = { name: undefined, mode: 'stubborn', checkpoint: 'mid', delay: '0', token: '${{ github.token }}' };

async function signals(name: string): Promise<Array<{ signal: string; at: number }>> {
  return (await readLines(join(world!.dir, name))).map((l) => {
    const [signal, at] = l.split(' ');
    return { signal: signal!, at: Number(at) };
  });
}

describe('cancel kill points', () => {
  it('cancels the run: SIGINT, SIGTERM 7.5 s later, SIGKILL 2.5 s after (scaled); always() jobs and steps still run', async () => {
    const timeScale = 0.02;
    world = await startWorld({
      timeScale,
      env: (dir) => ({ PROBE_DIR: dir }),
      killPoints: [{ job: 'j', checkpoint: 'mid', mode: 'cancel' }],
      actions: async (dir) => ({ probe: await writeAction(dir, 'probe', SIGNAL_PROBE, PROBE_INPUTS) }),
      files: {
        '.github/workflows/t.yml': workflow(`
  j:
    runs-on: ubuntu-latest
    steps:
      - id: s
        uses: someone/probe@v1
        with:
          name: j
          delay: 500
      - run: echo never
      - if: always()
        run: echo "cleanup \${{ job.status }} \${{ steps.s.outcome }} \${{ steps.s.conclusion }}"
      - if: cancelled()
        run: echo on-cancelled
  sibling:
    runs-on: ubuntu-latest
    steps:
      - uses: someone/probe@v1
        with:
          name: sibling
          mode: graceful
          checkpoint: elsewhere
  always-step:
    runs-on: ubuntu-latest
    steps:
      - if: always()
        run: sleep 1.5; echo survived
      - run: echo never
  keeper:
    if: always()
    runs-on: ubuntu-latest
    steps:
      - run: sleep 1.5; echo kept
      - run: echo "second step \${{ job.status }}"
  later:
    needs: j
    runs-on: ubuntu-latest
    steps:
      - run: echo never
  cleanup:
    needs: [j, sibling]
    if: always()
    runs-on: ubuntu-latest
    outputs:
      results: \${{ needs.j.result }},\${{ needs.sibling.result }}
      status: \${{ steps.c.outputs.status }}
    steps:
      - run: echo "cleanup ran"
      - id: c
        run: echo "status=\${{ job.status }}" >> "$GITHUB_OUTPUT"
  on-cancel:
    needs: j
    if: cancelled()
    runs-on: ubuntu-latest
    steps:
      - run: echo cancelled-job
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const run = world.runner.runs[0]!;
    expect(run.cancelled).toBe(true);

    const j = job(run, 'j');
    expect(j.result).toBe('cancelled');
    expect(j.killedAt).toBe('mid');
    expect(j.steps.map((s) => s.outcome)).toEqual(['cancelled', 'skipped', 'success', 'success']);
    expect(j.steps[0]!.signal).toBe('SIGKILL');
    expect(j.log).toContain('cleanup cancelled cancelled cancelled');
    expect(j.log).toContain('on-cancelled');
    expect(j.annotations).toContainEqual({ level: 'error', message: 'The operation was canceled.' });
    const got = await signals('j');
    expect(got.map((s) => s.signal)).toEqual(['SIGINT', 'SIGTERM']);
    const gap = got[1]!.at - got[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(7500 * timeScale * 0.8);
    expect(gap).toBeLessThan(7500 * timeScale * 6);

    // Every other job in flight is cancelled too, unless its own `if:` still holds.
    const sibling = job(run, 'sibling');
    expect(sibling.result).toBe('cancelled');
    expect(sibling.steps[0]).toMatchObject({ outcome: 'cancelled', exitCode: 0 });
    expect((await signals('sibling')).map((s) => s.signal)).toEqual(['SIGINT']);
    const alwaysStep = job(run, 'always-step');
    expect(alwaysStep.result).toBe('cancelled');
    expect(alwaysStep.steps.map((s) => s.outcome)).toEqual(['success', 'skipped']);
    expect(alwaysStep.log).toContain('survived');
    const keeper = job(run, 'keeper');
    expect(keeper.result).toBe('success');
    expect(keeper.log).toEqual(['kept', 'second step success']);

    // Jobs that had not started: skipped, unless they ask for always() or cancelled(), and then they run normally.
    expect(job(run, 'later').result).toBe('skipped');
    const cleanup = job(run, 'cleanup');
    expect(cleanup.result).toBe('success');
    expect(cleanup.log).toContain('cleanup ran');
    expect(cleanup.outputs).toEqual({ results: 'cancelled,cancelled', status: 'success' });
    expect(job(run, 'on-cancel').log).toEqual(['cancelled-job']);
  });

  it('ends quietly when the step exits on SIGINT', async () => {
    world = await startWorld({
      env: (dir) => ({ PROBE_DIR: dir }),
      killPoints: [{ job: 'j', checkpoint: 'mid' }],
      actions: async (dir) => ({ probe: await writeAction(dir, 'probe', SIGNAL_PROBE, PROBE_INPUTS) }),
      files: {
        '.github/workflows/t.yml': workflow(`
  j:
    runs-on: ubuntu-latest
    steps:
      - uses: someone/probe@v1
        with:
          name: j
          mode: graceful
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const j = job(world.runner.runs[0]!, 'j');
    expect(j.result).toBe('cancelled');
    expect(j.steps[0]).toMatchObject({ outcome: 'cancelled', exitCode: 0, signal: null });
    expect((await signals('j')).map((s) => s.signal)).toEqual(['SIGINT']);
  });
});

describe('lost kill points', () => {
  it('SIGKILLs only the matching leg, fails it, runs none of its later steps, and fires once', async () => {
    world = await startWorld({
      env: (dir) => ({ PROBE_DIR: dir }),
      killPoints: [{ job: 'work', checkpoint: 'mid', matrix: { task: 'a' }, mode: 'lost' }],
      actions: async (dir) => ({
        probe: await writeAction(
          dir,
          'probe',
          SIGNAL_PROBE.replace("setTimeout(() => appendFileSync(file, 'finished\\n'), 8000);", "setTimeout(() => appendFileSync(file, 'finished\\n'), 400);"),
          PROBE_INPUTS,
        ),
      }),
      files: {
        '.github/workflows/t.yml': workflow(`
  work:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        task: [a, b]
    steps:
      - uses: someone/probe@v1
        with:
          name: \${{ matrix.task }}-\${{ github.run_number }}
      - if: always()
        run: echo "after \${{ matrix.task }}"
  next:
    needs: work
    if: always()
    runs-on: ubuntu-latest
    outputs:
      result: \${{ needs.work.result }}
    steps:
      - run: echo next
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const run = world.runner.runs[0]!;
    expect(run.cancelled).toBe(false);
    const a = legs(run, 'work').find((l) => l.matrix!.task === 'a')!;
    const b = legs(run, 'work').find((l) => l.matrix!.task === 'b')!;
    expect(a.result).toBe('failure');
    expect(a.killedAt).toBe('mid');
    expect(a.steps.map((s) => s.outcome)).toEqual(['cancelled', 'skipped']);
    expect(a.steps[0]!.signal).toBe('SIGKILL');
    expect(a.annotations.some((x) => x.level === 'error' && /lost communication with the server/.test(x.message))).toBe(true);
    expect(await readLines(join(world.dir, 'a-1'))).toEqual([]); // no signal it could catch, and it never finished
    expect(b.result).toBe('success');
    expect(b.killedAt).toBeUndefined();
    expect(b.log).toContain('after b');
    expect(await readLines(join(world.dir, 'b-1'))).toEqual(['finished']);
    expect(job(run, 'next').outputs.result).toBe('failure');
    // The lost job's token is gone too.
    const token = (await readFile(join(world.dir, 'a-1.token'), 'utf8')).trim();
    expect(world.gh.tokens.has(token)).toBe(false);

    // `times` defaults to 1: the next run passes the same checkpoint untouched.
    await world.dispatch('t.yml');
    await world.settle();
    const again = world.runner.runs[1]!;
    expect(legs(again, 'work').map((l) => l.result)).toEqual(['success', 'success']);
  });
});

describe('what a cancellation reaches', () => {
  it('never starts legs still queued when the run is cancelled', async () => {
    world = await startWorld({
      killPoints: [{ job: 'm', checkpoint: 'go', matrix: { n: '1' } }],
      files: {
        '.github/workflows/t.yml': workflow(`
  m:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      max-parallel: 1
      matrix:
        n: [1, 2, 3]
    steps:
      - run: |
          echo "crew checkpoint: go"
          sleep 0.2
      - if: always()
        run: echo "cleanup \${{ matrix.n }}"
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const run = world.runner.runs[0]!;
    expect(run.cancelled).toBe(true);
    const m = legs(run, 'm').sort((a, b) => String(a.matrix!.n).localeCompare(String(b.matrix!.n)));
    expect(m.map((l) => l.result)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(m[0]!.steps.map((s) => s.outcome)).toEqual(['cancelled', 'success']);
    expect(m[0]!.log).toContain('cleanup 1');
    expect(m[1]!.steps).toEqual([]);
    expect(m[2]!.steps).toEqual([]);
  });

  it('kills the whole process tree in the end, so children holding the output do not keep a step alive', async () => {
    const script = (checkpoint: string) => `
  j:
    runs-on: ubuntu-latest
    steps:
      - run: |
          trap 'echo got-int' INT
          trap 'echo got-term' TERM
          echo "crew checkpoint: ${checkpoint}"
          sleep 6
          echo never
`;
    world = await startWorld({
      killPoints: [
        { job: 'j', checkpoint: 'stop', mode: 'cancel' },
        { job: 'j', checkpoint: 'vanish', mode: 'lost' },
      ],
      files: {
        '.github/workflows/cancel.yml': workflow(script('stop')),
        '.github/workflows/lose.yml': workflow(script('vanish')),
      },
    });
    await world.dispatch('cancel.yml');
    await world.dispatch('lose.yml');
    await world.settle();
    const [cancelled, lost] = ['cancel.yml', 'lose.yml'].map((f) =>
      job(
        world!.runner.runs.find((r) => r.workflow.endsWith(f))!,
        'j',
      ),
    );
    expect(cancelled!.result).toBe('cancelled');
    expect(lost!.result).toBe('failure');
    for (const j of [cancelled!, lost!]) {
      expect(j.finishedAt - j.startedAt).toBeLessThan(3000);
      expect(j.log).not.toContain('never');
    }
  });
});
