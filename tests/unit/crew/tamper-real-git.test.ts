import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { gitRepo } from '../../../src/adapters/git/git-repo';
import { DIFF_LIMIT_BYTES, parseUnifiedDiff } from '../../../src/domain/diff';
import { adversarialChecks, verdictOf } from '../../../src/domain/judgment';
import { findTampering, isRunnerConfigFile, setupFilesNamedIn, type TamperContext } from '../../../src/domain/tamper';
import { FIXTURE_IDENTITY, git, tryGit } from '../../support/git-cli';
import { plan } from './run-fixtures';

/**
 * The test-tampering checks read the diff crew's own git produces (GitWorkingCopy.unifiedDiff), in real
 * repositories whose `.gitattributes` and configuration try to hide a change or run a program.
 */
const root = mkdtempSync(join(tmpdir(), 'crew-tamper-git-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TEST_FILE = "import { a } from '../src/a.js';\nit('is one', () => {\n  expect(a).toBe(1);\n  expect(a + 1).toBe(2);\n});\n";

/** A repository with a source file, a test and a package.json, committed as the base. */
async function repoWithBase(
  extra: Record<string, string> = {},
): Promise<{ dir: string; base: string; write: (p: string, t: string) => void; commit: (m: string) => Promise<string> }> {
  const dir = mkdtempSync(join(root, 'repo-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const commit = async (message: string) => {
    await git(['add', '-A'], { cwd: dir });
    await git(['commit', '-qm', message, '--allow-empty'], { cwd: dir, env: FIXTURE_IDENTITY });
    return (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  };
  await git(['init', '-q', '-b', 'main'], { cwd: dir });
  write('src/a.js', 'export const a = 1;\n');
  write('test/a.test.js', TEST_FILE);
  write('package.json', '{\n  "name": "x",\n  "scripts": {\n    "test": "node --test"\n  }\n}\n');
  for (const [p, t] of Object.entries(extra)) write(p, t);
  return { dir, base: await commit('base'), write, commit };
}

/** Programs a person's or runner's git configuration could define, each leaving a marker when run. */
async function configureDrivers(dir: string): Promise<string> {
  const markers = mkdtempSync(join(root, 'markers-'));
  const spy = (name: string, then: string) => `sh -c 'touch ${markers}/${name}; ${then}'`;
  await git(['config', 'diff.evil.textconv', spy('textconv', 'cat "$0"')], { cwd: dir });
  await git(['config', 'diff.evil.command', spy('diff-command', 'exit 0')], { cwd: dir });
  await git(['config', 'diff.evil.binary', 'true'], { cwd: dir });
  await git(['config', 'filter.evil.clean', spy('clean', 'cat')], { cwd: dir });
  await git(['config', 'filter.evil.smudge', spy('smudge', 'cat')], { cwd: dir });
  await git(['config', 'merge.evil.driver', spy('merge', 'exit 0')], { cwd: dir });
  return markers;
}

const ran = (markers: string) => readdirSync(markers).sort();

describe('item 1: the diff the checks read is the bytes as committed, whatever .gitattributes says', () => {
  const hiding = [['*.js -diff'], ['*.js binary'], ['*.js diff=evil'], ['[attr]hide -diff -text', '*.js hide'], ['test/** -diff']];

  it.each(hiding)('%s: a deleted and an emptied test are found, and git itself would have hidden them', async (...lines) => {
    const { dir, base, write, commit } = await repoWithBase({ 'test/b.test.js': "it('b', () => {\n  expect(2).toEqual(2);\n});\n" });
    const markers = await configureDrivers(dir);
    write('.gitattributes', `${lines.join('\n')}\n`);
    unlinkSync(join(dir, 'test/a.test.js'));
    write('test/b.test.js', '');
    const head = await commit('hide and delete');
    // The trap is real: the diff crew ran before (and plain git) shows no line of either test.
    const before = await git(['diff', '--no-color', '--no-ext-diff', '--no-renames', '-U0', base, head], { cwd: dir });
    if (!lines.join().includes('diff=evil')) expect(before).toContain('Binary files a/test/a.test.js and /dev/null differ');
    else expect(ran(markers)).toContain('textconv');
    rmSync(markers, { recursive: true, force: true });
    mkdirSync(markers);

    const repo = gitRepo(dir, dir, 'unused-token').repo;
    const diff = await repo.unifiedDiff(base, head);
    expect(diff.truncated).toBe(false);
    expect(diff.text).not.toContain('Binary files');
    expect(diff.text).toContain('-  expect(a).toBe(1);');
    const found = findTampering(parseUnifiedDiff(diff.text));
    expect(found.map((f) => [f.rule, f.file])).toEqual([
      ['git-attributes-changed', '.gitattributes'],
      ['deleted-test', 'test/a.test.js'],
      ['weakened-assertions', 'test/b.test.js'],
    ]);
    expect(found[0]!.evidence).toContain(`.gitattributes:1 adds git attributes (now: \`${lines[0]}\``);
    expect(await repo.diffStat(base, head)).toContain('test/a.test.js |');
    expect(ran(markers)).toEqual([]);
  });

  it('a .gitattributes at any depth, changed or deleted, is a finding; the rest of the diff is still read', async () => {
    const { dir, base, write, commit } = await repoWithBase({ 'test/.gitattributes': '*.snap -diff\n', 'docs/.gitattributes': '*.md text\n' });
    write('test/.gitattributes', '*.js -diff\n');
    unlinkSync(join(dir, 'docs/.gitattributes'));
    const head = await commit('attrs');
    const found = findTampering(parseUnifiedDiff((await gitRepo(dir, dir, 'unused-token').repo.unifiedDiff(base, head)).text));
    expect(found).toEqual([
      {
        rule: 'git-attributes-changed',
        file: 'docs/.gitattributes',
        evidence:
          'docs/.gitattributes deletes git attributes (removed: `*.md text`); they decide how git shows and converts files (`-diff` shows a change as "Binary files differ"), so no task may change them',
      },
      {
        rule: 'git-attributes-changed',
        file: 'test/.gitattributes',
        line: 1,
        evidence:
          'test/.gitattributes:1 changes git attributes (now: `*.js -diff`); they decide how git shows and converts files (`-diff` shows a change as "Binary files differ"), so no task may change them',
      },
    ]);
  });

  it('a test file git still showed as binary fails closed instead of being skipped', () => {
    const diff =
      'diff --git a/test/a.test.js b/test/a.test.js\ndeleted file mode 100644\nBinary files a/test/a.test.js and /dev/null differ\ndiff --git a/img/logo.png b/img/logo.png\nBinary files a/img/logo.png and b/img/logo.png differ\n';
    expect(findTampering(parseUnifiedDiff(diff))).toEqual([
      {
        rule: 'diff-unreadable',
        file: 'test/a.test.js',
        evidence: 'the change to test/a.test.js could not be read as text ("Binary files differ"), so the test-tampering checks cannot vouch for it',
      },
    ]);
  });
});

describe("item 1: crew's own git runs no filter, diff or merge driver a tree's .gitattributes picks", () => {
  it('commit, checkout, restore, merge, diff and show leave no marker; the same commands in plain git do', async () => {
    const { dir, base, write } = await repoWithBase();
    const markers = await configureDrivers(dir);
    const repo = gitRepo(dir, dir, 'ghs_secret_token_for_the_test').repo;
    // A tree that picks every driver by name, committed through crew (git add runs clean filters).
    write('.gitattributes', '* filter=evil diff=evil merge=evil\n');
    write('src/a.js', 'export const a = 2;\n');
    const mine = await repo.commitAll('attributes');
    expect(mine.changedFiles.sort()).toEqual(['.gitattributes', 'src/a.js']);
    await repo.checkoutNew('crew/1/r1/t1', base);
    write('src/a.js', 'export const a = 3;\n');
    await repo.commitAll('other side');
    await repo.checkoutNew('crew/1/r1/integration', mine.sha); // checkout runs smudge filters
    write('.gitattributes', 'changed\n');
    expect(await repo.restorePaths((p) => p === '.gitattributes')).toEqual(['.gitattributes']);
    await repo.changedSince(base);
    const merged = await repo.merge('refs/heads/crew/1/r1/t1', 'merge'); // both changed src/a.js: the merge driver's turn
    expect(merged.ok).toBe(false);
    await repo.unifiedDiff(base, mine.sha);
    await repo.diffStat(base, mine.sha);
    expect(await repo.readFileAt(mine.sha, 'src/a.js')).toBe('export const a = 2;\n');
    expect(ran(markers)).toEqual([]);
    // The trap is real: git with the same configuration runs them.
    await tryGit(['checkout', '-q', '--force', 'crew/1/r1/t1'], { cwd: dir });
    await tryGit(['checkout', '-q', '--force', 'crew/1/r1/integration'], { cwd: dir });
    await tryGit(['merge', '--no-edit', 'crew/1/r1/t1'], { cwd: dir, env: FIXTURE_IDENTITY });
    await tryGit(['diff', base, 'HEAD'], { cwd: dir });
    expect(ran(markers)).toEqual(['clean', 'diff-command', 'merge', 'smudge']);
  });

  it("a required filter it cannot run fails the commit with git's reason instead of committing around it", async () => {
    const { dir, write } = await repoWithBase();
    const markers = await configureDrivers(dir);
    await git(['config', 'filter.evil.required', 'true'], { cwd: dir });
    write('.gitattributes', '*.bin filter=evil\n');
    write('a.bin', 'data\n');
    await expect(gitRepo(dir, dir, 'unused-token').repo.commitAll('bin')).rejects.toThrow(/clean filter 'evil' failed/);
    expect(ran(markers)).toEqual([]);
  });
});

describe('item 3: a diff over the limit fails closed', () => {
  it('is cut at the limit with its size said, and the checks fail the verdict naming the limit', async () => {
    const { dir, base, write, commit } = await repoWithBase();
    write('src/big.js', `${'x'.repeat(99)}\n`.repeat(2000));
    const head = await commit('big');
    const repo = gitRepo(dir, dir, 'unused-token').repo;
    const diff = await repo.unifiedDiff(base, head, 50_000);
    expect(diff.truncated).toBe(true);
    expect(diff.bytes).toBeGreaterThan(200_000);
    expect(Buffer.byteLength(diff.text)).toBeLessThanOrEqual(50_000);
    const found = adversarialChecks(plan.criteria, null, { files: parseUnifiedDiff(diff.text), cut: { bytes: diff.bytes, limit: 50_000 } });
    expect(found).toHaveLength(1);
    expect(found[0]!.rule).toBe('diff-too-large');
    expect(found[0]!.evidence).toMatch(
      /^the change is 0\.2 MB \(2\d\d,\d\d\d bytes\) of diff, over the 0.1 MB limit the test-tampering checks read, so they cannot vouch for the rest/,
    );
    const met = plan.criteria.map((c) => ({ criterion: c.id, text: c.text, kind: c.kind, met: true, evidence: ['ok'], confidence: 1, tasks: [] }));
    expect(verdictOf(met, found)).toBe('FAIL');
    expect(adversarialChecks(plan.criteria, null, { files: [], cut: { bytes: 6_000_000, limit: DIFF_LIMIT_BYTES } })[0]!.evidence).toContain(
      'the change is 6 MB (6,000,000 bytes) of diff, over the 5 MB limit',
    );
    // Under the limit, nothing is said.
    expect((await repo.unifiedDiff(base, head)).truncated).toBe(false);
  });
});

describe('items 4 and 5: runner setup and npm lifecycle scripts', () => {
  let r: Awaited<ReturnType<typeof repoWithBase>>;
  beforeEach(async () => {
    r = await repoWithBase({
      'vitest.config.ts': "export default { test: { setupFiles: ['./test/setup/global.ts'] } };\n",
      'test/setup/global.ts': "import { vi } from 'vitest';\n",
      'tests/conftest.py': 'import pytest\n',
    });
  });
  /** What the critic gathers: each changed package.json whole, and the setup files the head's configuration names. */
  async function checks(head: string, from = r.base): Promise<ReturnType<typeof findTampering>> {
    const repo = gitRepo(r.dir, r.dir, 'unused-token').repo;
    const files = parseUnifiedDiff((await repo.unifiedDiff(from, head)).text);
    const context: TamperContext = { packageJson: {}, setupFiles: [] };
    for (const f of files.filter((x) => x.path.endsWith('package.json')))
      context.packageJson![f.path] = { before: await repo.readFileAt(from, f.path), after: await repo.readFileAt(head, f.path) };
    for (const p of (await repo.listFiles()).filter(isRunnerConfigFile))
      context.setupFiles!.push(...setupFilesNamedIn(p, (await repo.readFileAt(head, p)) ?? ''));
    return findTampering(files, context);
  }
  const pkg = (scripts: string, rest = '') => `{\n  "name": "x",\n  "scripts": {\n${scripts}\n  }${rest}\n}\n`;

  it('lifecycle scripts added or changed are findings, with their line; removed ones, other scripts and a dependency named install are not', async () => {
    r.write('package.json', pkg('    "test": "node --test",\n    "postinstall": "node scripts/steal.js",\n    "prepare": "husky",\n    "lint": "eslint ."'));
    const added = await checks(await r.commit('scripts'));
    expect(added).toEqual([
      {
        rule: 'lifecycle-script-changed',
        file: 'package.json',
        line: 5,
        evidence:
          'package.json:5 adds the `postinstall` script `node scripts/steal.js`, which npm runs by itself (on install, test, pack or publish): look at it before merging',
      },
      {
        rule: 'lifecycle-script-changed',
        file: 'package.json',
        line: 6,
        evidence: 'package.json:6 adds the `prepare` script `husky`, which npm runs by itself (on install, test, pack or publish): look at it before merging',
      },
    ]);
    r.write(
      'package.json',
      pkg('    "test": "node --test",\n    "postinstall": "node scripts/other.js",\n    "lint": "eslint src"', ',\n  "dependencies": { "install": "^0.13.0" }'),
    );
    const first = await git(['rev-parse', 'HEAD'], { cwd: r.dir });
    const changed = await checks(await r.commit('change'), first.trim());
    expect(changed.map((f) => f.evidence)).toEqual([
      'package.json:5 changes the `postinstall` script from `node scripts/steal.js` to `node scripts/other.js`, which npm runs by itself (on install, test, pack or publish): look at it before merging',
    ]);
    // The same commit read from the diff alone (no whole files): the line rules still find it.
    const repo = gitRepo(r.dir, r.dir, 'unused-token').repo;
    expect(findTampering(parseUnifiedDiff((await repo.unifiedDiff(first.trim(), 'HEAD')).text)).map((f) => f.evidence)).toEqual(changed.map((f) => f.evidence));
  });

  it('pretest and posttest count as lifecycle scripts: they run around `npm test`', async () => {
    r.write('package.json', pkg('    "pretest": "exit 0",\n    "test": "node --test",\n    "posttest": "echo ok"'));
    expect((await checks(await r.commit('hooks'))).map((f) => `${f.rule} ${f.line}`)).toEqual(['lifecycle-script-changed 4', 'lifecycle-script-changed 6']);
  });

  it('conftest.py that drops tests or forces the exit status; setup files by convention and named by the config', async () => {
    r.write(
      'tests/conftest.py',
      'import pytest\n\ndef pytest_collection_modifyitems(config, items):\n    items.clear()\n\ndef pytest_sessionfinish(session, exitstatus):\n    session.exitstatus = 0\n',
    );
    r.write('test/setup/global.ts', "import { vi } from 'vitest';\nglobalThis.expect = () => ({ toBe() {} });\n");
    r.write('jest.setup.js', 'process.exit(0);\n');
    r.write('src/a.js', 'export const a = 1; // process.exit( in a source file is not runner code\n');
    const found = await checks(await r.commit('runner code'));
    expect(found.map((f) => `${f.rule} ${f.file}:${f.line}`)).toEqual([
      'runner-config-weakened jest.setup.js:1',
      'runner-config-weakened test/setup/global.ts:2',
      'runner-config-weakened tests/conftest.py:3',
      'runner-config-weakened tests/conftest.py:6',
      'runner-config-weakened tests/conftest.py:7',
    ]);
    expect(found[1]!.evidence).toBe(
      'test/setup/global.ts:2 is runner code loaded around every test, and this line changes which tests run or how they end: `globalThis.expect = () => ({ toBe() {} });`',
    );
    // A harmless setup change (a new mock) is not a finding.
    r.write('test/setup/global.ts', "import { vi } from 'vitest';\nvi.mock('node:fs');\n");
    r.write('tests/conftest.py', 'import pytest\n\n@pytest.fixture\ndef user():\n    return "u"\n');
    r.write('jest.setup.js', '');
    expect(await checks(await r.commit('fixtures'))).toEqual([]);
  });

  it("the runner's setup settings added, changed or removed are findings; the files they name are read", async () => {
    r.write('vitest.config.ts', "export default {\n  test: {\n    globalSetup: './test/setup/teardown-all.ts',\n  },\n};\n");
    const found = await checks(await r.commit('setup'));
    expect(found.map((f) => f.evidence)).toEqual([
      "vitest.config.ts:3 changes the code the runner loads before the tests: `globalSetup: './test/setup/teardown-all.ts',`",
      "vitest.config.ts no longer has the runner setting on its former line 1: `export default { test: { setupFiles: ['./test/setup/global.ts'] } };`",
    ]);
    expect(
      setupFilesNamedIn(
        'packages/web/jest.config.js',
        "module.exports = { setupFilesAfterEnv: ['<rootDir>/jest/after.ts', 'jest-extended/all'], globalSetup: '../../tools/setup' };",
      ),
    ).toEqual(['packages/web/jest/after.ts', 'tools/setup']);
    expect(existsSync(join(r.dir, 'test/setup/global.ts'))).toBe(true);
  });
});
