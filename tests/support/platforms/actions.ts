import { parseDocument, YAMLMap, YAMLSeq } from 'yaml';
import type { StandIn } from '../runner/workflow-runner';
import type { AwsCredentials } from '../anthropic/platforms';
import { googleWifCredentials } from './credentials';

export type CloudProvider = 'bedrock' | 'vertex';

/** The jobs of crew's workflow that call the model, and so get `id-token: write` and the auth step; `merge` calls none. */
export const MODEL_JOBS = ['route', 'work', 'advance', 'critic'] as const;

/** The auth step each provider's workflow adds after the checkout (the README shows the same). */
export const AUTH_STEPS: Record<CloudProvider, Record<string, unknown>> = {
  bedrock: {
    uses: 'aws-actions/configure-aws-credentials@v4',
    with: { 'role-to-assume': '${{ vars.CREW_AWS_ROLE_ARN }}', 'aws-region': '${{ vars.CREW_AWS_REGION }}' },
  },
  vertex: {
    uses: 'google-github-actions/auth@v2',
    with: { workload_identity_provider: '${{ vars.CREW_GCP_WIF_PROVIDER }}', project_id: '${{ vars.CREW_GCP_PROJECT }}' },
  },
};

/**
 * crew's workflow for a cloud provider, as the README says to change it: in each job that calls the
 * model, `id-token: write`, the auth step after the checkout (after any other provider's auth step),
 * and `provider:` on crew's step, or `fallback_provider:` for the README's failover.
 */
export function withProvider(workflow: string, provider: CloudProvider, input: 'provider' | 'fallback_provider' = 'provider'): string {
  const doc = parseDocument(workflow);
  const authUses = new Set(Object.values(AUTH_STEPS).map((s) => s.uses));
  for (const job of MODEL_JOBS) {
    (doc.getIn(['jobs', job, 'permissions']) as YAMLMap).set('id-token', 'write');
    const steps = doc.getIn(['jobs', job, 'steps']) as YAMLSeq;
    const crew = steps.items.find((s) => ((s as YAMLMap).get('with') as YAMLMap | undefined)?.has('step')) as YAMLMap;
    (crew.get('with') as YAMLMap).set(input, provider);
    let at = 1;
    while (authUses.has(String((steps.items[at] as YAMLMap | undefined)?.get('uses')))) at++;
    steps.items.splice(at, 0, doc.createNode(AUTH_STEPS[provider]));
  }
  return doc.toString({ lineWidth: 0 });
}

/** The README's failover: `fallback_provider:` on crew's steps (the Claude API's key is in the workflow already). */
export function withFallbackInput(workflow: string, provider: 'anthropic'): string {
  const doc = parseDocument(workflow);
  for (const job of MODEL_JOBS) {
    const steps = doc.getIn(['jobs', job, 'steps']) as YAMLSeq;
    const crew = steps.items.find((s) => ((s as YAMLMap).get('with') as YAMLMap | undefined)?.has('step')) as YAMLMap;
    (crew.get('with') as YAMLMap).set('fallback_provider', provider);
  }
  return doc.toString({ lineWidth: 0 });
}

const needsIdToken = (action: string, env: NodeJS.ProcessEnv) => {
  if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN)
    throw new Error(
      `${action}: the job has no ACTIONS_ID_TOKEN_REQUEST_URL; give it \`permissions: id-token: write\` (the action fails the same way on GitHub)`,
    );
};

/**
 * aws-actions/configure-aws-credentials with `role-to-assume`: with the job's OIDC token it assumes
 * the role (AssumeRoleWithWebIdentity) and exports the temporary session and the region (its README,
 * "OIDC"); here the session is the one the fake Bedrock accepts.
 */
export function configureAwsCredentials(session: AwsCredentials): StandIn {
  return async ({ with: w, env, exportVariable }) => {
    const role = String(w['role-to-assume'] ?? '');
    const region = String(w['aws-region'] ?? '');
    if (!region) throw new Error('configure-aws-credentials: Input required and not supplied: aws-region');
    if (!role) throw new Error('configure-aws-credentials: role-to-assume is required for OIDC');
    // The real action fetches the job's OIDC token here and calls AWS STS with it; the fakes model no AWS STS,
    // so the stand-in checks only that the job may fetch one, and hands out the session the fake Bedrock knows.
    needsIdToken('configure-aws-credentials', env);
    await exportVariable('AWS_ACCESS_KEY_ID', session.accessKeyId);
    await exportVariable('AWS_SECRET_ACCESS_KEY', session.secretAccessKey);
    await exportVariable('AWS_SESSION_TOKEN', session.sessionToken ?? '');
    await exportVariable('AWS_REGION', region);
    await exportVariable('AWS_DEFAULT_REGION', region);
  };
}

/**
 * google-github-actions/auth with `workload_identity_provider`: writes `gha-creds-*.json` into the
 * workspace (the credential source is the job's own OIDC endpoint and request token) and exports
 * the variables naming it and the project.
 */
export function googleAuth(tokenBase: string): StandIn {
  return async ({ with: w, env, workspace, exportVariable }) => {
    const audience = String(w.workload_identity_provider ?? '');
    const project = String(w.project_id ?? '');
    if (!audience) throw new Error('auth: one of workload_identity_provider or credentials_json is required');
    needsIdToken('google-github-actions/auth', env);
    const creds = googleWifCredentials({
      workspace,
      tokenBase,
      requestToken: env.ACTIONS_ID_TOKEN_REQUEST_TOKEN!,
      audience: `//iam.googleapis.com/${audience}`,
      project,
    });
    for (const [k, v] of Object.entries(creds.env)) if (project || !/PROJECT/.test(k)) await exportVariable(k, v);
  };
}
