import { afterEach, describe, expect, it } from 'vitest';
import { FakeArtifactService } from '../../support/artifacts/fake-artifact-service';
import { job, legs, onlyRun, startWorld, workflow, type World } from './helpers';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function runOnce(jobs: string, opts: { secrets?: Record<string, string>; extra?: string } = {}) {
  world = await startWorld({ files: { '.github/workflows/t.yml': workflow(jobs, opts.extra) }, secrets: opts.secrets });
  await world.dispatch('t.yml');
  await world.settle();
  return onlyRun(world.runner);
}

describe('needs and if', () => {
  it('starts a job only after the jobs it needs, and passes their outputs', async () => {
    const run = await runOnce(`
  a:
    runs-on: ubuntu-latest
    outputs:
      word: \${{ steps.s.outputs.word }}
    steps:
      - id: s
        run: sleep 0.2; echo "word=alpha" >> "$GITHUB_OUTPUT"
  b:
    needs: a
    runs-on: ubuntu-latest
    outputs:
      word: \${{ steps.s.outputs.word }}
    steps:
      - id: s
        run: sleep 0.1; echo "word=\${{ needs.a.outputs.word }}-beta" >> "$GITHUB_OUTPUT"
  c:
    needs: [a, b]
    runs-on: ubuntu-latest
    outputs:
      both: \${{ needs.a.outputs.word }}+\${{ needs.b.outputs.word }}
      results: \${{ needs.a.result }},\${{ needs.b.result }}
    steps:
      - run: echo done
  free:
    runs-on: ubuntu-latest
    steps:
      - run: echo free
`);
    const [a, b, c, free] = ['a', 'b', 'c', 'free'].map((id) => job(run, id));
    expect(b!.startedAt).toBeGreaterThanOrEqual(a!.finishedAt);
    expect(c!.startedAt).toBeGreaterThanOrEqual(b!.finishedAt);
    // A job without needs does not wait for anything.
    expect(free!.startedAt).toBeLessThan(a!.finishedAt);
    expect(c!.outputs).toEqual({ both: 'alpha+alpha-beta', results: 'success,success' });
  });

  it('skips jobs after a failure unless a status function says otherwise, along the whole chain', async () => {
    const run = await runOnce(`
  a:
    runs-on: ubuntu-latest
    steps:
      - run: exit 3
  plain:
    needs: a
    runs-on: ubuntu-latest
    steps:
      - run: echo plain
  by-result:
    needs: a
    if: needs.a.result == 'failure'
    runs-on: ubuntu-latest
    steps:
      - run: echo by-result
  on-failure:
    needs: a
    if: failure()
    runs-on: ubuntu-latest
    outputs:
      seen: \${{ needs.a.result }}
    steps:
      - run: echo on-failure
  always:
    needs: plain
    if: always()
    runs-on: ubuntu-latest
    outputs:
      seen: \${{ needs.plain.result }}
    steps:
      - run: echo always
  after-always:
    needs: always
    runs-on: ubuntu-latest
    steps:
      - run: echo after-always
  not-failed:
    needs: always
    if: \${{ !failure() }}
    runs-on: ubuntu-latest
    steps:
      - run: echo not-failed
`);
    const result = (id: string) => job(run, id).result;
    expect(result('a')).toBe('failure');
    expect(job(run, 'a').annotations).toContainEqual({ level: 'error', message: 'Process completed with exit code 3.' });
    expect(job(run, 'a').steps[0]!.exitCode).toBe(3);
    expect(result('plain')).toBe('skipped');
    // No status function means `success() && (…)`: the result check alone does not let the job run.
    expect(result('by-result')).toBe('skipped');
    expect(result('on-failure')).toBe('success');
    expect(job(run, 'on-failure').outputs.seen).toBe('failure');
    expect(result('always')).toBe('success');
    expect(job(run, 'always').outputs.seen).toBe('skipped');
    // success() and failure() look at every ancestor, not just the direct needs.
    expect(result('after-always')).toBe('skipped');
    expect(result('not-failed')).toBe('skipped');
  });

  it('evaluates `if:` like GitHub, including the `${{ false }} && x` pitfall', async () => {
    const run = await runOnce(`
  steps:
    runs-on: ubuntu-latest
    outputs:
      ran: \${{ steps.bare-false.outcome }},\${{ steps.braced-false.outcome }},\${{ steps.pitfall.outcome }},\${{ steps.inner.outcome }},\${{ steps.literal.outcome }},\${{ steps.string.outcome }}
    steps:
      - id: bare-false
        if: false
        run: echo never
      - id: braced-false
        if: \${{ false }}
        run: echo never
      - id: pitfall
        if: \${{ false }} && false
        run: echo "runs, because the condition is the non-empty string 'false && false'"
      - id: inner
        if: \${{ false && true }}
        run: echo never
      - id: literal
        if: github.event_name == 'workflow_dispatch'
        run: echo yes
      - id: string
        if: "'false'"
        run: echo "a non-empty string is truthy"
  job-pitfall:
    if: \${{ false }} && false
    runs-on: ubuntu-latest
    steps:
      - run: echo ran
  job-false:
    if: \${{ false }}
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`);
    expect(job(run, 'steps').outputs.ran).toBe('skipped,skipped,success,skipped,success,success');
    expect(job(run, 'job-pitfall').result).toBe('success');
    expect(job(run, 'job-false').result).toBe('skipped');
    expect(job(run, 'job-false').steps).toEqual([]);
  });
});

