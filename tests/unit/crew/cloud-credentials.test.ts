import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretsInCredentials, secureCloudCredentials } from '../../../src/sandbox/cloud-credentials';
import { addSecret, redact } from '../../../src/text/redact';
import { git } from '../../support/git-cli';
import { googleWifCredentials, WIF_AUDIENCE } from '../../support/platforms/credentials';

/**
 * What the official auth actions leave in a job, as canaries: configure-aws-credentials' session
 * (and the other AWS variables crew might meet), google-github-actions/auth's variables and its
 * credentials file in the workspace (which holds the job's OIDC request token).
 */
const REQUEST_TOKEN = 'canary-oidc-request-token-0123456789abcdef';
const CANARIES = {
  AWS_ACCESS_KEY_ID: 'ASIACANARY0123456789',
  AWS_SECRET_ACCESS_KEY: 'canary/aws+secret/0123456789abcdefghijklmnop',
  AWS_SESSION_TOKEN: 'IQoJb3JpZ2luX2VjCANARY-session-token-0123456789',
  AWS_BEARER_TOKEN_BEDROCK: 'ABSKcanary-bedrock-api-key-0123456789',
  AWS_WEB_IDENTITY_TOKEN_FILE: '/var/run/canary-web-identity-token',
  AWS_ROLE_ARN: 'arn:aws:iam::123456789012:role/canary-role',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN,
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://canary.actions.example/idtoken?x=1',
  CLOUDSDK_CORE_ACCOUNT: 'canary-account@acme-crew.iam.gserviceaccount.com',
};

async function probe(mode: 'sandboxed' | 'unsandboxed', workspace: string, temp: string, env: Record<string, string>, command: string): Promise<string> {
  const script = join(__dirname, '..', '..', 'support', 'sandbox', 'probe.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, mode, workspace, temp, command], {
    env: { ...process.env, ...CANARIES, ...env, CREW_PROBE_CLOUD: '1' },
    maxBuffer: 10_000_000,
  });
  return stdout;
}

const PROBE = (temp: string) =>
  [
    'env',
    'echo ---',
    'cat /proc/$PPID/environ; echo; for p in /proc/[0-9]*; do cat $p/environ 2>/dev/null; done; echo',
    'ls -la; cat gha-creds-*.json 2>&1',
    `cat ${temp}/crew-credentials/* 2>&1; ls ${temp}/crew-credentials 2>&1`,
    'git status --porcelain --untracked-files=all',
  ].join('; ');

