import type Anthropic from '@anthropic-ai/sdk';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Provider } from '../../domain/providers';

/** What the model adapter needs of a client: Anthropic's Messages streaming, whichever platform serves it. */
export interface MessagesClient {
  messages: { stream: Anthropic['messages']['stream'] };
}

export interface ProviderClient {
  provider: Provider;
  /**
   * The SDK's client, made on the first request: a job loads the SDK of a platform only when it calls
   * it (docs/PERFORMANCE.md, "Cold start"). The setup is checked when the ProviderClient is made.
   */
  client: () => Promise<MessagesClient>;
  /**
   * Body fields the platform requires and the SDK does not set to the platform's value. The SDKs
   * copy the Claude API's `anthropic-version` header (2026-10-21) into the body when it has none;
   * Bedrock's InvokeModel wants `bedrock-2023-05-31` and Vertex AI's rawPredict `vertex-2023-10-16`
   * ("Anthropic Claude Messages API", Amazon Bedrock user guide; "Use Claude models", Vertex AI docs).
   */
  body: Record<string, unknown>;
  /** For messages: "Amazon Bedrock (us-east-1)". */
  label: string;
}

/** Where the provider's settings come from: `.github/crew.yml` and the process environment. */
export interface ProviderSettings {
  apiKey?: string;
  bedrock?: { region?: string | undefined };
  vertex?: { region?: string | undefined; project_id?: string | undefined };
}

/** A provider that cannot be called as set up: `missing` names what is absent, `fix` what to do. */
export class ProviderSetupError extends Error {
  constructor(
    readonly missing: string,
    readonly fix: string,
  ) {
    super(`${missing} ${fix}`);
  }
}

type Env = Record<string, string | undefined>;
const set = (env: Env, name: string) => (env[name] ?? '') !== '';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const AWS_HELP =
  "Add `aws-actions/configure-aws-credentials` with `role-to-assume` and `aws-region` as a step before crew's, and `id-token: write` in that job's permissions, as the README's \"Amazon Bedrock\" section shows; then comment `/crew resume`.";
const GOOGLE_HELP =
  "Add `google-github-actions/auth` with `workload_identity_provider` (and `project_id`) as a step after the checkout and before crew's, and `id-token: write` in that job's permissions, as the README's \"Google Cloud Vertex AI\" section shows; then comment `/crew resume`.";