describe('steps', () => {
  it('skips the steps after a failure except failure() and always() ones, and fails the job', async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    outputs:
      status: \${{ steps.report.outputs.status }}
    steps:
      - run: echo one
      - run: exit 7
      - run: echo never
      - if: failure()
        run: echo failure-handler
      - id: report
        if: always()
        run: echo "status=\${{ job.status }}" >> "$GITHUB_OUTPUT"
      - if: success()
        run: echo never
`);
    const j = job(run, 'j');
    expect(j.result).toBe('failure');
    expect(j.steps.map((s) => `${s.outcome}:${s.exitCode}`)).toEqual(['success:0', 'failure:7', 'skipped:null', 'success:0', 'success:0', 'skipped:null']);
    expect(j.log).toContain('failure-handler');
    expect(j.log).not.toContain('never');
    expect(j.outputs.status).toBe('failure');
  });

  it('continue-on-error: the step fails, its conclusion is success, and the job goes on', async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    outputs:
      first: \${{ steps.first.outcome }}/\${{ steps.first.conclusion }}
      second: \${{ steps.second.outcome }}/\${{ steps.second.conclusion }}
    steps:
      - id: first
        continue-on-error: true
        run: exit 1
      - id: second
        continue-on-error: \${{ github.event_name == 'workflow_dispatch' }}
        run: exit 2
      - run: echo "still here"
  strict:
    runs-on: ubuntu-latest
    steps:
      - continue-on-error: false
        run: exit 1
      - run: echo never
`);
    const j = job(run, 'j');
    expect(j.result).toBe('success');
    expect(j.outputs).toEqual({ first: 'failure/success', second: 'failure/success' });
    expect(j.log).toContain('still here');
    expect(job(run, 'strict').result).toBe('failure');
    expect(job(run, 'strict').steps.map((s) => s.outcome)).toEqual(['failure', 'skipped']);
  });

  it('GITHUB_ENV carries values to later steps; GITHUB_PATH extends PATH; step env wins', async () => {
    const run = await runOnce(
      `
  j:
    runs-on: ubuntu-latest
    env:
      FROM_JOB: job
    outputs:
      seen: \${{ steps.read.outputs.seen }}
      expr: \${{ steps.read.outputs.expr }}
      tool: \${{ steps.tool.outputs.tool }}
    steps:
      - run: |
          echo "GREETING=hello world" >> "$GITHUB_ENV"
          { echo "LINES<<EOF"; echo "one"; echo "two"; echo "EOF"; } >> "$GITHUB_ENV"
          mkdir -p "$RUNNER_TEMP/bin"
          printf '#!/bin/sh\\necho tool-ran\\n' > "$RUNNER_TEMP/bin/mytool"
          chmod +x "$RUNNER_TEMP/bin/mytool"
          echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH"
          echo "OVERRIDDEN=from-env-file" >> "$GITHUB_ENV"
      - id: read
        env:
          OVERRIDDEN: from-step
        run: |
          echo "seen=$GREETING|$(echo "$LINES" | tr '\\n' ',')|$FROM_WORKFLOW|$FROM_JOB|$OVERRIDDEN" >> "$GITHUB_OUTPUT"
          echo "expr=\${{ env.GREETING }}|\${{ env.OVERRIDDEN }}" >> "$GITHUB_OUTPUT"
      - id: tool
        run: echo "tool=$(mytool)" >> "$GITHUB_OUTPUT"
`,
      { extra: 'env:\n  FROM_WORKFLOW: workflow\n' },
    );
    const j = job(run, 'j');
    expect(j.result).toBe('success');
    expect(j.outputs).toEqual({ seen: 'hello world|one,two,|workflow|job|from-step', expr: 'hello world|from-step', tool: 'tool-ran' });
  });
});

