import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { freePort } from '../../support/free-port';
import { afterEach, describe, expect, it } from 'vitest';
import { job, onlyRun, startWorld, workflow, type World } from './helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const SETUP = `name: setup
inputs:
  port: { required: true }
  greeting: { default: 'hello from \${{ github.event_name }}' }
outputs:
  addr: { value: '\${{ steps.start.outputs.addr }}' }
runs:
  using: composite
  steps:
    - id: start
      shell: bash
      run: |
        echo "SERVICE_ADDR=127.0.0.1:\${{ inputs.port }}" >> "$GITHUB_ENV"
        mkdir -p "$RUNNER_TEMP/tools" && printf '#!/bin/sh\\necho tool ran\\n' > "$RUNNER_TEMP/tools/mytool" && chmod +x "$RUNNER_TEMP/tools/mytool"
        echo "$RUNNER_TEMP/tools" >> "$GITHUB_PATH"
        echo "addr=127.0.0.1:\${{ inputs.port }}" >> "$GITHUB_OUTPUT"
        echo "path=$GITHUB_ACTION_PATH \${{ github.action_path }}" >> "$GITHUB_OUTPUT"
    - id: next
      shell: sh
      env:
        SAID: \${{ inputs.greeting }}
      run: echo "saw $SERVICE_ADDR, $SAID, $(mytool), \${{ steps.start.outputs.addr }}"
`;

const JOB = `  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: { persist-credentials: false }
      - id: setup
        if: hashFiles('.github/actions/setup/action.yml') != ''
        uses: ./.github/actions/setup
        with:
          port: '5433'
      - id: after
        run: |
          echo "addr=\${{ steps.setup.outputs.addr }}" >> "$GITHUB_OUTPUT"
          echo "env=$SERVICE_ADDR" >> "$GITHUB_OUTPUT"
          echo "tool=$(mytool 2>/dev/null || echo missing)" >> "$GITHUB_OUTPUT"
          echo "hash=\${{ hashFiles('.github/actions/setup/action.yml') }}" >> "$GITHUB_OUTPUT"
