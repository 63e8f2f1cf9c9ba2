import { describe, expect, it } from 'vitest';
import { git } from '../support/git-cli';
import { CLOUD } from '../support/scenario/run-scenario';
import type { RecordedRequest } from '../support/anthropic/index';
import type { FakeGitHub } from '../support/github/fake-github';
import { addUsage, ZERO_USAGE, type Usage } from '../../src/domain/run-state';
import { crewComments, expectFaithful, play } from './helpers';

/**
 * crew on Amazon Bedrock and on Vertex AI, end to end through dist/ and the README's provider
 * workflow: the auth actions (offline stand-ins that leave what the real ones leave) in each job
 * that calls the model, `id-token: write` on those jobs only, `provider:` on crew's steps.
 */
async function playProvider(name: 'provider-bedrock' | 'provider-vertex') {
  let requests: RecordedRequest[] = [];
  const pushed: string[] = [];
  const logs: string[] = [];
  let toolOutput = '';
  let exchanges: unknown[] = [];
  let accounted: Usage = ZERO_USAGE;
  const r = await play(name, {
    hooks: {
      beforeClose: async ({ gh, anthropic, runner }) => {
        requests = [...anthropic.requests];
        exchanges = [...(anthropic.google?.exchanges ?? [])];
        toolOutput = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker' && q.outcome === 200)[1]?.body.messages.at(-1));
        for (const run of runner.runs) for (const job of run.jobs) logs.push(...job.rawLog);
        for (const { ref } of await gh.repo.listRefs('refs/heads/')) {
          pushed.push(`${ref}:`, ...(await gh.repo.listFiles(ref)));
          pushed.push(await git(['log', '--format=%B', ref], { cwd: gh.repoDir }));
        }
        accounted = await usageInState(gh);
      },
    },
  });
  return { r, requests, pushed: pushed.join('\n'), logs: logs.join('\n'), toolOutput, exchanges, accounted };
}

/** What crew counted in its state: the run's own usage (planning, critic, retrospective) and every task's. */
async function usageInState(gh: FakeGitHub): Promise<Usage> {
  const ref = 'refs/heads/crew/state';
  const files = (await gh.repo.listFiles(ref)).filter((f) => /^issue-1\/run-1\/(run|tasks\/task_t\d+)\.json$/.test(f));
  let total = ZERO_USAGE;
  for (const f of files) total = addUsage(total, (JSON.parse((await gh.repo.readFile(ref, f))!) as { usage: Usage }).usage);
  return total;
}

