import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnthropicModel } from '../../../src/adapters/anthropic/model';
import { bedrockSetup, providerClient, ProviderSetupError, vertexSetup } from '../../../src/adapters/anthropic/providers';
import { parseConfig } from '../../../src/config/schema';
import type { Clock, Log } from '../../../src/ports';
import { startFakeAnthropic, type FakeAnthropic } from '../../support/anthropic/index';
import { decodeEventStream, eventStreamMessage, platformBody } from '../../support/anthropic/platforms';
import { awsSession, googleWifCredentials, WIF_AUDIENCE } from '../../support/platforms/credentials';
import { AUTH_STEPS, MODEL_JOBS, withProvider } from '../../support/platforms/actions';
import { PROJECT_ROOT, readUserWorkflow } from '../../support/scenario/run-scenario';
import { parse as parseYaml } from 'yaml';
import { ONE_TURN_WORKER, workerRequest } from './one-turn-worker';

const log: Log = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const clock: Clock = { now: () => new Date(), sleep: async () => undefined };
const script = ONE_TURN_WORKER;
const request = workerRequest;

let fake: FakeAnthropic | undefined;
const dirs: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  fake = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A clean environment for the SDKs: nothing of this machine's own cloud setup leaks in. */
function stubEnv(env: Record<string, string>) {
  for (const k of Object.keys(process.env))
    if (/^(AWS_|GOOGLE_|CLOUDSDK_|GCLOUD_|GCP_|CLOUD_ML_|ANTHROPIC_)/.test(k)) vi.stubEnv(k, undefined as unknown as string);
  const home = mkdtempSync(join(tmpdir(), 'crew-home-'));
  dirs.push(home);
  vi.stubEnv('HOME', home);
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
}

