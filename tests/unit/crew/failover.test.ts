import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FailoverModel } from '../../../src/adapters/anthropic/failover';
import { AnthropicModel } from '../../../src/adapters/anthropic/model';
import { providerClient } from '../../../src/adapters/anthropic/providers';
import { parseConfig } from '../../../src/config/schema';
import { fallbackModelFor } from '../../../src/domain/providers';
import { ModelError, type Clock, type Log, type ModelFailover } from '../../../src/ports';
import { startFakeAnthropic, ThinkingLedger, type FakeAnthropic, type Fault } from '../../support/anthropic/index';
import { awsSession, googleWifCredentials, WIF_AUDIENCE } from '../../support/platforms/credentials';
import { ONE_TURN_WORKER, workerRequest } from './one-turn-worker';

/**
 * `fallback_provider` through the real SDKs against the fakes: each provider's own way of saying
 * "overloaded" or "rate-limited" past crew's retries moves the job to the fallback, with the
 * fallback's own model id for the tier; anything else does not; both failing is a failure.
 */

const warnings: string[] = [];
const log: Log = { info: () => undefined, warn: (m) => warnings.push(m), checkpoint: () => undefined };
const waits: number[] = [];
const clock: Clock = { now: () => new Date('2026-11-25T12:03:00Z'), sleep: async (ms) => void waits.push(ms) };

const script = ONE_TURN_WORKER;
const request = workerRequest;

const fakes: FakeAnthropic[] = [];
const dirs: string[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const f of fakes.splice(0)) await f.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  warnings.length = 0;
  waits.length = 0;
});

/** A clean environment: nothing of this machine's own cloud setup leaks in. */
function cleanEnv() {
  for (const k of Object.keys(process.env))
    if (/^(AWS_|GOOGLE_|CLOUDSDK_|GCLOUD_|GCP_|CLOUD_ML_|ANTHROPIC_)/.test(k)) vi.stubEnv(k, undefined as unknown as string);
  const home = mkdtempSync(join(tmpdir(), 'crew-home-'));
  dirs.push(home);
  vi.stubEnv('HOME', home);
}

type Kind = 'anthropic' | 'bedrock' | 'vertex';
const config = parseConfig('');
/** A provider's fake, its environment set as the auth actions leave it, and crew's Model over it (retry waits capped at 3 s). */
async function provider(kind: Kind, faults: Fault[] = [], thinking?: ThinkingLedger) {
  let fake: FakeAnthropic;
  if (kind === 'anthropic') {
    fake = await startFakeAnthropic({ script, faults, ...(thinking ? { thinking } : {}) });
    vi.stubEnv('ANTHROPIC_BASE_URL', fake.url);
  } else if (kind === 'bedrock') {
    const session = awsSession('us-east-1');
    fake = await startFakeAnthropic({
      script,
      faults,
      platform: { kind, region: 'us-east-1', credentials: [session.credentials] },
      ...(thinking ? { thinking } : {}),
    });
    for (const [k, v] of Object.entries(session.env)) vi.stubEnv(k, v);
    vi.stubEnv('ANTHROPIC_BEDROCK_BASE_URL', fake.url);
  } else {
    const requestToken = `ghs_oidcrequest${'x'.repeat(30)}`;
    fake = await startFakeAnthropic({
      script,
      faults,
      platform: { kind, project: 'acme-crew', region: 'us-east5', oidcRequestToken: requestToken, audience: WIF_AUDIENCE },
      ...(thinking ? { thinking } : {}),
    });
    const workspace = mkdtempSync(join(tmpdir(), 'crew-ws-'));
    dirs.push(workspace);
    const creds = googleWifCredentials({ workspace, tokenBase: fake.url, requestToken, audience: WIF_AUDIENCE, project: 'acme-crew' });
    for (const [k, v] of Object.entries(creds.env)) vi.stubEnv(k, v);
    vi.stubEnv('ANTHROPIC_VERTEX_BASE_URL', `${fake.url}/v1`);
    vi.stubEnv('CLOUD_ML_REGION', 'us-east5');
  }
  fakes.push(fake);
  const model = new AnthropicModel(kind === 'anthropic' ? 'sk-ant-test-key-1234' : providerClient(kind, config), clock, log, { retryWaitMs: 3000 });
  return { fake, model };
}