/** The AWS region and whether any AWS credential source is present; throws naming what is missing. */
export function bedrockSetup(settings: ProviderSettings, env: Env): { region: string } {
  const region = settings.bedrock?.region || env.AWS_REGION || env.AWS_DEFAULT_REGION;
  if (!region)
    throw new ProviderSetupError(
      'provider `bedrock` needs an AWS region, and none is set: not `bedrock.region` in .github/crew.yml, nor AWS_REGION or AWS_DEFAULT_REGION in the job.',
      AWS_HELP,
    );
  if (set(env, 'AWS_ACCESS_KEY_ID') !== set(env, 'AWS_SECRET_ACCESS_KEY'))
    throw new ProviderSetupError(
      `provider \`bedrock\`: ${set(env, 'AWS_ACCESS_KEY_ID') ? 'AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not' : 'AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not'}; the two go together.`,
      AWS_HELP,
    );
  const home = env.HOME || homedir();
  const sources = [
    set(env, 'AWS_BEARER_TOKEN_BEDROCK'),
    set(env, 'AWS_ACCESS_KEY_ID') && set(env, 'AWS_SECRET_ACCESS_KEY'),
    set(env, 'AWS_WEB_IDENTITY_TOKEN_FILE') && set(env, 'AWS_ROLE_ARN'),
    set(env, 'AWS_PROFILE'),
    set(env, 'AWS_CONTAINER_CREDENTIALS_FULL_URI') || set(env, 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'),
    existsSync(env.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials')),
    existsSync(env.AWS_CONFIG_FILE || join(home, '.aws', 'config')),
  ];
  if (!sources.some(Boolean))
    throw new ProviderSetupError(
      'provider `bedrock` found no AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set, and neither is a web identity token file with a role (AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN), a profile, a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) or ~/.aws/credentials.',
      AWS_HELP,
    );
  return { region };
}

/** The Vertex AI location, the project and the credentials file; throws naming what is missing. */
export function vertexSetup(settings: ProviderSettings, env: Env): { region: string; projectId: string } {
  const projectId =
    settings.vertex?.project_id ||
    env.ANTHROPIC_VERTEX_PROJECT_ID ||
    env.GOOGLE_CLOUD_PROJECT ||
    env.CLOUDSDK_CORE_PROJECT ||
    env.GCLOUD_PROJECT ||
    env.GCP_PROJECT;
  if (!projectId)
    throw new ProviderSetupError(
      'provider `vertex` needs a Google Cloud project, and none is set: not `vertex.project_id` in .github/crew.yml, nor ANTHROPIC_VERTEX_PROJECT_ID or GOOGLE_CLOUD_PROJECT in the job (google-github-actions/auth exports it when given `project_id`).',
      GOOGLE_HELP,
    );
  const file = env.GOOGLE_APPLICATION_CREDENTIALS || join(env.HOME || homedir(), '.config', 'gcloud', 'application_default_credentials.json');
  if (!env.GOOGLE_APPLICATION_CREDENTIALS && !existsSync(file))
    throw new ProviderSetupError(
      'provider `vertex` found no Google credentials: GOOGLE_APPLICATION_CREDENTIALS is not set and there is no gcloud application-default credentials file.',
      GOOGLE_HELP,
    );
  let kind: unknown;
  try {
    kind = (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type;
  } catch (e) {
    throw new ProviderSetupError(
      `provider \`vertex\`: the Google credentials file GOOGLE_APPLICATION_CREDENTIALS names cannot be read as JSON (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0]}).`,
      GOOGLE_HELP,
    );
  }
  if (typeof kind !== 'string')
    throw new ProviderSetupError(
      'provider `vertex`: the Google credentials file has no `type`; it is not a credentials file google-auth-library reads.',
      GOOGLE_HELP,
    );
  return { region: settings.vertex?.region || env.CLOUD_ML_REGION || 'global', projectId };
}

/**
 * The SDK client for a provider: Anthropic's own SDK, or Anthropic's official Bedrock and Vertex
 * SDKs (no request signing of crew's own). Their retries are off: crew retries itself, on its time
 * scale. Credentials come from the environment the official auth actions leave behind, and the
 * SDKs read them there; only the region and project are passed.
 */
export function providerClient(provider: Provider, settings: ProviderSettings, env: Env = process.env): ProviderClient {
  const common = { maxRetries: 0, timeout: 10 * 60 * 1000 };
  // Where the client sends its requests is read now, as the SDKs read it when a client is made: the client itself is made on the first request.
  const baseURL = (name: string) => (set(env, name) ? { baseURL: env[name] } : {});
  if (provider === 'bedrock') {
    const { region } = bedrockSetup(settings, env);
    const at = baseURL('ANTHROPIC_BEDROCK_BASE_URL');
    return {
      provider,
      client: once(async () => new (await import('@anthropic-ai/bedrock-sdk')).AnthropicBedrock({ ...common, ...at, awsRegion: region })),
      body: { anthropic_version: BEDROCK_ANTHROPIC_VERSION },
      label: `Amazon Bedrock (${region})`,
    };
  }
  if (provider === 'vertex') {
    const { region, projectId } = vertexSetup(settings, env);
    const at = baseURL('ANTHROPIC_VERTEX_BASE_URL');
    return {
      provider,
      client: once(async () => {
        const client = new (await import('@anthropic-ai/vertex-sdk')).AnthropicVertex({
          ...common,
          ...at,
          region,
          projectId,
        });
        // The SDK asks google-auth-library for its client at once and awaits the answer only on a request. A
        // failure in between (a fallback provider never used, its credentials gone) would be an unhandled
        // rejection, which ends the process; the request that needs the client still fails, saying why.
        (client as unknown as { _authClientPromise?: Promise<unknown> })._authClientPromise?.catch(() => undefined);
        return client;
      }),
      body: { anthropic_version: VERTEX_ANTHROPIC_VERSION },
      label: `Vertex AI (${projectId}, ${region})`,
    };
  }
  const at = baseURL('ANTHROPIC_BASE_URL');
  return {
    provider,
    client: once(async () => new (await import('@anthropic-ai/sdk')).default({ ...common, ...at, apiKey: settings.apiKey ?? null })),
    body: {},
    label: 'the Anthropic API',
  };
}

/** `make`, called once, on the first call. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
