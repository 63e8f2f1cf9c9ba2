import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, isAbsolute } from 'node:path';

/**
 * Cloud credentials the official auth actions leave in a job, kept out of the agents' reach.
 *
 * - `aws-actions/configure-aws-credentials` exports AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
 *   AWS_SESSION_TOKEN (with `role-to-assume` and OIDC, a temporary session) and AWS_REGION; it writes
 *   no file. AWS_WEB_IDENTITY_TOKEN_FILE, AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE name files
 *   other setups use.
 * - `google-github-actions/auth` (create_credentials_file, on by default) writes
 *   `gha-creds-<random>.json` into GITHUB_WORKSPACE (docs: "the credentials file is written to
 *   $GITHUB_WORKSPACE"; its README asks to keep `gha-creds-*.json` out of version control) and points
 *   GOOGLE_APPLICATION_CREDENTIALS, CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE and GOOGLE_GHA_CREDS_PATH at
 *   it. With Workload Identity Federation the file holds the job's ACTIONS_ID_TOKEN_REQUEST_TOKEN, which
 *   mints OIDC tokens for this job: whoever reads it can sign in as the workflow.
 *
 * The environment is never handed to a tool (toolEnv is an allow-list), but the workspace is: the
 * sandbox's user may read and write it, and crew commits what is there. So at start-up, before any
 * model-written tree is checked out, crew moves every credentials file found in the workspace to a
 * folder only crew's own user can read, points the variables at the new place (in crew's process;
 * the SDKs read them there), and registers the secret values inside for redaction.
 */
export const CREDENTIAL_FILE_VARIABLES = [
  'GOOGLE_APPLICATION_CREDENTIALS',
  'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
  'GOOGLE_GHA_CREDS_PATH',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
] as const;

/** Variables whose values are secrets wherever crew prints them (the AWS access key id matches a pattern already). */
export const SECRET_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
] as const;

/** google-github-actions/auth's file name. */
const GHA_CREDS = /^gha-creds-[A-Za-z0-9]+\.json$/;

/** Keys of a credentials file whose string values are secrets. */
const SECRET_KEYS =
  /^(private_key|private_key_id|client_secret|refresh_token|access_token|token|authorization|x-goog-api-key|aws_secret_access_key|aws_session_token)$/i;

function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The secret strings of a credentials file: values under secret-looking keys, and bearer tokens. */
export function secretsInCredentials(text: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string') {
      if (SECRET_KEYS.test(key)) out.push(v);
      const bearer = /^Bearer\s+(\S+)$/i.exec(v)?.[1];
      if (bearer) out.push(bearer);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  try {
    walk(JSON.parse(text), '');
  } catch {
    // An INI file (~/.aws/credentials style): `key = value` lines.
    for (const m of text.matchAll(/^\s*(aws_secret_access_key|aws_session_token)\s*=\s*(\S+)/gim)) out.push(m[2]!);
    // A bare token file (a web identity token): the whole content.
    if (!/\n\s*\S/.test(text.trim()) && text.trim().length >= 20) out.push(text.trim());
  }
  return out;
}

export interface SecuredCredentials {
  /** Files moved out of the workspace: where they were (workspace-relative) and where they are now. */
  moved: Array<{ from: string; to: string }>;
  /** Secret values to redact. */
  secrets: string[];
}

/**
 * Moves credentials files out of `workspace` into `privateDir` (mode 0700, crew's user only) and
 * updates `env`. A file already outside the workspace stays where it is. Links are never followed
 * out: a link in the workspace is removed, not read.
 */
export function secureCloudCredentials(env: Record<string, string | undefined>, workspace: string, privateDir: string): SecuredCredentials {
  const result: SecuredCredentials = { moved: [], secrets: [] };
  for (const name of SECRET_VARIABLES) if (env[name]) result.secrets.push(env[name]!);
  let root: string;
  try {
    root = realpathSync(workspace);
  } catch {
    return result;
  }
  const candidates = new Set<string>();
  for (const name of CREDENTIAL_FILE_VARIABLES) {
    const v = env[name];
    if (v) candidates.add(resolve(workspace, v));
  }
  try {
    for (const e of readdirSync(root)) if (GHA_CREDS.test(e)) candidates.add(join(root, e));
  } catch {
    // an unreadable workspace has nothing crew could move
  }
  const movedTo = new Map<string, string>();
  for (const path of candidates) {
    let real: string;
    try {
      real = lstatSync(path).isSymbolicLink() ? path : realpathSync(path);
    } catch {
      continue;
    }
    if (!inside(root, real) && !inside(workspace, path)) {
      // Outside the workspace: left where it is; its secrets are still redacted.
      try {
        result.secrets.push(...secretsInCredentials(readFileSync(real, 'utf8')));
      } catch {
        // unreadable: nothing to redact
      }
      continue;
    }
    if (lstatSync(path).isSymbolicLink()) {
      rmSync(path, { force: true });
      continue;
    }
    const text = readFileSync(real, 'utf8');
    result.secrets.push(...secretsInCredentials(text));
    mkdirSync(privateDir, { recursive: true, mode: 0o700 });
    chmodSync(privateDir, 0o700);
    const to = join(privateDir, basename(real));
    writeFileSync(to, text, { mode: 0o600 });
    rmSync(real, { force: true });
    movedTo.set(path, to);
    movedTo.set(real, to);
    result.moved.push({ from: relative(root, real), to });
  }
  for (const name of CREDENTIAL_FILE_VARIABLES) {
    const v = env[name];
    const to = v ? movedTo.get(resolve(workspace, v)) : undefined;
    if (to) env[name] = to;
  }
  return result;
}
