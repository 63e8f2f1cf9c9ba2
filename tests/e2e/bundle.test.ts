import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRecorder } from '../../scripts/bench/platform';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play } from './helpers';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const isChunk = (f: string) => /^\d+\.index\.js$/.test(f);

/** A copy of dist/ (and the prompt templates it reads at start-up) under `root`, each chunk replaced by one that says it was loaded (and exports what a chunk exports). */
function markedBundle(root: string): string[] {
  cpSync(join(PROJECT_ROOT, 'dist'), join(root, 'dist'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'templates'), join(root, 'templates'), { recursive: true });
  const chunks = readdirSync(join(root, 'dist')).filter(isChunk);
  for (const f of chunks) {
    const id = Number(f.split('.')[0]);
    writeFileSync(
      join(root, 'dist', f),
      `import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.CREW_CHUNK_MARKER, '${f}\\n');\nexport const id = ${id};\nexport const ids = [${id}];\nexport const modules = {};\n`,
    );
  }
  return chunks;
}

/** Starts the copy with no inputs: crew stops at reading its settings, right after start-up, before loading any step. */
function startCopy(root: string, env: Record<string, string>): string[] {
  const marker = join(root, 'loaded.txt');
  const r = spawnSync(process.execPath, [join(root, 'dist', 'index.js')], {
    env: { PATH: process.env.PATH, CREW_CHUNK_MARKER: marker, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status).toBe(1);
  expect(r.stdout).toContain('Input `step` must be one of');
  return existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean).sort() : [];
}

/**
 * Libraries only some jobs use, by the path ncc names each module with. A route job that refuses a
 * reader needs none of them; each sits in a chunk of its own, loaded on first use. The last six
 * come with @actions/artifact (and undici with a runner's proxy, adapters/github/proxy.ts): crew's
 * own workflow commands and Octokit over Node's fetch replace them at start-up (#53), and crew's client
 * is @octokit/core calling routes by name, without @octokit/rest's table of every endpoint and its request log.
 */
const LATE = [
  '@modelcontextprotocol/sdk',
  '@actions/artifact',
  '@anthropic-ai/bedrock-sdk',
  '@anthropic-ai/vertex-sdk',
  '@anthropic-ai/sdk',
  'proxy-chain',
  'fast-xml-parser',
  '@actions/core',
  '@actions/github',
  '@actions/http-client',
  'undici',
  '@octokit/plugin-rest-endpoint-methods',
  '@octokit/plugin-request-log',
];
const named = (text: string) => LATE.filter((lib) => text.includes(`/node_modules/${lib}/`));

describe('the bundle crew runs (dist/)', () => {
  it.each([
    ['inside the workspace (`uses: ./`, where a model’s branch replaces them later)', (root: string) => ({ GITHUB_WORKSPACE: root })],
    ['with no workspace to compare with', () => ({})],
  ])('imports every chunk ncc split off when it starts, before anything else, when the bundle sits %s', (_, env) => {
    dir = mkdtempSync(join(tmpdir(), 'crew-bundle-'));
    const chunks = markedBundle(dir);
    expect(chunks.length).toBeGreaterThan(10);
    expect(startCopy(dir, env(dir))).toEqual([...chunks].sort());
  });

  it('imports no chunk at start-up when the bundle sits outside the workspace (the runner’s _actions folder): each is loaded when first used', () => {
    dir = mkdtempSync(join(tmpdir(), 'crew-bundle-'));
    markedBundle(join(dir, 'action'));
    mkdirSync(join(dir, 'workspace'));
    expect(startCopy(join(dir, 'action'), { GITHUB_WORKSPACE: join(dir, 'workspace') })).toEqual([]);
  });

  it('a route job that refuses a reader loads its step and nothing of MCP, artifacts, the model SDKs, the egress proxy, the report parsers, @actions/core, @actions/github, undici or the REST endpoint table', async () => {
    dir = mkdtempSync(join(tmpdir(), 'crew-bundle-'));
    const recorder = await loadRecorder(dir);
    const r = await play('read-only-user', { env: recorder.env });
    expectFaithful(r);
    expect(crewComments(r)[0]!.body).toContain('@passerby, crew only takes commands from people with write access');

    // The action's files (the runner's copy of this checkout), as the route job loaded them.
    const files = (await recorder.files()).filter((f) => /\/dist\/(\d+\.)?index\.js$/.test(f));
    expect(files.map((f) => f.split('/').pop())).toContain('index.js');
    const chunks = files.filter((f) => isChunk(f.split('/').pop()!));
    expect(chunks.length).toBeGreaterThan(0);
    expect(named(files.map((f) => readFileSync(f, 'utf8')).join('\n'))).toEqual([]);
    // Each of them is in the bundle, so the check above can fail.
    const all = readdirSync(join(PROJECT_ROOT, 'dist')).filter((f) => f.endsWith('.js'));
    expect(named(all.map((f) => readFileSync(join(PROJECT_ROOT, 'dist', f), 'utf8')).join('\n'))).toEqual(LATE);
  }, 120_000);
});