/** The usage the fake told clients about in replies that reached them whole (a reply broken off mid-stream is not one). */
function served(requests: RecordedRequest[]) {
  const ok = requests.filter((q) => q.outcome === 200 && q.usage);
  const sum = (k: 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens') => ok.reduce((n, q) => n + q.usage![k], 0);
  return {
    input: sum('input_tokens'),
    output: sum('output_tokens'),
    cacheRead: sum('cache_read_input_tokens'),
    cacheWrite: sum('cache_creation_input_tokens'),
  };
}

/**
 * The scenario's three limits, each answered in the platform's own words and then retried: the
 * intake's first request, the worker's second (a 429) and its third (broken off inside the stream).
 * Every other request succeeds, and each failed one is asked again with the same identity.
 */
function expectRetriedLimits(requests: RecordedRequest[], expected: Array<[string, number, RecordedRequest['outcome'], string]>) {
  const failed = requests.filter((q) => q.outcome !== 200);
  expect(failed.map((q) => [q.role, q.turn, q.outcome, q.error?.type ?? q.outcome])).toEqual(expected);
  for (const q of failed) {
    const again = requests.find((x) => x.seq > q.seq && x.role === q.role && x.task === q.task && x.turn === q.turn);
    expect(again?.outcome, `${q.role} turn ${q.turn} asked again`).toBe(200);
  }
}

const SECRET_VARS = /^(AWS_|GOOGLE_|CLOUDSDK_|GCLOUD_|GCP_|ACTIONS_ID_TOKEN)/m;

describe('provider: bedrock', () => {
  it('runs the issue to a PR through the fake Bedrock runtime: SigV4 for us-east-1, streamed, Bedrock’s throttling and overload retried, the cache read and counted, no AWS secret in any tool', async () => {
    const { r, requests, pushed, toolOutput, accounted } = await playProvider('provider-bedrock');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    expect(requests.length).toBeGreaterThan(3);
    for (const q of requests) {
      expect(q.auth).toBe('sigv4');
      expect(q.platform?.kind).toBe('bedrock');
      expect(q.platform?.principal).toMatch(/^ASIA/);
      // Streaming: every request is InvokeModelWithResponseStream, answered in the AWS event stream.
      expect(q.stream).toBe(true);
      expect(q.platform?.path).toMatch(/^\/model\/us\.anthropic\.claude-(haiku|sonnet)-5-5\/invoke-with-response-stream$/);
    }
    // Bedrock has no 529: its overloaded is 503 ServiceUnavailableException; its rate limit 429 ThrottlingException.
    expectRetriedLimits(requests, [
      ['intake', 0, 503, 'overloaded_error'],
      ['worker', 1, 429, 'rate_limit_error'],
      ['worker', 2, 'midstream', 'midstream'],
    ]);
    // intake, review and critic on the default tier (sonnet); the worker on the tier intake chose (sonnet, whose minimum cacheable length its prompt passes).
    expect(new Set(requests.filter((q) => q.role === 'worker').map((q) => q.body.model))).toEqual(new Set(['us.anthropic.claude-sonnet-5-5']));
    expect(new Set(requests.filter((q) => q.role === 'intake').map((q) => q.body.model))).toEqual(new Set(['us.anthropic.claude-sonnet-5-5']));
    // Prompt caching: the worker's later turns read what its first wrote, and crew counts exactly what Bedrock reported.
    const worker = served(requests.filter((q) => q.role === 'worker'));
    expect(worker.cacheWrite).toBeGreaterThan(0);
    expect(worker.cacheRead).toBeGreaterThan(0);
    const all = served(requests);
    expect([accounted.inputTokens, accounted.outputTokens, accounted.cacheReadTokens, accounted.cacheWriteTokens]).toEqual([
      all.input,
      all.output,
      all.cacheRead,
      all.cacheWrite,
    ]);
    expect(crewComments(r).find((c) => c.body.includes('**Usage:**'))?.body).toContain(`(${all.cacheRead.toLocaleString('en-US')} from cache)`);
    // The worker's command saw its allow-listed environment only.
    expect(toolOutput).toContain('crew-tool');
    expect(toolOutput).not.toMatch(/AWS_|ASIA[A-Z0-9]{16}/);
    expect(pushed).not.toMatch(/ASIA[A-Z0-9]{16}|AWS_SECRET/);
  });
});

describe('provider: vertex', () => {
  it('runs the issue to a PR through the fake Vertex AI: the WIF file moved out of the workspace, bearer from STS, streamed, RESOURCE_EXHAUSTED and overload retried, the cache read and counted', async () => {
    const { r, requests, pushed, logs, toolOutput, exchanges, accounted } = await playProvider('provider-vertex');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    expect(exchanges.length).toBeGreaterThan(0);
    expect(exchanges.every((e) => (e as { ok: boolean }).ok)).toBe(true);
    for (const q of requests) {
      expect([q.auth, q.platform?.kind, q.stream]).toEqual(['bearer', 'vertex', true]);
      expect(q.platform?.principal).toMatch(/^ya29\.fake-/);
      expect(q.platform?.path).toMatch(
        new RegExp(
          `^/v1/projects/${CLOUD.vertexProject}/locations/${CLOUD.vertexRegion}/publishers/anthropic/models/claude-(haiku|sonnet)-5-5:streamRawPredict$`,
        ),
      );
    }
    // Claude's own 529 passes through Vertex; Vertex's own quota is a 429 (RESOURCE_EXHAUSTED, Google's shape).
    expectRetriedLimits(requests, [
      ['intake', 0, 529, 'overloaded_error'],
      ['worker', 1, 429, 'rate_limit_error'],
      ['worker', 2, 'midstream', 'midstream'],
    ]);
    expect(new Set(requests.filter((q) => q.role === 'worker').map((q) => q.body.model))).toEqual(new Set(['claude-sonnet-5-5']));
    const worker = served(requests.filter((q) => q.role === 'worker'));
    expect(worker.cacheWrite).toBeGreaterThan(0);
    expect(worker.cacheRead).toBeGreaterThan(0);
    const all = served(requests);
    expect([accounted.inputTokens, accounted.outputTokens, accounted.cacheReadTokens, accounted.cacheWriteTokens]).toEqual([
      all.input,
      all.output,
      all.cacheRead,
      all.cacheWrite,
    ]);
    expect(crewComments(r).find((c) => c.body.includes('**Usage:**'))?.body).toContain(`(${all.cacheRead.toLocaleString('en-US')} from cache)`);
    // Each job that called the model moved the file google-github-actions/auth wrote.
    expect(logs).toMatch(/moved the credentials file gha-creds-[0-9a-f]{16}\.json out of the workspace/);
    expect(toolOutput).toContain('crew-tool');
    expect(toolOutput).not.toMatch(/gha-creds-[0-9a-f]|external_account|oidc-request-|GOOGLE_|CLOUDSDK_/);
    expect(toolOutput).not.toMatch(SECRET_VARS);
    expect(pushed).not.toMatch(/gha-creds-|external_account|oidc-request-/);
  });

  it('without the auth step, says what is missing in a comment, and calls no model', async () => {
    const { r, requests } = await (async () => {
      let requests: RecordedRequest[] = [];
      const r = await play('provider-vertex', {
        edit: (s) => {
          s.name = 'provider-vertex-missing-auth';
          // The file asks for Vertex, but the workflow is the plain one: no auth step, no project.
          s.provider = 'anthropic';
          s.config = 'provider: vertex\n';
        },
        hooks: { beforeClose: async ({ anthropic }) => void (requests = [...anthropic.requests]) },
      });
      return { r, requests };
    })();
    expect(requests).toEqual([]);
    const failure = crewComments(r).find((c) => /\*\*crew stopped\*\*/.test(c.body));
    expect(failure?.body).toMatch(/provider `vertex` needs a Google Cloud project/);
    expect(failure?.body).toMatch(/google-github-actions\/auth.*workload_identity_provider/);
  });
});

describe('fallback_provider', () => {
  const FAILOVER_LINE =
    /\*\*Model failover:\*\* The Anthropic API was overloaded \(529 overloaded_error\) past its retries \(first at \d\d:\d\d UTC\), so (.+) went on with Amazon Bedrock \(us-east-1\) \(`fallback_provider`\)\./;

  it('the Claude API stays overloaded for the whole run: every job goes on with Bedrock, the run ends in a PR, and the plan comment and the report say so', async () => {
    let primary: RecordedRequest[] = [];
    let fallback: RecordedRequest[] = [];
    let report = '';
    let toolOutput = '';
    const r = await play('provider-failover', {
      hooks: {
        beforeClose: async ({ gh, anthropic, fallback: bedrock }) => {
          primary = [...anthropic.requests];
          fallback = [...bedrock!.requests];
          report = (await gh.repo.readFile('refs/heads/crew/state', 'issue-1/run-1/report.md')) ?? '';
          toolOutput = JSON.stringify(fallback.filter((q) => q.role === 'worker')[1]?.body.messages.at(-1));
        },
      },
    });
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    expect(r.jobs.filter((j) => j.result === 'failure')).toEqual([]);
    // The Claude API answered nothing but 529s; each job asked it five times (1+2+4+8 s of waits fill
    // `api_retry_wait_seconds: 30`), once, and never again after going over.
    expect(primary.length).toBeGreaterThan(0);
    expect(new Set(primary.map((q) => q.outcome))).toEqual(new Set([529]));
    expect(primary.length % 5).toBe(0);
    expect(new Set(primary.map((q) => q.turn))).toEqual(new Set([0]));
    // Bedrock answered everything, signed with SigV4, with Bedrock's ids for the same tiers.
    for (const q of fallback) {
      expect([q.outcome, q.auth, q.platform?.kind, q.stream]).toEqual([200, 'sigv4', 'bedrock', true]);
      expect(q.body.model).toMatch(/^us\.anthropic\.claude-(haiku|sonnet)-5-5$/);
    }
    expect(new Set(fallback.filter((q) => q.role === 'worker').map((q) => q.body.model))).toEqual(new Set(['us.anthropic.claude-haiku-5-5']));
    // Each job asked the Claude API once (its first request), and stayed on Bedrock after: the plan
    // reviewer follows the intake in the route job, the retrospector the critic in the critic job.
    expect(new Set(primary.map((q) => q.role))).toEqual(new Set(['intake', 'worker', 'critic']));
    expect(new Set(fallback.map((q) => q.role))).toEqual(new Set(['intake', 'plan_reviewer', 'worker', 'critic', 'retrospector']));
    // The plan comment says so, naming both providers, the limit and the jobs that went on with Bedrock.
    const plan = crewComments(r).find((c) => c.body.includes('**Model failover:**'));
    const jobs = FAILOVER_LINE.exec(plan?.body ?? '')?.[1] ?? '';
    expect(jobs).toContain('the route job');
    expect(jobs).toContain('the worker of t1');
    expect(jobs).toContain('the critic job');
    expect(report).toMatch(FAILOVER_LINE);
    // Neither provider's credentials reached the worker's command.
    expect(toolOutput).toContain('crew-tool');
    expect(toolOutput).not.toMatch(/sk-ant-scenario|AWS_|ASIA[A-Z0-9]{16}/);
  });

  it('a hit limit is never success: when Bedrock is throttled too, the run stops with a comment naming both, no PR, and the job fails', async () => {
    let fallback: RecordedRequest[] = [];
    const r = await play('provider-failover', {
      edit: (s) => {
        s.name = 'provider-failover-both-limited';
        s.faults.fallback = [{ kind: '429', times: 1000 }];
      },
      hooks: { beforeClose: async ({ fallback: bedrock }) => void (fallback = [...bedrock!.requests]) },
    });
    expect(r.pulls).toEqual([]);
    expect(new Set(fallback.map((q) => q.outcome))).toEqual(new Set([429]));
    const failure = crewComments(r).find((c) => /\*\*crew stopped\*\*/.test(c.body));
    expect(failure?.body).toContain(
      'the Anthropic API was overloaded (529 overloaded_error) past its retries, and the fallback Amazon Bedrock (us-east-1) failed too: Amazon Bedrock (us-east-1) kept failing after',
    );
    expect(failure?.body).toContain('429 Too many requests, please wait before trying again.');
    expect(failure?.body).toContain('Once the Anthropic API or its fallback Amazon Bedrock (us-east-1) answers again');
    expect(r.jobs.find((j) => j.job === 'route')?.result).toBe('failure');
  });

  it('`fallback_provider` in crew.yml with no AWS setup in the workflow: the run stops before any model call, saying what to add', async () => {
    let calls = 0;
    const r = await play('provider-failover', {
      edit: (s) => {
        s.name = 'provider-failover-unset-up';
        // The key in the file, but the plain workflow: no configure-aws-credentials step.
        delete s.fallback_provider;
        s.config = 'fallback_provider: bedrock\n';
      },
      hooks: { beforeClose: async ({ anthropic }) => void (calls = anthropic.requests.length) },
    });
    expect(calls).toBe(0);
    const failure = crewComments(r).find((c) => /\*\*crew stopped\*\*/.test(c.body));
    expect(failure?.body).toMatch(/`fallback_provider` is bedrock, but provider `bedrock` needs an AWS region/);
    expect(failure?.body).toMatch(/aws-actions\/configure-aws-credentials/);
  });
});