describe('provider: bedrock, through @anthropic-ai/bedrock-sdk against the fake Bedrock runtime', () => {
  async function start(region = 'us-east-1') {
    const session = awsSession(region);
    fake = await startFakeAnthropic({ script, platform: { kind: 'bedrock', region, credentials: [session.credentials] } });
    stubEnv({ ...session.env, ANTHROPIC_BEDROCK_BASE_URL: fake.url });
    return session;
  }

  it('signs with SigV4, names the model in the path, sends bedrock-2023-05-31, and decodes the event stream', async () => {
    const session = await start();
    const config = parseConfig('provider: bedrock\n');
    expect(config.models).toEqual({ haiku: 'us.anthropic.claude-haiku-5-5', sonnet: 'us.anthropic.claude-sonnet-5-5', opus: 'us.anthropic.claude-opus-5-5' });
    const model = new AnthropicModel(providerClient('bedrock', config), clock, log);
    const first = await model.complete(request(config.models.sonnet));
    expect(first.stopReason).toBe('tool_use');
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(first.usage.costUsd).toBeGreaterThan(0);
    const [r] = fake!.requests;
    expect(r).toMatchObject({
      outcome: 200,
      auth: 'sigv4',
      stream: true,
      platform: { kind: 'bedrock', path: '/model/us.anthropic.claude-sonnet-5-5/invoke-with-response-stream', principal: session.credentials.accessKeyId },
    });
  });

  it('refuses what Bedrock refuses: a bad signature, another region, the SDK’s own anthropic_version, a model in the body', async () => {
    const session = await start('eu-west-1');
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${fake!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    let res = await post('/model/us.anthropic.claude-sonnet-5-5/invoke', { anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: [] });
    expect([res.status, res.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([403, 'MissingAuthenticationTokenException']);
    const amzDate = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
    res = await post(
      '/model/us.anthropic.claude-sonnet-5-5/invoke',
      {},
      {
        authorization: `AWS4-HMAC-SHA256 Credential=${session.credentials.accessKeyId}/${amzDate.slice(0, 8)}/eu-west-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=${'0'.repeat(64)}`,
        'x-amz-date': amzDate,
        'x-amz-security-token': session.credentials.sessionToken!,
      },
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/signature we calculated does not match/);

    // The SDK signed for another region than the endpoint's.
    vi.stubEnv('AWS_REGION', 'us-west-2');
    const wrongRegion = new AnthropicModel(providerClient('bedrock', parseConfig('provider: bedrock\n')), clock, log);
    await expect(wrongRegion.complete(request('us.anthropic.claude-sonnet-5-5'))).rejects.toThrow(
      /Amazon Bedrock \(us-west-2\) refused the request: 403 .*scoped to a valid region/,
    );
    vi.stubEnv('AWS_REGION', 'eu-west-1');

    // Without crew's body field the SDK copies its header version (2026-10-21) into the body.
    const sdkDefault = providerClient('bedrock', parseConfig('provider: bedrock\n'));
    const bare = new AnthropicModel({ ...sdkDefault, body: {} }, clock, log);
    await expect(bare.complete(request('us.anthropic.claude-sonnet-5-5'))).rejects.toThrow(/400 .*anthropic_version: Input should be 'bedrock-2023-05-31'/);
    // An unknown model id is Bedrock's ValidationException.
    const model = new AnthropicModel(sdkDefault, clock, log);
    await expect(model.complete(request('claude-sonnet-5-5'))).rejects.toThrow(/400 .*provided model identifier is invalid/);
    expect(fake!.requests.map((q) => q.outcome)).toEqual([403, 403, 403, 400, 400]);
    // The SDKs move the model to the path; a body that still names it is refused, as Bedrock does.
    const bedrock = { kind: 'bedrock' as const, region: 'eu-west-1', credentials: [] };
    const route = { model: 'us.anthropic.claude-sonnet-5-5', stream: false };
    expect(() => platformBody(bedrock, { model: 'x', anthropic_version: 'bedrock-2023-05-31' }, route)).toThrow(/extraneous key \[model\] is not permitted/);
    expect(() => platformBody(bedrock, { stream: true, anthropic_version: 'bedrock-2023-05-31' }, route)).toThrow(/extraneous key \[stream\]/);
    expect(() => platformBody(bedrock, { max_tokens: 1 }, route)).toThrow(/required key \[anthropic_version\] not found/);
  });

  it('retries a throttled request and an exception inside the stream, as it does a 429 or a 529', async () => {
    await start();
    fake!.addFaults([
      { kind: '429', role: 'worker' },
      { kind: 'midstream', role: 'worker' },
    ] as never);
    const model = new AnthropicModel(providerClient('bedrock', parseConfig('provider: bedrock\n')), clock, log);
    const reply = await model.complete(request('us.anthropic.claude-sonnet-5-5'));
    expect(reply.stopReason).toBe('tool_use');
    expect(fake!.requests.map((q) => q.outcome)).toEqual([429, 'midstream', 200]);
  });

  it('names what is missing: the region, or any credentials', () => {
    stubEnv({});
    expect(() => bedrockSetup({}, process.env)).toThrow(/needs an AWS region.*bedrock\.region.*AWS_REGION/);
    expect(() => bedrockSetup({}, { AWS_REGION: 'us-east-1', HOME: process.env.HOME })).toThrow(ProviderSetupError);
    expect(() => bedrockSetup({}, { AWS_REGION: 'us-east-1', HOME: process.env.HOME })).toThrow(
      /no AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set.*configure-aws-credentials/,
    );
    expect(() => bedrockSetup({}, { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'ASIAXXXXXXXXXXXXXXXX' })).toThrow(/AWS_SECRET_ACCESS_KEY is not/);
    expect(bedrockSetup({ bedrock: { region: 'eu-central-1' } }, { AWS_BEARER_TOKEN_BEDROCK: 'x' })).toEqual({ region: 'eu-central-1' });
  });
});

describe('provider: vertex, through @anthropic-ai/vertex-sdk against the fake Vertex AI', () => {
  async function start() {
    const requestToken = `ghs_oidcrequest${'x'.repeat(30)}`;
    fake = await startFakeAnthropic({
      script,
      platform: { kind: 'vertex', project: 'acme-crew', region: 'us-east5', oidcRequestToken: requestToken, audience: WIF_AUDIENCE },
    });
    const workspace = mkdtempSync(join(tmpdir(), 'crew-ws-'));
    dirs.push(workspace);
    const creds = googleWifCredentials({ workspace, tokenBase: fake.url, requestToken, audience: WIF_AUDIENCE, project: 'acme-crew' });
    stubEnv({ ...creds.env, ANTHROPIC_VERTEX_BASE_URL: `${fake.url}/v1`, CLOUD_ML_REGION: 'us-east5' });
    return creds;
  }

  it('signs in through the credentials file (OIDC token → STS), posts to :streamRawPredict with vertex-2023-10-16', async () => {
    await start();
    const config = parseConfig('provider: vertex\n');
    expect(config.models.opus).toBe('claude-opus-5-5');
    const model = new AnthropicModel(providerClient('vertex', config), clock, log);
    const first = await model.complete(request(config.models.opus));
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(fake!.google!.exchanges).toEqual([
      { endpoint: 'oidc', ok: true },
      { endpoint: 'sts', ok: true },
    ]);
    expect(fake!.requests[0]).toMatchObject({
      outcome: 200,
      auth: 'bearer',
      stream: true,
      platform: { kind: 'vertex', path: '/v1/projects/acme-crew/locations/us-east5/publishers/anthropic/models/claude-opus-5-5:streamRawPredict' },
    });
    expect(fake!.requests[0]!.platform!.principal).toMatch(/^ya29\.fake-/);
  });

  it('refuses a missing or foreign token, another project, and the SDK’s own anthropic_version', async () => {
    await start();
    const path = '/v1/projects/acme-crew/locations/us-east5/publishers/anthropic/models/claude-opus-5-5:rawPredict';
    let res = await fetch(`${fake!.url}${path}`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer ya29.someone-else' } });
    expect([res.status, ((await res.json()) as { error: { status: string } }).error.status]).toEqual([401, 'UNAUTHENTICATED']);
    const other = new AnthropicModel(providerClient('vertex', parseConfig('provider: vertex\nvertex:\n  project_id: other-project\n')), clock, log);
    await expect(other.complete(request('claude-opus-5-5'))).rejects.toThrow(/403 .*Permission denied on resource project other-project/);
    const bare = new AnthropicModel({ ...providerClient('vertex', parseConfig('provider: vertex\n')), body: {} }, clock, log);
    await expect(bare.complete(request('claude-opus-5-5'))).rejects.toThrow(/anthropic_version: Input should be 'vertex-2023-10-16'/);
  });

  it('credentials gone after the client is made (a fallback never used): no unhandled rejection; a request fails saying why', async () => {
    const creds = await start();
    const unhandled: unknown[] = [];
    const note = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', note);
    try {
      const model = new AnthropicModel(providerClient('vertex', parseConfig('provider: vertex\n')), clock, log);
      rmSync(creds.env.GOOGLE_APPLICATION_CREDENTIALS!);
      await new Promise((r) => setTimeout(r, 200));
      expect(unhandled).toEqual([]);
      await expect(model.complete(request('claude-opus-5-5'))).rejects.toThrow(/ENOENT|credential/i);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  it('names what is missing: the project, or credentials', () => {
    stubEnv({});
    expect(() => vertexSetup({}, process.env)).toThrow(/needs a Google Cloud project.*vertex\.project_id.*GOOGLE_CLOUD_PROJECT/);
    expect(() => vertexSetup({ vertex: { project_id: 'acme-crew' } }, process.env)).toThrow(
      /no Google credentials: GOOGLE_APPLICATION_CREDENTIALS is not set.*google-github-actions\/auth/,
    );
    expect(() => vertexSetup({ vertex: { project_id: 'acme-crew' } }, { GOOGLE_APPLICATION_CREDENTIALS: '/nonexistent/gha-creds-1.json' })).toThrow(
      /cannot be read as JSON \(ENOENT\)/,
    );
  });
});

describe("the fake's event-stream encoding", () => {
  it('round-trips, and a flipped byte fails the CRC', () => {
    const frame = eventStreamMessage({ ':event-type': 'chunk', ':message-type': 'event' }, Buffer.from('{"bytes":"e30="}'));
    expect(decodeEventStream(frame)).toEqual([{ headers: { ':event-type': 'chunk', ':message-type': 'event' }, payload: Buffer.from('{"bytes":"e30="}') }]);
    const bad = Buffer.from(frame);
    bad[bad.length - 6]! ^= 1;
    expect(() => decodeEventStream(bad)).toThrow(/message CRC mismatch/);
  });
});

describe('the provider workflows of docs/providers.md', () => {
  it('add the auth step and id-token: write to the jobs that call the model, and to no other; docs/providers.md shows the same steps', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'docs', 'providers.md'), 'utf8');
    for (const provider of ['bedrock', 'vertex'] as const) {
      const wf = parseYaml(withProvider(readUserWorkflow(), provider)) as {
        jobs: Record<string, { permissions: Record<string, string>; steps: Array<{ uses?: string; with?: Record<string, string> }> }>;
      };
      for (const [id, job] of Object.entries(wf.jobs)) {
        const calls = (MODEL_JOBS as readonly string[]).includes(id);
        expect(job.permissions['id-token'], id).toBe(calls ? 'write' : undefined);
        if (!calls) continue;
        expect(job.steps[0]!.uses).toMatch(/^actions\/checkout@/);
        expect(job.steps[1]).toEqual(AUTH_STEPS[provider]);
        expect(job.steps.at(-1)!.with!.provider).toBe(provider);
      }
      const step = AUTH_STEPS[provider] as { uses: string; with: Record<string, string> };
      expect(readme).toContain(`- uses: ${step.uses}`);
      for (const [k, v] of Object.entries(step.with)) expect(readme).toContain(`${k}: ${v}`);
      expect(readme).toContain(`provider: ${provider}`);
    }
  });

  it('for the failover, add the fallback’s auth step after the provider’s and `fallback_provider:`; docs/providers.md shows it', () => {
    const wf = parseYaml(withProvider(withProvider(readUserWorkflow(), 'vertex'), 'bedrock', 'fallback_provider')) as {
      jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, string> }> }>;
    };
    for (const id of MODEL_JOBS) {
      const steps = wf.jobs[id]!.steps;
      expect(steps.slice(1, 3)).toEqual([AUTH_STEPS.vertex, AUTH_STEPS.bedrock]);
      expect(steps.at(-1)!.with).toMatchObject({ provider: 'vertex', fallback_provider: 'bedrock' });
    }
    const readme = readFileSync(join(PROJECT_ROOT, 'docs', 'providers.md'), 'utf8');
    expect(readme).toContain('fallback_provider: bedrock');
    expect(readme).toMatch(/### Failover to a second provider/);
  });
});
