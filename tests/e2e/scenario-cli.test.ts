import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/scenario/run-scenario';

const run = (args: string[]) =>
  promisify(execFile)('npm', ['run', '--silent', 'scenario', '--', ...args], { cwd: PROJECT_ROOT }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

/** The fields docs/scenarios.md promises in result.json: the first column of its table. */
async function documentedFields(): Promise<string[]> {
  const doc = await readFile(join(PROJECT_ROOT, 'docs', 'scenarios.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## `result.json`'), doc.indexOf('\n## ', doc.indexOf('## `result.json`') + 1));
  return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((m) => m[1]!);
}

describe('`npm run scenario -- <file> --out DIR`, as a process', () => {
  let out: string;
  beforeAll(async () => void (out = await mkdtemp(join(tmpdir(), 'crew-scenario-cli-'))));
  afterAll(() => rm(out, { recursive: true, force: true }));

  it('plays the file and writes result.json with every documented field, the job logs and the repository', async () => {
    const { code, stdout } = await run(['tests/scenarios/unknown-command.yaml', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toContain("scenario 'unknown-command' finished in");
    expect(stdout).toContain(`result: ${out}/result.json`);
    const result = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as Record<string, unknown>;
    const fields = await documentedFields();
    expect(fields.length).toBeGreaterThan(10);
    for (const field of fields) {
      const value = field
        .replace(/\[\]$/, '')
        .split('.')
        .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], result);
      expect(value, field).toBeDefined();
      if (field.endsWith('[]')) expect(Array.isArray(value), field).toBe(true);
    }
    // …and nothing undocumented at the top level.
    expect(Object.keys(result).sort()).toEqual([...new Set(fields.map((f) => f.replace(/\[\]$/, '').split('.')[0]!))].sort());
    expect(result).toMatchObject({ scenario: 'unknown-command', issue: { number: 1 }, model: { requests: 0 } });
    expect((await readdir(join(out, 'logs'))).some((f) => f.endsWith('-issue_comment-crew_route.log'))).toBe(true);
    expect(await readdir(join(out, 'repo.git'))).toContain('HEAD');
  });

  it('an invalid scenario file: the wrong field named, exit code 2', async () => {
    const bad = join(out, 'bad.yaml');
    await writeFile(bad, 'name: bad\nissue: { title: T, author: someone }\ntimeline: []\n');
    const { code, stderr } = await run([bad]);
    expect(code).toBe(2);
    expect(stderr).toContain('timeline: Too small');
  });
});
