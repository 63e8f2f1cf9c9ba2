import { afterEach, describe, expect, it } from 'vitest';
import type { JobRun } from '../../support/runner/workflow-runner';
import { OUT, job, legs, onlyRun, readLines, startWorld, workflow, writeAction, type World } from './helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function overlapping(a: JobRun, b: JobRun): boolean {
  return a.startedAt < b.finishedAt && b.startedAt < a.finishedAt;
}

const PLAN = `
  plan:
    runs-on: ubuntu-latest
    outputs:
      tasks: \${{ steps.p.outputs.tasks }}
    steps:
      - id: p
        run: echo 'tasks=["red","green","blue"]' >> "$GITHUB_OUTPUT"
`;

describe('strategy.matrix', () => {
  it('expands fromJSON(needs…) into legs that run at once, each in its own fresh clone', async () => {
    world = await startWorld({
      files: {
        'README.md': 'hello\n',
        '.github/workflows/t.yml': workflow(`${PLAN}
  work:
    needs: plan
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        task: \${{ fromJSON(needs.plan.outputs.tasks) }}
    outputs:
      last: \${{ steps.w.outputs.task }}
    steps:
      - uses: actions/checkout@v4
      - id: w
        run: |
          ls -A | grep -v '^.git$' | tr '\\n' ' ' > "$RUNNER_TEMP/before"
          echo "\${{ matrix.task }}" > "leg-\${{ matrix.task }}.txt"
          sleep 0.4
          {
            echo "task=\${{ matrix.task }}"
            echo "before=$(cat "$RUNNER_TEMP/before")"
            echo "after=$(ls -A | grep -v '^.git$' | tr '\\n' ' ')"
            echo "index=\${{ strategy.job-index }}/\${{ strategy.job-total }}"
            echo "workspace=$GITHUB_WORKSPACE"
          } >> "$GITHUB_OUTPUT"
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const run = onlyRun(world.runner);
    const work = legs(run, 'work');
    expect(work.map((l) => l.name).sort()).toEqual(['work (blue)', 'work (green)', 'work (red)']);
    expect(work.every((l) => l.result === 'success')).toBe(true);
    expect(work.map((l) => l.matrix)).toEqual(expect.arrayContaining([{ task: 'red' }, { task: 'green' }, { task: 'blue' }]));
    // All three legs were in flight together.
    expect(overlapping(work[0]!, work[1]!) && overlapping(work[1]!, work[2]!) && overlapping(work[0]!, work[2]!)).toBe(true);
    const outs = work.map((l) => l.steps[1]!.outputs);
    // Each leg saw only the repository's files, never another leg's.
    for (const o of outs) {
      expect(o.before).toBe('.github README.md ');
      expect(o.after).toBe(`.github README.md leg-${o.task}.txt `);
    }
    expect(new Set(outs.map((o) => o.workspace)).size).toBe(3);
    expect(outs.map((o) => o.index).sort()).toEqual(['0/3', '1/3', '2/3']);
    // A matrix job's outputs come from its legs (the last to finish wins).
    const lastDone = [...work].sort((a, b) => a.finishedAt - b.finishedAt)[2]!;
    expect(job(run, 'plan').result).toBe('success');
    expect(lastDone.outputs.last).toBe(lastDone.matrix!.task);
  });

  it('supports include and exclude', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  m:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        os: [linux, mac]
        node: [20, 24]
        exclude:
          - os: mac
            node: 20
        include:
          - os: windows
            node: 24
    steps:
      - run: echo "\${{ matrix.os }}-\${{ matrix.node }}"
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const names = legs(onlyRun(world.runner), 'm')
      .map((l) => l.name)
      .sort();
    expect(names).toEqual(['m (linux, 20)', 'm (linux, 24)', 'm (mac, 24)', 'm (windows, 24)']);
  });

  it('fails a job whose matrix is empty or cannot be evaluated, with GitHub’s message, and goes on', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  plan:
    runs-on: ubuntu-latest
    outputs:
      tasks: '[]'
      broken: 'not json'
    steps:
      - run: echo planned
  work:
    needs: plan
    runs-on: ubuntu-latest
    strategy:
      matrix:
        task: \${{ fromJSON(needs.plan.outputs.tasks) }}
    steps:
      - run: echo never
  broken:
    needs: plan
    runs-on: ubuntu-latest
    strategy:
      matrix:
        task: \${{ fromJSON(needs.plan.outputs.broken) }}
    steps:
      - run: echo never
  after:
    needs: work
    runs-on: ubuntu-latest
    steps:
      - run: echo never
  report:
    needs: [work, broken]
    if: always()
    runs-on: ubuntu-latest
    outputs:
      results: \${{ needs.work.result }},\${{ needs.broken.result }}
    steps:
      - run: echo report
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const run = onlyRun(world.runner);
    const work = job(run, 'work');
    expect(work.result).toBe('failure');
    expect(work.steps).toEqual([]);
    expect(work.annotations).toEqual([
      { level: 'error', message: "Error when evaluating 'strategy' for job 'work'. Matrix vector 'task' does not contain any values" },
    ]);
    const broken = job(run, 'broken');
    expect(broken.result).toBe('failure');
    expect(broken.annotations[0]!.message).toMatch(/^Error when evaluating 'strategy' for job 'broken'\. /);
    expect(job(run, 'after').result).toBe('skipped');
    expect(job(run, 'report').outputs.results).toBe('failure,failure');
  });

  it('max-parallel: 1 runs the legs one after another', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  m:
    runs-on: ubuntu-latest
    strategy:
      max-parallel: 1
      matrix:
        n: [1, 2, 3]
    steps:
      - run: sleep 0.15
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const m = legs(onlyRun(world.runner), 'm').sort((a, b) => a.startedAt - b.startedAt);
    expect(m).toHaveLength(3);
    expect(m.every((l) => l.result === 'success')).toBe(true);
    expect(m[1]!.startedAt).toBeGreaterThanOrEqual(m[0]!.finishedAt);
    expect(m[2]!.startedAt).toBeGreaterThanOrEqual(m[1]!.finishedAt);
  });
});

describe('fail-fast', () => {
  it('cancels the queued legs once one fails (fail-fast defaults to true)', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  m:
    runs-on: ubuntu-latest
    strategy:
      max-parallel: 1
      matrix:
        n: [1, 2, 3]
    steps:
      - run: '[ "\${{ matrix.n }}" != 1 ] || exit 1'
  next:
    needs: m
    if: always()
    runs-on: ubuntu-latest
    outputs:
      result: \${{ needs.m.result }}
    steps:
      - run: echo next
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const run = onlyRun(world.runner);
    const m = legs(run, 'm');
    expect(m.map((l) => `${l.name}:${l.result}`).sort()).toEqual(['m (1):failure', 'm (2):cancelled', 'm (3):cancelled']);
    expect(m.filter((l) => l.result === 'cancelled').every((l) => l.steps.length === 0)).toBe(true);
    expect(job(run, 'next').outputs.result).toBe('failure');
  });

  it('cancels the legs in progress too, the way a run cancellation would', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  m:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        n: [bad, slow]
    steps:
      - if: matrix.n == 'bad'
        run: sleep 0.4; exit 1
      - if: matrix.n == 'slow'
        uses: someone/sleeper@v1
      - if: always()
        run: echo "cleanup \${{ matrix.n }} \${{ job.status }}"
`),
      },
      actions: async (dir) => ({
        sleeper: await writeAction(
          dir,
          'sleeper',
          `import { appendFileSync } from 'node:fs';
process.on('SIGINT', () => { appendFileSync(${JSON.stringify(`${dir}/signals`)}, 'SIGINT\\n'); process.exit(1); });
await new Promise((r) => setTimeout(r, 5000));
appendFileSync(${JSON.stringify(`${dir}/signals`)}, 'finished\\n');
`,
        ),
      }),
    });
    await world.dispatch('t.yml');
    await world.settle();
    const run = onlyRun(world.runner);
    expect(run.cancelled).toBe(false);
    const slow = legs(run, 'm').find((l) => l.matrix!.n === 'slow')!;
    const bad = legs(run, 'm').find((l) => l.matrix!.n === 'bad')!;
    expect(bad.result).toBe('failure');
    expect(slow.result).toBe('cancelled');
    expect(slow.finishedAt - slow.startedAt).toBeLessThan(3000);
    expect(await readLines(`${world.dir}/signals`)).toEqual(['SIGINT']);
    expect(slow.steps.map((s) => s.outcome)).toEqual(['skipped', 'cancelled', 'success']);
    expect(slow.log).toContain('cleanup slow cancelled');
    expect(slow.annotations).toContainEqual({ level: 'error', message: 'The job was canceled because "_bad" failed.' });
  });

  it('fail-fast: false lets the other legs finish', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  m:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      max-parallel: 1
      matrix:
        n: [1, 2, 3]
    outputs:
      n: \${{ steps.s.outputs.n }}
    steps:
      - id: s
        run: echo "n=\${{ matrix.n }}" >> "$GITHUB_OUTPUT"; [ "\${{ matrix.n }}" != 1 ] || exit 1
`),
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const m = legs(onlyRun(world.runner), 'm');
    expect(m.map((l) => `${l.name}:${l.result}`).sort()).toEqual(['m (1):failure', 'm (2):success', 'm (3):success']);
  });
});

describe('probe outputs', () => {
  it('passes each leg its matrix values as action inputs', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  m:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        task: [a, b]
    steps:
      - id: e
        uses: someone/echo@v1
        with:
          task: \${{ matrix.task }}
`),
      },
      actions: async (dir) => ({ echo: await writeAction(dir, 'echo', `${OUT}\nout('task', process.env.INPUT_TASK);\n`, { task: undefined }) }),
    });
    await world.dispatch('t.yml');
    await world.settle();
    const m = legs(onlyRun(world.runner), 'm');
    expect(m.map((l) => `${l.matrix!.task}=${l.steps[0]!.outputs.task}`).sort()).toEqual(['a=a', 'b=b']);
  });
});