/** primary → fallback, with each side's default ids (parseConfig's tier mapping for each provider). */
async function failover(from: Kind, to: Kind, faults: { primary?: Fault[]; fallback?: Fault[] } = {}, thinking?: ThinkingLedger) {
  cleanEnv();
  const primary = await provider(from, faults.primary, thinking);
  const fallback = await provider(to, faults.fallback, thinking);
  const c = parseConfig(`provider: ${from}\nfallback_provider: ${to}\n`);
  const seen: ModelFailover[] = [];
  const model = new FailoverModel(primary.model, fallback.model, fallbackModelFor(c.models, c.fallback!.models), clock, log, (f) => seen.push(f));
  return { primary: primary.fake, fallback: fallback.fake, model, seen, models: c.models, fallbackModels: c.fallback!.models };
}

const always = (kind: Fault['kind']): Fault[] => [{ kind, times: 100 }];

describe('fallback_provider: a limit past the retries moves the job to the fallback', () => {
  it('the Claude API overloaded (529) → Amazon Bedrock: the same request goes on there with Bedrock’s id for the tier, and so does the rest of the job', async () => {
    const f = await failover('anthropic', 'bedrock', { primary: always('529') });
    const first = await f.model.complete(request(f.models.sonnet));
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    // 1 s and 2 s fill the 3 s budget: three attempts on the primary, then the fallback.
    expect(waits).toEqual([1000, 2000]);
    expect(f.primary.requests.map((q) => q.outcome)).toEqual([529, 529, 529]);
    expect(f.fallback.requests).toHaveLength(1);
    expect(f.fallback.requests[0]!.platform?.path).toBe('/model/us.anthropic.claude-sonnet-5-5/invoke-with-response-stream');
    expect(f.seen).toEqual([
      { at: '2026-11-25T12:03:00.000Z', from: 'the Anthropic API', to: 'Amazon Bedrock (us-east-1)', reason: 'overloaded (529 overloaded_error)' },
    ]);
    expect(warnings.at(-1)).toMatch(
      /the Anthropic API was overloaded \(529 overloaded_error\) past its retries; crew goes on with Amazon Bedrock \(us-east-1\)/,
    );

    // The conversation goes on, unchanged, on the fallback; the primary is not asked again in this job.
    const toolUse = first.content.find((b) => b.type === 'tool_use') as { id: string };
    const second = await f.model.complete(
      request(f.models.haiku, {
        messages: [
          ...request('').messages,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '# README' }] },
        ],
      }),
    );
    expect(second.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(f.primary.requests).toHaveLength(3);
    expect(f.fallback.requests.map((q) => [q.outcome, q.body.model])).toEqual([
      [200, 'us.anthropic.claude-sonnet-5-5'],
      [200, 'us.anthropic.claude-haiku-5-5'],
    ]);
    expect(f.seen).toHaveLength(1);
  });

  it('Amazon Bedrock throttled (429 ThrottlingException, no retry-after) → Vertex AI', async () => {
    const f = await failover('bedrock', 'vertex', { primary: always('429') });
    await f.model.complete(request(f.models.opus));
    expect(f.primary.requests.map((q) => q.outcome)).toEqual([429, 429, 429]);
    expect(f.seen[0]).toMatchObject({
      from: 'Amazon Bedrock (us-east-1)',
      to: 'Vertex AI (acme-crew, us-east5)',
      reason: 'rate-limited (429 ThrottlingException)',
    });
    expect(f.fallback.requests[0]!.platform?.path).toMatch(/\/models\/claude-opus-5-5:streamRawPredict$/);
  });

  it('Amazon Bedrock’s overload is a 503 ServiceUnavailableException, and inside a stream a serviceUnavailableException event', async () => {
    let f = await failover('bedrock', 'anthropic', { primary: always('529') });
    await f.model.complete(request(f.models.sonnet));
    expect(f.primary.requests.map((q) => q.outcome)).toEqual([503, 503, 503]);
    expect(f.seen[0]!.reason).toBe('overloaded (503 ServiceUnavailableException)');
    expect(f.fallback.requests.map((q) => q.body.model)).toEqual(['claude-sonnet-5-5']);
    for (const x of fakes.splice(0)) await x.close();

    f = await failover('bedrock', 'anthropic', { primary: always('midstream') });
    await f.model.complete(request(f.models.sonnet));
    expect(f.primary.requests.map((q) => q.outcome)).toEqual(['midstream', 'midstream', 'midstream']);
    expect(f.seen[0]!.reason).toBe('overloaded (serviceUnavailableException in the stream)');
  });

  it('Vertex AI’s own quota (429 RESOURCE_EXHAUSTED, Google’s error shape) → the Claude API', async () => {
    const f = await failover('vertex', 'anthropic', { primary: always('429') });
    await f.model.complete(request(f.models.haiku));
    expect(f.primary.requests.map((q) => q.outcome)).toEqual([429, 429, 429]);
    expect(f.seen[0]).toMatchObject({ from: 'Vertex AI (acme-crew, us-east5)', to: 'the Anthropic API', reason: 'rate-limited (429 RESOURCE_EXHAUSTED)' });
    expect(f.fallback.requests.map((q) => q.body.model)).toEqual(['claude-haiku-5-5']);
  });

  it('the Claude API’s monthly spend cap is not retried: the fallback takes over at once', async () => {
    const f = await failover('anthropic', 'vertex', { primary: always('spend-limit') });
    await f.model.complete(request(f.models.sonnet));
    expect(waits).toEqual([]);
    expect(f.primary.requests.map((q) => q.outcome)).toEqual([429]);
    expect(f.seen[0]!.reason).toBe("out of spend (429 enforced_spend_limit_reached: the organisation's monthly spend limit)");
  });

  it('a conversation begun on the primary goes on on the fallback mid-tool-loop, its thinking blocks sent back unchanged', async () => {
    // One ledger: a thinking block's signature is Anthropic's on every platform (see the fake's `thinking` option).
    const f = await failover('anthropic', 'bedrock', {}, new ThinkingLedger());
    const first = await f.model.complete(request(f.models.sonnet));
    expect(f.primary.requests.map((q) => q.outcome)).toEqual([200]);
    f.primary.addFaults(always('529'));
    const toolUse = first.content.find((b) => b.type === 'tool_use') as { id: string };
    const messages = [
      ...request('').messages,
      { role: 'assistant' as const, content: first.content },
      { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: toolUse.id, content: '# README' }] },
    ];
    const second = await f.model.complete(request(f.models.sonnet, { messages }));
    expect(second.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(f.fallback.requests.map((q) => q.outcome)).toEqual([200]);
    expect(JSON.stringify(f.fallback.requests[0]!.body.messages)).toContain('Read it first.');
  });
});