describe('cloud credentials never reach an agent’s command (canaries)', () => {
  let dir: string;
  const setups: Array<{ workspace: string; temp: string; file: string; fileText: string; env: Record<string, string> }> = [];

  async function setup(name: string) {
    const workspace = join(dir, name, 'ws');
    const temp = join(dir, name, 'temp');
    await mkdir(workspace, { recursive: true });
    await mkdir(temp, { recursive: true });
    await git(['init', '--quiet', workspace]);
    await writeFile(join(workspace, 'README.md'), 'hello\n');
    const creds = googleWifCredentials({
      workspace,
      tokenBase: 'http://127.0.0.1:9',
      requestToken: REQUEST_TOKEN,
      audience: WIF_AUDIENCE,
      project: 'acme-crew',
    });
    const s = { workspace, temp, file: creds.file, fileText: await readFile(creds.file, 'utf8'), env: creds.env };
    setups.push(s);
    return s;
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cloud-creds-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const secretValues = () => [...Object.values(CANARIES).filter((v) => !v.startsWith('/') && !v.startsWith('https:')), 'external_account', WIF_AUDIENCE];

  it('sandboxed: no AWS_*, GOOGLE_*, CLOUDSDK_* value, no credentials file: not in env, /proc, the workspace or crew’s private copy; nothing to commit', async () => {
    const s = await setup('sandboxed');
    const out = await probe('sandboxed', s.workspace, s.temp, s.env, PROBE(s.temp));
    const [seen] = out.split('::moved');
    for (const v of secretValues()) expect(seen, v).not.toContain(v);
    for (const name of [...Object.keys(CANARIES), ...Object.keys(s.env)]) expect(seen, name).not.toContain(`${name}=`);
    expect(seen).toContain('Permission denied'); // crew's private copy exists, and the tool user cannot read it
    expect(seen).not.toMatch(/gha-creds-[0-9a-f]+\.json/);
    // crew's process kept the file, out of the workspace, readable by crew's user only, and the variable follows it.
    const moved = /::moved (\S+) (\S+)/.exec(out)!;
    expect(moved[1]).toMatch(/^gha-creds-[0-9a-f]{16}\.json$/);
    expect(moved[2]).toBe(join(s.temp, 'crew-credentials', moved[1]!));
    expect(out).toContain(`::GOOGLE_APPLICATION_CREDENTIALS ${moved[2]}`);
    expect(await readFile(moved[2]!, 'utf8')).toBe(s.fileText);
    expect((await stat(moved[2]!)).mode & 0o077).toBe(0);
    expect((await stat(join(s.temp, 'crew-credentials'))).mode & 0o077).toBe(0);
    await expect(stat(s.file)).rejects.toThrow(/ENOENT/);
  });

  it('unsandboxed fallback: the allow-listed environment has none of them and the workspace no file (its /proc is the documented gap)', async () => {
    const s = await setup('unsandboxed');
    const out = await probe(
      'unsandboxed',
      s.workspace,
      s.temp,
      s.env,
      'env; echo ---; ls -la; cat gha-creds-*.json 2>&1; git status --porcelain --untracked-files=all',
    );
    const [envPart, rest] = out.split('---') as [string, string];
    for (const v of secretValues()) expect(envPart, v).not.toContain(v);
    expect(envPart).not.toMatch(/^(AWS_|GOOGLE_|CLOUDSDK_|GCLOUD_|GCP_|ACTIONS_)/m);
    expect(rest.split('::moved')[0]).not.toMatch(/gha-creds-[0-9a-f]+\.json|external_account/);
  });

  it('redacts what the file holds and the AWS session, as it does the API key', () => {
    const s = setups[0]!;
    const found = secretsInCredentials(s.fileText);
    expect(found).toContain(REQUEST_TOKEN);
    for (const v of found) addSecret(v);
    for (const v of [CANARIES.AWS_SECRET_ACCESS_KEY, CANARIES.AWS_SESSION_TOKEN, CANARIES.AWS_BEARER_TOKEN_BEDROCK]) addSecret(v);
    const text = `headers: {"Authorization":"Bearer ${REQUEST_TOKEN}"} key ${CANARIES.AWS_ACCESS_KEY_ID} secret ${CANARIES.AWS_SECRET_ACCESS_KEY} token ${CANARIES.AWS_SESSION_TOKEN} ${CANARIES.AWS_BEARER_TOKEN_BEDROCK}`;
    const out = redact(text);
    for (const v of [REQUEST_TOKEN, CANARIES.AWS_ACCESS_KEY_ID, CANARIES.AWS_SECRET_ACCESS_KEY, CANARIES.AWS_SESSION_TOKEN, CANARIES.AWS_BEARER_TOKEN_BEDROCK])
      expect(out).not.toContain(v);
    // The variables crew registers at start-up, from the environment.
    const r = secureCloudCredentials({ ...CANARIES }, join(dir, 'nowhere'), join(dir, 'nowhere-private'));
    expect(r.secrets).toEqual(
      expect.arrayContaining([CANARIES.AWS_SECRET_ACCESS_KEY, CANARIES.AWS_SESSION_TOKEN, CANARIES.AWS_BEARER_TOKEN_BEDROCK, REQUEST_TOKEN]),
    );
  });

  it('a link named like the credentials file is removed, never followed out of the workspace', async () => {
    const ws = join(dir, 'links', 'ws');
    await mkdir(ws, { recursive: true });
    const outside = join(dir, 'links', 'outside.json');
    await writeFile(outside, '{"type":"service_account","private_key":"canary-private-key-0123456789"}');
    await promisify(execFile)('ln', ['-s', outside, join(ws, 'gha-creds-0123456789abcdef.json')]);
    const r = secureCloudCredentials({}, ws, join(dir, 'links', 'private'));
    expect(r.moved).toEqual([]);
    await expect(stat(join(ws, 'gha-creds-0123456789abcdef.json'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(outside, 'utf8')).toContain('canary-private-key');
  });
});