`;

describe('a local composite action (docs: "Metadata syntax for GitHub Actions", runs for composite actions)', () => {
  it("runs its steps as one step: inputs and defaults, its own steps context, GITHUB_ACTION_PATH, outputs, and GITHUB_ENV and GITHUB_PATH for its later steps and the job's", async () => {
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB), '.github/actions/setup/action.yml': SETUP } });
    await world.dispatch('w.yml');
    await world.settle();
    const j = job(onlyRun(world.runner), 'j');
    expect(j.result).toBe('success');
    const [, setup, after] = j.steps;
    expect(setup!.outcome).toBe('success');
    expect(setup!.outputs).toEqual({ addr: '127.0.0.1:5433' });
    expect(j.log.join('\n')).toContain('saw 127.0.0.1:5433, hello from workflow_dispatch, tool ran, 127.0.0.1:5433');
    expect(after!.outputs).toMatchObject({ addr: '127.0.0.1:5433', env: '127.0.0.1:5433', tool: 'tool ran' });
    // hashFiles (actions/runner's hashFiles): the SHA-256 of the files' SHA-256s.
    const inner = createHash('sha256').update(SETUP).digest();
    expect(after!.outputs.hash).toBe(createHash('sha256').update(inner).digest('hex'));
  });

  it('GITHUB_ACTION_PATH and github.action_path name the action folder in the workspace', async () => {
    const probe = SETUP.replace('outputs:\n  addr:', "outputs:\n  path: { value: '${{ steps.start.outputs.path }}' }\n  addr:");
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB), '.github/actions/setup/action.yml': probe } });
    await world.dispatch('w.yml');
    await world.settle();
    const path = job(onlyRun(world.runner), 'j').steps[1]!.outputs.path!;
    expect(path).toMatch(/^(\S+\/workspace\/\.github\/actions\/setup) \1$/);
  });

  it('skips the step when hashFiles finds no action (the repository has none)', async () => {
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB) } });
    await world.dispatch('w.yml');
    await world.settle();
    const j = job(onlyRun(world.runner), 'j');
    expect(j.result).toBe('success');
    expect(j.steps[1]!.outcome).toBe('skipped');
    expect(j.steps[2]!.outputs).toMatchObject({ addr: '', env: '', tool: 'missing', hash: '' });
  });

  it("fails the action and the job at a failing step, skipping the action's later steps", async () => {
    const failing = SETUP.replace('    - id: next\n', '    - shell: bash\n      run: echo "db not up" && exit 3\n    - id: next\n');
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB), '.github/actions/setup/action.yml': failing } });
    await world.dispatch('w.yml');
    await world.settle();
    const j = job(onlyRun(world.runner), 'j');
    expect(j.result).toBe('failure');
    expect(j.steps[1]!.outcome).toBe('failure');
    expect(j.steps[2]!.outcome).toBe('skipped');
    expect(j.log.join('\n')).toContain('db not up');
    expect(j.log.join('\n')).not.toContain('saw ');
    expect(j.annotations.map((a) => a.message)).toContain('Process completed with exit code 3.');
  });

  it('a required input left out is an empty string, with no warning (actions/runner does not enforce `required`: ActionManifestManager.cs)', async () => {
    const noPort = JOB.replace("        with:\n          port: '5433'\n", '');
    expect(noPort).not.toContain('5433');
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(noPort), '.github/actions/setup/action.yml': SETUP } });
    await world.dispatch('w.yml');
    await world.settle();
    const j = job(onlyRun(world.runner), 'j');
    expect(j.result).toBe('success');
    expect(j.steps[1]!.outputs).toEqual({ addr: '127.0.0.1:' });
    expect(j.log.join('\n')).toContain('saw 127.0.0.1:, hello from workflow_dispatch');
    expect(j.annotations).toEqual([]);
  });

  it("a sub-step's GITHUB_ENV: NODE_OPTIONS refused with the runner's error, the runner's own variables kept for the next sub-step", async () => {
    const writes = SETUP.replace(
      '        echo "SERVICE_ADDR=',
      '        echo "GITHUB_ACTION_PATH=/elsewhere" >> "$GITHUB_ENV"; echo "RUNNER_TEMP=/nowhere" >> "$GITHUB_ENV"; echo "NODE_OPTIONS=-r x" >> "$GITHUB_ENV"\n        echo "SERVICE_ADDR=',
    ).replace('run: echo "saw $SERVICE_ADDR', 'run: echo "paths $GITHUB_ACTION_PATH $RUNNER_TEMP ${NODE_OPTIONS-unset}"; echo "saw $SERVICE_ADDR');
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB), '.github/actions/setup/action.yml': writes } });
    await world.dispatch('w.yml');
    await world.settle();
    const j = job(onlyRun(world.runner), 'j');
    expect(j.result).toBe('success');
    const line = j.log.find((l) => l.includes('paths '))!;
    expect(line).toMatch(/paths \S+\/workspace\/\.github\/actions\/setup \S+ unset$/);
    expect(line).not.toContain('/nowhere');
    expect(j.annotations.map((a) => a.message)).toEqual(["Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command."]);
  });

  it("a sub-step's exported value and the action's output reach the job whole, whatever lines they hold", async () => {
    const lines = SETUP.replace(
      '        echo "SERVICE_ADDR=',
      '        printf \'WHOLE<<END\\nfirst\\nCREW_COMPOSITE_EOF\\nlast\\nEND\\n\' >> "$GITHUB_ENV"\n        printf \'lines<<END\\none\\nCREW_COMPOSITE_EOF\\ntwo\\nEND\\n\' >> "$GITHUB_OUTPUT"\n        echo "SERVICE_ADDR=',
    ).replace("addr: { value: '${{ steps.start.outputs.addr }}' }", "addr: { value: '${{ steps.start.outputs.lines }}' }");
    // The `after` step writes the output on one line; here the output has three.
    const job_ = `${JOB.replace('          echo "addr=\${{ steps.setup.outputs.addr }}" >> "$GITHUB_OUTPUT"\n', '')}      - run: echo "whole=$(printf %s "$WHOLE" | tr '\\n' '|')"\n`;
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(job_), '.github/actions/setup/action.yml': lines } });
    await world.dispatch('w.yml');
    await world.settle();
    const j = job(onlyRun(world.runner), 'j');
    expect(j.result).toBe('success');
    expect(j.steps[1]!.outputs.addr).toBe('one\nCREW_COMPOSITE_EOF\ntwo');
    expect(j.log).toContain('whole=first|CREW_COMPOSITE_EOF|last');
  });

  it('refuses a run step without `shell` (required in a composite action)', async () => {
    const noShell = SETUP.replace('    - id: next\n      shell: sh\n', '    - id: next\n');
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(JOB), '.github/actions/setup/action.yml': noShell } });
    await world.dispatch('w.yml');
    await world.settle();
    const j = job(onlyRun(world.runner), 'j');
    expect(j.result).toBe('failure');
    expect(j.annotations.map((a) => a.message).join('\n')).toMatch(/runs\.steps\[1\]\): Required property is missing: shell/);
  });
});

describe('the runner cleans up orphan processes at the end of a job (actions/runner JobExtension.FinalizeJob)', () => {
  it('a service a setup step started in the background runs through the later steps and is gone after the job; the next job can listen on its port again', async () => {
    const server = `node -e "require('net').createServer((c)=>c.end('up\\\\n')).listen(Number(process.argv[1]),'127.0.0.1',()=>require('fs').writeFileSync(process.argv[2],String(process.pid)))" "$PORT" "$RUNNER_TEMP/pid" > /dev/null 2>&1 &
          for i in $(seq 100); do [ -s "$RUNNER_TEMP/pid" ] && break; sleep 0.1; done
          pid=$(cat "$RUNNER_TEMP/pid")
          echo "pid=$pid" >> "$GITHUB_OUTPUT"
          echo "started=$(cut -d' ' -f22 /proc/$pid/stat)" >> "$GITHUB_OUTPUT"`;
    const port = String(await freePort());
    const jobOf = (name: string, needs?: string) => `  ${name}:
    runs-on: ubuntu-latest