describe('fallback_provider: what it does not do', () => {
  it('a hit limit is never success: when the fallback fails too, the error names both, and both as the service to wait for', async () => {
    const f = await failover('anthropic', 'bedrock', { primary: always('529'), fallback: always('429') });
    const err = (await f.model.complete(request(f.models.sonnet)).catch((e: unknown) => e)) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.message).toMatch(
      /^the Anthropic API was overloaded \(529 overloaded_error\) past its retries, and the fallback Amazon Bedrock \(us-east-1\) failed too: Amazon Bedrock \(us-east-1\) kept failing after 3 attempts \(last error: 429 Too many requests, please wait before trying again\.\)/,
    );
    expect(err.service).toBe('the Anthropic API or its fallback Amazon Bedrock (us-east-1)');
    expect(err.limit).toBe('rate-limited (429 ThrottlingException)');
    expect(f.fallback.requests.map((q) => q.outcome)).toEqual([429, 429, 429]);
  });

  it('errors that are not limits stay with the primary: a 500 past its retries, a refused request', async () => {
    let f = await failover('anthropic', 'bedrock', { primary: always('500') });
    await expect(f.model.complete(request(f.models.sonnet))).rejects.toThrow(/the Anthropic API kept failing after 3 attempts \(last error: 500/);
    expect(f.fallback.requests).toEqual([]);
    expect(f.seen).toEqual([]);
    for (const x of fakes.splice(0)) await x.close();

    f = await failover('anthropic', 'vertex');
    await expect(f.model.complete(request('claude-sonnet-0-0'))).rejects.toThrow(/the Anthropic API refused the request: 404/);
    expect(f.fallback.requests).toEqual([]);
  });

  it('a model id in no tier cannot be mapped: the job fails saying so, and the fallback is not called with a wrong id', async () => {
    cleanEnv();
    const primary = await provider('anthropic', always('529'));
    const fallback = await provider('vertex');
    const model = new FailoverModel(primary.model, fallback.model, fallbackModelFor(config.models, config.models), clock, log, () => undefined);
    await expect(model.complete(request('claude-opus-5'))).rejects.toThrow(/the model id `claude-opus-5` is none of the tiers in `models:`/);
    expect(fallback.fake.requests).toEqual([]);
  });
});
