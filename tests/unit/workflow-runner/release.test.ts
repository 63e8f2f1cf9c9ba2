import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../../support/git-cli';
import { startWorld, writeAction, type World } from './helpers';

/**
 * crew's release workflow, played on the offline runner against the fake GitHub's refs and
 * releases routes. The repository is a small stand-in for crew's: the real workflow, release
 * script and dist check, with a package that builds dist/ by copying src/ (no dependencies,
 * so `npm ci` needs no network). actions/setup-node is the one step stubbed: the runner already
 * has Node.
 */
const ROOT = join(__dirname, '..', '..', '..');
const real = (p: string) => readFileSync(join(ROOT, p), 'utf8');

const changelog = (versions: string[]) =>
  [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    ...versions.flatMap((v) => [`## [${v}] - 2026-11-25`, '', '### Added', `- what ${v} brings.`, '']),
    `[${versions[0]}]: https://example.com`,
    '',
  ].join('\n');

const pkg = (version: string) =>
  `${JSON.stringify({ name: 'crew', version, private: true, scripts: { build: 'node build.mjs', 'check-dist': 'bash scripts/check-dist.sh' } }, null, 2)}\n`;
const lock = (version: string) =>
  `${JSON.stringify({ name: 'crew', version, lockfileVersion: 3, requires: true, packages: { '': { name: 'crew', version } } }, null, 2)}\n`;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('the release workflow (.github/workflows/release.yml), on the offline runner', () => {
  it('a vX.Y.Z tag releases with the CHANGELOG section and moves the major tag; a tag that does not match package.json, or a stale dist/, releases nothing', async () => {
    // Filled in once the fake GitHub can issue tokens; the runner reads secrets when a job starts.
    const secrets: Record<string, string> = {};
    world = await startWorld({
      files: {
        '.github/workflows/release.yml': real('.github/workflows/release.yml'),
        'scripts/release.mjs': real('scripts/release.mjs'),
        'scripts/check-dist.sh': real('scripts/check-dist.sh'),
        'build.mjs': "import { cpSync } from 'node:fs';\ncpSync('src', 'dist', { recursive: true });\n",
        'src/index.js': 'export const v = 1;\n',
        'dist/index.js': 'export const v = 1;\n',
        'package.json': pkg('1.2.3'),
        'package-lock.json': lock('1.2.3'),
        'CHANGELOG.md': changelog(['1.2.3']),
      },
      actions: async (dir) => ({ 'setup-node': await writeAction(dir, 'setup-node', '// Node is on the runner already.\n', { 'node-version': undefined }) }),
      secrets,
    });
    const { gh } = world;
    gh.addUser('maintainer', { permission: 'write' });
    const clone = join(world.dir, 'clone');
    const auth = ['-c', `http.extraheader=AUTHORIZATION: basic ${Buffer.from(`x-access-token:${gh.userToken('maintainer')}`).toString('base64')}`];
    const me = ['-c', 'user.name=maintainer', '-c', 'user.email=maintainer@example.com'];
    await git([...auth, 'clone', '-q', gh.cloneUrl, clone]);
    const commit = async (files: Record<string, string>, message: string) => {
      for (const [p, text] of Object.entries(files)) await import('node:fs/promises').then((fs) => fs.writeFile(join(clone, p), text));
      await git(['add', '-A'], { cwd: clone });
      await git([...me, 'commit', '-q', '-m', message], { cwd: clone });
      await git([...auth, 'push', '-q', 'origin', 'HEAD:main'], { cwd: clone });
    };
    const tag = async (name: string, settle: { denials?: boolean } = {}) => {
      await git([...me, 'tag', name], { cwd: clone });
      await git([...auth, 'push', '-q', 'origin', `refs/tags/${name}`], { cwd: clone });
      await world!.settle(settle);
      return (await git(['rev-parse', 'HEAD'], { cwd: clone })).trim();
    };
    const lastJob = () => world!.runner.runs.at(-1)!.jobs.at(-1)!;

    const first = await tag('v1.2.3');
    expect(lastJob().result).toBe('success');
    expect([...gh.releases.values()]).toMatchObject([
      { tag_name: 'v1.2.3', name: 'v1.2.3', body: '### Added\n- what 1.2.3 brings.', author: 'github-actions[bot]', draft: false },
    ]);
    expect(await gh.repo.resolve('refs/tags/v1')).toBe(first);

    // 1.3.0 also changes a workflow. The job's own token may not move v1 past that commit, so
    // nothing is released and the log says what to do; with RELEASE_TOKEN set, the rerun releases.
    await commit(
      {
        'src/index.js': 'export const v = 2;\n',
        'dist/index.js': 'export const v = 2;\n',
        'package.json': pkg('1.3.0'),
        'package-lock.json': lock('1.3.0'),
        'CHANGELOG.md': changelog(['1.3.0', '1.2.3']),
        '.github/workflows/lint.yml': 'name: lint\non: workflow_dispatch\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo lint\n',
      },
      'Release 1.3.0',
    );
    await tag('v1.3.0', { denials: true });
    expect(lastJob().result).toBe('failure');
    expect(lastJob().log.join('\n')).toContain(
      'GitHub did not move v1 to v1.3.0 (403): refusing to allow a GitHub App to create or update workflow `.github/workflows/lint.yml` without `workflows` permission',
    );
    expect(lastJob().log.join('\n')).toContain('add a repository secret RELEASE_TOKEN');
    expect([...gh.releases.values()]).toHaveLength(1);
    expect(await gh.repo.resolve('refs/tags/v1')).toBe(first);
    secrets.RELEASE_TOKEN = gh.userToken('maintainer');
    await git([...auth, 'push', '-q', 'origin', ':refs/tags/v1.3.0'], { cwd: clone });
    await git(['tag', '-d', 'v1.3.0'], { cwd: clone });
    const second = await tag('v1.3.0');
    expect(lastJob().result).toBe('success');
    expect([...gh.releases.values()].map((r) => [r.tag_name, r.body, r.author])).toEqual([
      ['v1.2.3', '### Added\n- what 1.2.3 brings.', 'github-actions[bot]'],
      ['v1.3.0', '### Added\n- what 1.3.0 brings.', 'maintainer'],
    ]);
    expect(await gh.repo.resolve('refs/tags/v1')).toBe(second);

    // The tag is not the package's version: no release, and the log says what to change.
    await tag('v1.3.1');
    expect(lastJob().result).toBe('failure');
    expect(lastJob().log.join('\n')).toContain("the tag v1.3.1 does not match package.json's version 1.3.0");
    expect([...gh.releases.values()]).toHaveLength(2);

    // src/ changed but dist/ was not rebuilt: the dist check stops the release.
    await commit(
      {
        'src/index.js': 'export const v = 3;\n',
        'package.json': pkg('1.4.0'),
        'package-lock.json': lock('1.4.0'),
        'CHANGELOG.md': changelog(['1.4.0', '1.3.0', '1.2.3']),
      },
      'Release 1.4.0, dist forgotten',
    );
    await tag('v1.4.0');
    expect(lastJob().result).toBe('failure');
    expect(lastJob().log.join('\n')).toContain('dist/ does not match a fresh build of src/');
    expect([...gh.releases.values()]).toHaveLength(2);
    expect(await gh.repo.resolve('refs/tags/v1')).toBe(second);
    // Branch pushes start no release run: the workflow filters tags only.
    expect(world.runner.runs.map((r) => r.event)).toEqual(['push', 'push', 'push', 'push', 'push']);
  });
});