${needs ? `    needs: ${needs}\n` : ''}    env: { PORT: '${port}' }
    steps:
      - id: start
        run: |
          ${server}
      - id: use
        run: echo "said=$(node -e "require('net').connect(Number(process.env.PORT),'127.0.0.1').on('data',(d)=>{process.stdout.write(String(d).trim());process.exit(0)})")" >> "$GITHUB_OUTPUT"
`;
    world = await startWorld({ files: { '.github/workflows/w.yml': workflow(`${jobOf('one')}${jobOf('two', 'one')}`) } });
    await world.dispatch('w.yml');
    await world.settle();
    const one = job(onlyRun(world.runner), 'one');
    const two = job(onlyRun(world.runner), 'two');
    expect(one.result).toBe('success');
    expect(one.steps[1]!.outputs.said).toBe('up');
    // The second job's own server could listen on the same port: the first job's was killed at its end.
    expect(two.result).toBe('success');
    expect(two.steps[1]!.outputs.said).toBe('up');
    for (const j of [one, two]) {
      const { pid, started } = j.steps[0]!.outputs;
      // Gone, or a zombie its parent has not reaped yet (the kill was delivered); a process started at another
      // time is another program that got the number since (other tests run beside this one).
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      const fields = stat.split(') ')[1]?.split(' ') ?? [];
      const same = fields[19] === started;
      expect(same ? fields[0] : 'gone', `${pid} ${stat}`).toMatch(/^(gone|Z)$/);
    }
  }, 60_000);
});
