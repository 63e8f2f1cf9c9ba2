import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AwsCredentials } from '../anthropic/platforms';

/**
 * What `aws-actions/configure-aws-credentials` leaves in a job after `role-to-assume` with OIDC
 * (its README, "Outputs" and "OIDC"): a temporary session's keys exported as AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, and the region as AWS_REGION and AWS_DEFAULT_REGION.
 * No file is written.
 */
export function awsSession(region: string): { credentials: AwsCredentials; env: Record<string, string> } {
  const credentials: AwsCredentials = {
    accessKeyId: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64').replace(/[+/=]/g, 'x'),
    sessionToken: `IQoJb3JpZ2luX2Vj${randomBytes(48).toString('base64').replace(/[+/=]/g, 'y')}`,
  };
  return {
    credentials,
    env: {
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_SESSION_TOKEN: credentials.sessionToken!,
      AWS_REGION: region,
      AWS_DEFAULT_REGION: region,
    },
  };
}

/**
 * What `google-github-actions/auth` leaves in a job with `workload_identity_provider` (direct
 * Workload Identity Federation, no service account) and `project_id`: `gha-creds-<16 hex>.json` in
 * GITHUB_WORKSPACE, an `external_account` file whose credential source is the job's OIDC token
 * endpoint (with the request token as a bearer header), and the variables pointing at it and
 * naming the project (its README, "Inputs: create_credentials_file, export_environment_variables").
 * `tokenBase` is the fake serving `/oidc/token` and `/sts/v1/token`.
 */
export function googleWifCredentials(opts: { workspace: string; tokenBase: string; requestToken: string; audience: string; project: string }): {
  file: string;
  env: Record<string, string>;
} {
  const file = join(opts.workspace, `gha-creds-${randomBytes(8).toString('hex')}.json`);
  const oidcUrl = `${opts.tokenBase}/oidc/token?api-version=2.0&audience=${encodeURIComponent(`https://iam.googleapis.com/${opts.audience.replace(/^\/\//, '')}`)}`;
  writeFileSync(
    file,
    JSON.stringify({
      type: 'external_account',
      audience: opts.audience,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${opts.tokenBase}/sts/v1/token`,
      credential_source: {
        url: oidcUrl,
        headers: { Authorization: `Bearer ${opts.requestToken}` },
        format: { type: 'json', subject_token_field_name: 'value' },
      },
    }),
    { mode: 0o600 },
  );
  return {
    file,
    env: {
      GOOGLE_APPLICATION_CREDENTIALS: file,
      CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE: file,
      GOOGLE_GHA_CREDS_PATH: file,
      CLOUDSDK_CORE_PROJECT: opts.project,
      CLOUDSDK_PROJECT: opts.project,
      GCLOUD_PROJECT: opts.project,
      GCP_PROJECT: opts.project,
      GOOGLE_CLOUD_PROJECT: opts.project,
    },
  };
}

export const WIF_AUDIENCE = '//iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/github/providers/crew';
