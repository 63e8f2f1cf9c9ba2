import { describe, expect, it } from 'vitest';
import { git } from '../support/git-cli';
import { CLOUD } from '../support/scenario/run-scenario';
import type { RecordedRequest } from '../support/anthropic/index';
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
  const r = await play(name, {
    hooks: {
      beforeClose: async ({ gh, anthropic, runner }) => {
        requests = [...anthropic.requests];
        exchanges = [...(anthropic.google?.exchanges ?? [])];
        toolOutput = JSON.stringify(anthropic.requests.filter((q) => q.role === 'worker')[1]?.body.messages.at(-1));
        for (const run of runner.runs) for (const job of run.jobs) logs.push(...job.rawLog);
        for (const { ref } of await gh.repo.listRefs('refs/heads/')) {
          pushed.push(`${ref}:`, ...(await gh.repo.listFiles(ref)));
          pushed.push(await git(['log', '--format=%B', ref], { cwd: gh.repoDir }));
        }
      },
    },
  });
  return { r, requests, pushed: pushed.join('\n'), logs: logs.join('\n'), toolOutput, exchanges };
}

const SECRET_VARS = /^(AWS_|GOOGLE_|CLOUDSDK_|GCLOUD_|GCP_|ACTIONS_ID_TOKEN)/m;

describe('provider: bedrock', () => {
  it('runs the issue to a PR through the fake Bedrock runtime: SigV4 for us-east-1, Bedrock model ids from the tier mapping, no AWS secret in any tool', async () => {
    const { r, requests, pushed, toolOutput } = await playProvider('provider-bedrock');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    expect(requests.length).toBeGreaterThan(3);
    for (const q of requests) {
      expect(q.auth).toBe('sigv4');
      expect(q.outcome).toBe(200);
      expect(q.platform?.kind).toBe('bedrock');
      expect(q.platform?.principal).toMatch(/^ASIA/);
      expect(q.platform?.path).toMatch(/^\/model\/us\.anthropic\.claude-(haiku|sonnet)-5-5\/invoke-with-response-stream$/);
    }
    // intake, review and critic on the default tier (sonnet); the worker on the tier intake chose (haiku).
    expect(new Set(requests.filter((q) => q.role === 'worker').map((q) => q.body.model))).toEqual(new Set(['us.anthropic.claude-haiku-5-5']));
    expect(new Set(requests.filter((q) => q.role === 'intake').map((q) => q.body.model))).toEqual(new Set(['us.anthropic.claude-sonnet-5-5']));
    // The worker's command saw its allow-listed environment only.
    expect(toolOutput).toContain('crew-tool');
    expect(toolOutput).not.toMatch(/AWS_|ASIA[A-Z0-9]{16}/);
    expect(pushed).not.toMatch(/ASIA[A-Z0-9]{16}|AWS_SECRET/);
  });
});

describe('provider: vertex', () => {
  it('runs the issue to a PR through the fake Vertex AI: the WIF file moved out of the workspace, bearer from STS, the project’s route, Vertex ids', async () => {
    const { r, requests, pushed, logs, toolOutput, exchanges } = await playProvider('provider-vertex');
    expectFaithful(r);
    expect(r.pulls).toHaveLength(1);
    expect(exchanges.length).toBeGreaterThan(0);
    expect(exchanges.every((e) => (e as { ok: boolean }).ok)).toBe(true);
    for (const q of requests) {
      expect([q.auth, q.outcome, q.platform?.kind]).toEqual(['bearer', 200, 'vertex']);
      expect(q.platform?.principal).toMatch(/^ya29\.fake-/);
      expect(q.platform?.path).toMatch(
        new RegExp(
          `^/v1/projects/${CLOUD.vertexProject}/locations/${CLOUD.vertexRegion}/publishers/anthropic/models/claude-(haiku|sonnet)-5-5:streamRawPredict$`,
        ),
      );
    }
    expect(new Set(requests.filter((q) => q.role === 'worker').map((q) => q.body.model))).toEqual(new Set(['claude-haiku-5-5']));
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
    const failure = crewComments(r).find((c) => /crew stopped/.test(c.body));
    expect(failure?.body).toMatch(/provider `vertex` needs a Google Cloud project/);
    expect(failure?.body).toMatch(/google-github-actions\/auth.*workload_identity_provider/);
  });
});
