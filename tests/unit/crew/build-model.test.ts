import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildModel, type ModelSetupProblem } from '../../../src/adapters/anthropic/build-model';
import { FailoverModel } from '../../../src/adapters/anthropic/failover';
import { AnthropicModel } from '../../../src/adapters/anthropic/model';
import { localModel } from '../../../src/cli/compose';
import { DEFAULT_MODELS } from '../../../src/domain/providers';
import { UsageError } from '../../../src/local/workspace';
import type { ModelFailover } from '../../../src/ports';

/** The one model factory both entries use (src/main.ts for the Action, src/cli/compose.ts for the crew command). */
const quiet = { info: () => undefined, warn: () => undefined, checkpoint: () => undefined };
const anthropicOnly = { provider: 'anthropic' as const, models: DEFAULT_MODELS.anthropic, fallback: null };
const problems: ModelSetupProblem[] = [];
const setup = (key: string | undefined) => ({ anthropicKey: key, log: quiet, problem: (p: ModelSetupProblem) => (problems.push(p), new Error(p.kind)) });

const AWS = ['AWS_REGION', 'AWS_DEFAULT_REGION', 'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL'];
const saved: Record<string, string | undefined> = {};
beforeEach(() => {
  problems.length = 0;
  for (const k of AWS) ((saved[k] = process.env[k]), delete process.env[k]);
});
afterEach(() => {
  for (const k of AWS)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

describe('buildModel', () => {
  it('builds the Claude API model with a key, and says which role lacks one', () => {
    expect(buildModel(anthropicOnly, setup('sk-ant-x'), [])).toBeInstanceOf(AnthropicModel);
    expect(() => buildModel(anthropicOnly, setup(undefined), [])).toThrow('no-key');
    expect(problems).toEqual([{ kind: 'no-key', provider: 'anthropic', role: 'provider' }]);
  });

  it("fails over to fallback_provider, and names the fallback's missing setup as the fallback's", () => {
    const failovers: ModelFailover[] = [];
    const twoKeys = { ...anthropicOnly, fallback: { provider: 'anthropic' as const, models: DEFAULT_MODELS.anthropic } };
    expect(buildModel(twoKeys, setup('sk-ant-x'), failovers)).toBeInstanceOf(FailoverModel);
    const withBedrock = { ...anthropicOnly, fallback: { provider: 'bedrock' as const, models: DEFAULT_MODELS.bedrock } };
    expect(() => buildModel(withBedrock, setup('sk-ant-x'), [])).toThrow('provider-setup');
    expect(problems[0]).toMatchObject({ kind: 'provider-setup', provider: 'bedrock', role: 'fallback_provider' });
  });
});

describe("the crew command's model", () => {
  it('says at the terminal what to set when there is no key, and lets a gateway go without one', () => {
    const config = { ...anthropicOnly } as Parameters<typeof localModel>[1];
    expect(() => localModel(undefined, config, () => undefined, [])).toThrow(UsageError);
    expect(() => localModel(undefined, config, () => undefined, [])).toThrow(/no model to talk to\. Set ANTHROPIC_API_KEY/);
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:1';
    expect(localModel(undefined, config, () => undefined, [])).toBeInstanceOf(AnthropicModel);
  });

  it("bounds a request's retries by api_retry_wait_seconds, as the Action does", async () => {
    // A gateway nobody answers: with no wait allowed, the first refused connection is the last attempt.
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:1';
    const config = { ...anthropicOnly, api_retry_wait_seconds: 0 } as Parameters<typeof localModel>[1];
    const model = (await localModel(undefined, config, () => undefined, [])) as AnthropicModel;
    const request = {
      model: 'claude-sonnet-4-5',
      maxTokens: 16,
      system: 's',
      tools: [],
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
    };
    await expect(model.complete(request)).rejects.toThrow(/kept failing after 1 attempts .*`api_retry_wait_seconds` \(0 s\)/);
  }, 20_000);

  it("words a fallback's missing setup for the shell", () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-x';
    const config = { ...anthropicOnly, fallback: { provider: 'bedrock', models: DEFAULT_MODELS.bedrock } } as Parameters<typeof localModel>[1];
    expect(() => localModel(undefined, config, () => undefined, [])).toThrow(/^fallback_provider is bedrock, but .*Set them in your shell/s);
  });
});