describe("names written to GITHUB_ENV (actions/runner FileCommandManager.cs SetEnvFileCommand; ScriptHandler.cs 'expose context to environment')", () => {
  it("refuses NODE_OPTIONS in any case with the runner's error, keeps every other name, and the runner's own variables win in a process", async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    outputs:
      seen: \${{ steps.read.outputs.seen }}
      expr: \${{ steps.read.outputs.expr }}
    steps:
      - run: |
          real_ref="$GITHUB_REF"; real_temp="$RUNNER_TEMP"
          echo "GITHUB_REF=refs/heads/evil" >> "$GITHUB_ENV"
          echo "RUNNER_TEMP=/nowhere" >> "$GITHUB_ENV"
          echo "GITHUB_TOKEN=from-a-step" >> "$GITHUB_ENV"
          echo "RUNNER_FOO=foo" >> "$GITHUB_ENV"
          echo "GITHUB_FOO=bar" >> "$GITHUB_ENV"
          echo "GITHUB_TRIGGERING_ACTOR=someone-else" >> "$GITHUB_ENV"
          echo "RUNNER_ENVIRONMENT=self-hosted" >> "$GITHUB_ENV"
          echo "NODE_OPTIONS=--require /tmp/x.js" >> "$GITHUB_ENV"
          echo "node_options=--require /tmp/y.js" >> "$GITHUB_ENV"
          echo "REAL=$real_ref|$real_temp" >> "$GITHUB_ENV"
      - id: read
        run: |
          echo "seen=$GITHUB_REF|$RUNNER_TEMP|$GITHUB_TOKEN|$RUNNER_FOO|$GITHUB_FOO|\${NODE_OPTIONS-unset}|\${node_options-unset}|$REAL|$GITHUB_TRIGGERING_ACTOR|$RUNNER_ENVIRONMENT" >> "$GITHUB_OUTPUT"
          echo "expr=\${{ env.GITHUB_REF }}|\${{ env.GITHUB_TOKEN }}" >> "$GITHUB_OUTPUT"
`);
    const j = job(run, 'j');
    // An issue on the step, not a failure: the step and the job succeed (the runner's AddIssue, no result).
    expect(j.result).toBe('success');
    expect(j.steps.map((s) => s.outcome)).toEqual(['success', 'success']);
    const [ref, temp, token, runnerFoo, githubFoo, nodeOptions, lower, realRef, realTemp, triggering, environment] = j.outputs.seen!.split('|');
    expect([ref, temp]).toEqual([realRef, realTemp]);
    expect([triggering, environment]).toEqual([run.actor, 'github-hosted']);
    expect(ref).toMatch(/^refs\/heads\/main$/);
    expect([token, runnerFoo, githubFoo, nodeOptions, lower]).toEqual(['from-a-step', 'foo', 'bar', 'unset', 'unset']);
    // The env context holds what was written, as SetEnvContext puts it.
    expect(j.outputs.expr).toBe('refs/heads/evil|from-a-step');
    expect(j.annotations.filter((a) => a.level === 'error').map((a) => a.message)).toEqual([
      "Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command.",
      "Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command.",
    ]);
  });
});

describe("the services' variables, written over a step's environment by its handler (env-file-command.ts, handlerEnv)", () => {
  it("a run step gets the runner's OIDC pair over GITHUB_ENV's and the runtime names as written; a node action the runner's runtime; a composite's run step no runtime token", async () => {
    const artifacts = await FakeArtifactService.start();
    const probe = `const { appendFileSync } = require('node:fs');
appendFileSync(process.env.GITHUB_OUTPUT, 'seen=' + ['ACTIONS_ID_TOKEN_REQUEST_URL', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL'].map((k) => process.env[k] ?? 'unset').join('|') + '\\n');
`;
    const w = await startWorld({
      oidc: { url: 'http://oidc.invalid/token', requestToken: 'request-token' },
      artifacts,
      files: {
        '.github/workflows/w.yml': workflow(`  j:
    runs-on: ubuntu-latest
    permissions: { id-token: write, contents: read }
    outputs:
      run: \${{ steps.run.outputs.seen }}
      node: \${{ steps.node.outputs.seen }}
      env-node: \${{ steps.env-node.outputs.seen }}
    steps:
      - uses: actions/checkout@v4
        with: { persist-credentials: false }
      - uses: ./.github/actions/comp
      - run: |
          echo "ACTIONS_ID_TOKEN_REQUEST_URL=http://evil.invalid/token" >> "$GITHUB_ENV"
          echo "ACTIONS_RUNTIME_TOKEN=from-env" >> "$GITHUB_ENV"
          echo "ACTIONS_RESULTS_URL=http://evil.invalid/" >> "$GITHUB_ENV"
      - id: run
        run: echo "seen=$ACTIONS_ID_TOKEN_REQUEST_URL|$ACTIONS_RUNTIME_TOKEN|$ACTIONS_RESULTS_URL" >> "$GITHUB_OUTPUT"
      - id: node
        uses: ./.github/actions/probe
      - id: env-node
        uses: ./.github/actions/probe
        env: { ACTIONS_RUNTIME_TOKEN: from-step-env }
`),
        '.github/actions/probe/action.yml': 'name: probe\nruns:\n  using: node24\n  main: index.js\n',
        '.github/actions/probe/index.js': probe,
        '.github/actions/comp/action.yml': `name: comp
runs:
  using: composite
  steps:
    - shell: bash
      run: echo "comp=\${ACTIONS_RUNTIME_TOKEN-unset}|\${ACTIONS_RESULTS_URL-unset}|$ACTIONS_ID_TOKEN_REQUEST_URL"
`,
      },
    });
    try {
      await w.dispatch('w.yml');
      await w.settle();
      const j = job(onlyRun(w.runner), 'j');
      expect(j.result).toBe('success');
      expect(j.outputs.run).toBe('http://oidc.invalid/token|from-env|http://evil.invalid/');
      const [oidc, token, results] = j.outputs.node!.split('|');
      expect(oidc).toBe('http://oidc.invalid/token');
      expect(token).not.toMatch(/^(from-env|unset)$/);
      expect(results).toBe(`${artifacts.url}/`);
      expect(j.outputs['env-node']!.split('|')[1]).toBe(token);
      expect(j.log.join('\n')).toContain('comp=unset|unset|http://oidc.invalid/token');
    } finally {
      await w.close();
      await artifacts.close();
    }
  });
});

describe("the hosted image's variables (actions/runner-images configure-environment.sh: ImageOS, ImageVersion in /etc/environment)", () => {
  it('ubuntu-latest is ubuntu24, ubuntu-22.04 ubuntu22 (from a matrix too), a self-hosted runner has neither; a step may write over them, and the env context does not hold them', async () => {
    const run = await runOnce(`
  hosted:
    runs-on: ubuntu-latest
    outputs:
      seen: \${{ steps.read.outputs.seen }}
      own: \${{ steps.own.outputs.seen }}
    steps:
      - id: read
        run: echo "seen=$ImageOS|$ImageVersion|\${{ env.ImageOS }}" >> "$GITHUB_OUTPUT"
      - id: own
        env: { ImageOS: my-image }
        run: echo "seen=$ImageOS" >> "$GITHUB_OUTPUT"
  older:
    strategy: { matrix: { os: [ubuntu-22.04] } }
    runs-on: \${{ matrix.os }}
    outputs:
      seen: \${{ steps.read.outputs.seen }}
    steps:
      - id: read
        run: echo "seen=$ImageOS" >> "$GITHUB_OUTPUT"
  own-machine:
    runs-on: [self-hosted, linux]
    outputs:
      seen: \${{ steps.read.outputs.seen }}
    steps:
      - id: read
        run: echo "seen=\${ImageOS-unset}|\${ImageVersion-unset}" >> "$GITHUB_OUTPUT"
`);
    const [os, version, ctx] = job(run, 'hosted').outputs.seen!.split('|');
    expect([os, ctx]).toEqual(['ubuntu24', '']);
    expect(version).toMatch(/^\d{8}\.\d+\.\d+$/);
    expect(job(run, 'hosted').outputs.own).toBe('my-image');
    expect(legs(run, 'older').map((j) => j.outputs.seen)).toEqual(['ubuntu22']);
    expect(job(run, 'own-machine').outputs.seen).toBe('unset|unset');
  });
});

describe('logs, annotations and secrets', () => {
  const SECRET = 's3cr3t-value-42';

  it('masks secrets, the job token and ::add-mask:: values in logs and annotations', async () => {
    const run = await runOnce(
      `
  j:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "secret is $SECRET"
          echo "token is $TOKEN"
          echo "before mask: hidden-later"
          echo "::add-mask::hidden-later"
          echo "after mask: hidden-later"
          echo "::error::failed near $SECRET"
          echo "::warning file=a.ts,line=3::look at hidden-later"
          echo "::notice::plain note"
          echo "::debug::not shown"
          echo "to stderr: $SECRET" >&2
        env:
          SECRET: \${{ secrets.API_KEY }}
          TOKEN: \${{ github.token }}
`,
      { secrets: { API_KEY: SECRET } },
    );
    const j = job(run, 'j');
    expect(j.log).toContain('secret is ***');
    expect(j.log).toContain('token is ***');
    // GitHub cannot mask what was printed before the mask existed.
    expect(j.log).toContain('before mask: hidden-later');
    expect(j.log).toContain('after mask: ***');
    expect(j.log).toContain('to stderr: ***');
    expect(j.log).toContain('##[error]failed near ***');
    expect(j.log.some((l) => l.includes('not shown') || l.includes('add-mask'))).toBe(false);
    expect(j.annotations).toEqual([
      { level: 'error', message: 'failed near ***' },
      { level: 'warning', message: 'look at ***' },
      { level: 'notice', message: 'plain note' },
    ]);
    expect(j.log.join('\n')).not.toContain(SECRET);
  });

  it('drops job outputs that contain a secret, with a warning', async () => {
    const run = await runOnce(
      `
  j:
    runs-on: ubuntu-latest
    outputs:
      clean: \${{ steps.s.outputs.clean }}
      leaky: \${{ steps.s.outputs.leaky }}
      masked: \${{ steps.s.outputs.masked }}
      token: \${{ steps.s.outputs.token }}
    steps:
      - id: s
        run: |
          echo "::add-mask::runtime-mask-value"
          echo "clean=nothing to hide" >> "$GITHUB_OUTPUT"
          echo "leaky=key:$SECRET" >> "$GITHUB_OUTPUT"
          echo "masked=x-runtime-mask-value-x" >> "$GITHUB_OUTPUT"
          echo "token=$TOKEN" >> "$GITHUB_OUTPUT"
        env:
          SECRET: \${{ secrets.API_KEY }}
          TOKEN: \${{ github.token }}
  next:
    needs: j
    runs-on: ubuntu-latest
    outputs:
      got: "\${{ needs.j.outputs.clean }}|\${{ needs.j.outputs.leaky }}|\${{ needs.j.outputs.masked }}|\${{ needs.j.outputs.token }}"
    steps:
      - run: echo ok
`,
      { secrets: { API_KEY: SECRET } },
    );
    const j = job(run, 'j');
    expect(j.outputs).toEqual({ clean: 'nothing to hide' });
    for (const name of ['leaky', 'masked', 'token']) {
      expect(j.annotations).toContainEqual({ level: 'warning', message: `Skip output '${name}' since it may contain secret.` });
    }
    expect(job(run, 'next').outputs.got).toBe('nothing to hide|||');
  });
});
