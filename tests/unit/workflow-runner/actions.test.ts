import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OUT, job, onlyRun, startWorld, workflow, writeAction, type World } from './helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('uses: <owner>/<name>@<ref>', () => {
  it('runs the mapped folder with INPUT_* (defaults included), GITHUB_* env and the workspace as cwd', async () => {
    let probeDir = '';
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  j:
    runs-on: ubuntu-latest
    env:
      JOB_LEVEL: from-job
    steps:
      - id: p
        uses: someone/probe@v1
        with:
          name: world
          flag: true
          count: 3
      - id: p24
        uses: other-owner/probe24@main
`),
      },
      env: { MACHINE_VAR: 'from-runner-env' },
      actions: async (dir) => {
        probeDir = await writeAction(
          dir,
          'probe',
          `${OUT}
const inputs = Object.keys(process.env).filter((k) => k.startsWith('INPUT_')).sort().map((k) => k + '=' + (k === 'INPUT_TOKEN' ? process.env[k].slice(0, 4) : process.env[k]));
out('inputs', inputs.join(' '));
out('action', process.env.GITHUB_ACTION_PATH + ' ' + process.env.GITHUB_ACTION_REPOSITORY + ' ' + process.env.GITHUB_ACTION);
out('cwd', String(process.cwd() === process.env.GITHUB_WORKSPACE));
out('env', process.env.JOB_LEVEL + ' ' + process.env.MACHINE_VAR);
`,
          { name: undefined, greeting: 'hello', 'my-input': '${{ github.event_name }}', token: '${{ github.token }}', unset: undefined },
        );
        return { probe: probeDir, probe24: await writeAction(dir, 'probe24', `${OUT}\nout('version', process.version);\n`, {}, 'node24') };
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const j = job(onlyRun(world.runner), 'j');
    expect(j.result).toBe('success');
    const p = j.steps[0]!.outputs;
    // Inputs the action does not declare still reach it, after a warning; a declared one without a default is
    // an empty string (actions/runner ActionManifestManager.cs ConvertInputs; Handler.cs AddInputsToEnvironment).
    expect(p.inputs).toBe('INPUT_COUNT=3 INPUT_FLAG=true INPUT_GREETING=hello INPUT_MY-INPUT=workflow_dispatch INPUT_NAME=world INPUT_TOKEN=ghs_ INPUT_UNSET=');
    expect(j.annotations).toContainEqual({
      level: 'warning',
      message: "Unexpected input(s) 'flag', 'count', valid inputs are ['name', 'greeting', 'my-input', 'token', 'unset']",
    });
    expect(p.action).toBe(`${probeDir} someone/probe p`);
    expect(p.cwd).toBe('true');
    expect(p.env).toBe('from-job from-runner-env');
    // A node24 action runs on Node 24, as it does on GitHub's runners.
    expect(j.steps[1]!.outputs.version).toMatch(/^v24\./);
  });

  it('fails the step (not the runner) for a failing action, an unknown action, or a non-node action', async () => {
    world = await startWorld({
      files: {
        '.github/workflows/t.yml': workflow(`
  exits:
    runs-on: ubuntu-latest
    steps:
      - uses: someone/failer@v1
  set-failed:
    runs-on: ubuntu-latest
    steps:
      - uses: someone/failer@v1
        with:
          soft: yes
  unknown:
    runs-on: ubuntu-latest
    steps:
      - uses: someone/nowhere@v1
  composite:
    runs-on: ubuntu-latest
    steps:
      - uses: someone/composite@v1
`),
      },
      actions: async (dir) => {
        const composite = await writeAction(dir, 'composite', '');
        await import('node:fs/promises').then((fs) => fs.writeFile(join(composite, 'action.yml'), 'name: c\nruns:\n  using: docker\n  image: Dockerfile\n'));
        return {
          failer: await writeAction(
            dir,
            'failer',
            `if (process.env.INPUT_SOFT) { console.log('::error::it broke'); process.exitCode = 1; } else { process.exit(2); }\n`,
            { soft: undefined },
          ),
          composite,
        };
      },
    });
    await world.dispatch('t.yml');
    await world.settle();
    const run = onlyRun(world.runner);
    expect(job(run, 'exits').result).toBe('failure');
    expect(job(run, 'exits').steps[0]!.exitCode).toBe(2);
    expect(job(run, 'exits').annotations).toEqual([{ level: 'error', message: 'Process completed with exit code 2.' }]);
    expect(job(run, 'set-failed').annotations).toEqual([
      { level: 'error', message: 'it broke' },
      { level: 'error', message: 'Process completed with exit code 1.' },
    ]);
    expect(job(run, 'unknown').result).toBe('failure');
    expect(job(run, 'unknown').annotations[0]!.message).toMatch(/someone\/nowhere@v1/);
    expect(job(run, 'composite').result).toBe('failure');
    expect(job(run, 'composite').annotations[0]!.message).toMatch(/runs.using 'docker' is not a node runtime/);
  });
});

describe('actions/checkout', () => {
  const status = (name: string) =>
    `echo "${name}=$(git rev-parse HEAD) $(git rev-list --count HEAD) $(git rev-parse --is-shallow-repository) $(test -f new.txt && echo new || echo old)" >> "$GITHUB_OUTPUT"`;

  it('clones the event commit shallowly by default; ref and fetch-depth change that; credentials persist unless told', async () => {
    world = await startWorld({
      files: {
        'README.md': 'hello\n',
        '.github/workflows/t.yml': workflow(`
  push:
    runs-on: ubuntu-latest
    permissions:
      contents: write
    outputs:
      header: \${{ steps.p.outputs.header }}
    steps:
      - uses: actions/checkout@v4
      - id: p
        run: |
          echo "header=$(git config --local --get-regexp 'extraheader' | wc -l | tr -d ' ')" >> "$GITHUB_OUTPUT"
          echo new > new.txt
          git add new.txt
          git -c user.name=bot -c user.email=bot@example.com commit -q -m "second commit"
          git push -q origin HEAD:refs/heads/main
  event-sha:
    needs: push
    runs-on: ubuntu-latest
    outputs:
      s: \${{ steps.s.outputs.s }}
    steps:
      - uses: actions/checkout@v4
      - id: s
        run: ${status('s')}
  branch-tip:
    needs: push
    runs-on: ubuntu-latest
    outputs:
      s: \${{ steps.s.outputs.s }}
    steps:
      - uses: actions/checkout@v4
        with:
          ref: main
      - id: s
        run: ${status('s')}
  full-history:
    needs: push
    runs-on: ubuntu-latest
    outputs:
      s: \${{ steps.s.outputs.s }}
    steps:
      - uses: actions/checkout@v4
        with:
          ref: main
          fetch-depth: 0
      - id: s
        run: ${status('s')}
  no-credentials:
    needs: push
    runs-on: ubuntu-latest
    permissions:
      contents: write
    outputs:
      s: \${{ steps.s.outputs.s }}
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - id: s
        env:
          GIT_TERMINAL_PROMPT: '0'
        run: |
          headers=$( (git config --local --get-regexp 'extraheader' || true) | wc -l | tr -d ' ')
          if git push -q origin HEAD:refs/heads/other 2>/dev/null; then pushed=yes; else pushed=no; fi
          echo "s=$headers $pushed" >> "$GITHUB_OUTPUT"
  twice:
    needs: push
    runs-on: ubuntu-latest
    outputs:
      s: \${{ steps.s.outputs.s }}
    steps:
      - uses: actions/checkout@v4
      - run: echo junk > junk.txt
      - uses: actions/checkout@v4
        with:
          ref: main
      - id: s
        run: echo "s=$(git rev-parse HEAD) $(test -f junk.txt && echo junk || echo clean)" >> "$GITHUB_OUTPUT"
  read-only:
    needs: push
    runs-on: ubuntu-latest
    outputs:
      s: \${{ steps.s.outputs.s }}
    steps:
      - uses: actions/checkout@v4
      - id: s
        run: |
          if git push -q origin HEAD:refs/heads/other 2>/dev/null; then pushed=yes; else pushed=no; fi
          echo "s=$pushed" >> "$GITHUB_OUTPUT"
`),
      },
    });
    const first = (await world.gh.repo.branchSha('main'))!;
    await world.dispatch('t.yml');
    await world.settle();
    const run = onlyRun(world.runner);
    const second = (await world.gh.repo.branchSha('main'))!;
    expect(second).not.toBe(first);
    expect(job(run, 'push').result).toBe('success');
    expect(job(run, 'push').outputs.header).toBe('1');
    // Later jobs of the same run still check out the commit the event was for.
    expect(job(run, 'event-sha').outputs.s).toBe(`${first} 1 true old`);
    expect(job(run, 'branch-tip').outputs.s).toBe(`${second} 1 true new`);
    expect(job(run, 'full-history').outputs.s).toBe(`${second} 2 false new`);
    expect(job(run, 'no-credentials').outputs.s).toBe('0 no');
    expect(job(run, 'read-only').outputs.s).toBe('no');
    // A second checkout in a job starts again from a clean tree.
    expect(job(run, 'twice').outputs.s).toBe(`${second} clean`);
    expect(await world.gh.repo.branchSha('other')).toBeUndefined();
  });
});

describe('the job GITHUB_TOKEN', () => {
  const CALLS = `
          call() { curl -s -o /dev/null -w '%{http_code}' -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' "$@"; }
          api="$GITHUB_API_URL/repos/$GITHUB_REPOSITORY"
          echo "codes=$(call "$api/issues/1") $(call -X POST -d '{"body":"hi"}' "$api/issues/1/comments") $(call "$api/contents/README.md")" >> "$GITHUB_OUTPUT"
          echo "$TOKEN" > "$PROBE_DIR/token-\${{ github.job }}"`;

  it('is limited to the job’s permissions and revoked when the job ends', async () => {
    let probeDir = '';
    world = await startWorld({
      files: {
        'README.md': 'hello\n',
        '.github/workflows/t.yml': workflow(`
  scoped:
    runs-on: ubuntu-latest
    permissions:
      issues: read
    outputs:
      codes: \${{ steps.s.outputs.codes }}
    steps:
      - id: s
        env:
          TOKEN: \${{ github.token }}
        run: |${CALLS}
  writer:
    runs-on: ubuntu-latest
    permissions:
      issues: write
      contents: read
    outputs:
      codes: \${{ steps.s.outputs.codes }}
    steps:
      - id: s
        env:
          TOKEN: \${{ secrets.GITHUB_TOKEN }}
        run: |${CALLS}
  defaults:
    runs-on: ubuntu-latest
    outputs:
      codes: \${{ steps.s.outputs.codes }}
    steps:
      - id: s
        env:
          TOKEN: \${{ github.token }}
        run: |${CALLS}
  later:
    needs: [scoped, writer, defaults]
    runs-on: ubuntu-latest
    outputs:
      codes: \${{ steps.s.outputs.codes }}
    steps:
      - id: s
        run: |
          for j in scoped writer defaults; do
            codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -H "authorization: Bearer $(cat "$PROBE_DIR/token-$j")" "$GITHUB_API_URL/repos/$GITHUB_REPOSITORY/issues/1")"
          done
          echo "codes=$codes" >> "$GITHUB_OUTPUT"
`),
      },
      env: (dir) => ({ PROBE_DIR: (probeDir = dir) }),
    });
    const { gh } = world;
    await world.owner.request('POST /repos/{owner}/{repo}/issues', { owner: gh.owner, repo: gh.repoName, title: 'x' });
    await world.dispatch('t.yml');
    await world.settle({ denials: true });
    const run = onlyRun(world.runner);
    expect(job(run, 'scoped').outputs.codes).toBe('200 403 403');
    expect(job(run, 'writer').outputs.codes).toBe('200 201 200');
    expect(job(run, 'defaults').outputs.codes).toBe('403 403 200');
    expect(job(run, 'later').outputs.codes).toBe(' 401 401 401');
    const token = (await readFile(join(probeDir, 'token-writer'), 'utf8')).trim();
    expect(token).toMatch(/^ghs_/);
    expect(gh.tokens.has(token)).toBe(false);
    expect([...gh.comments.values()].map((c) => c.user)).toEqual(['github-actions[bot]']);
  });
});
