import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathJail } from '../../../src/agents/path-jail';
import { workspaceTools } from '../../../src/agents/workspace-tools';
import { globMatch, isProtectedPath } from '../../../src/domain/glob';

describe('PathJail', () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'jail-'));
    outside = mkdtempSync(join(tmpdir(), 'outside-'));
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'src', 'a.js'), 'a');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, join(root, 'escape'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'src', 'link.txt'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('accepts paths inside the root, relative or absolute', () => {
    const jail = new PathJail(root);
    expect(jail.relative('src/a.js')).toBe('src/a.js');
    expect(jail.relative('./src/../src/a.js')).toBe('src/a.js');
    expect(jail.relative(join(root, 'src', 'new.js'))).toBe('src/new.js');
    expect(jail.relative('src/deep/new/file.js')).toBe('src/deep/new/file.js');
  });

  it('refuses .. escapes and absolute paths outside', () => {
    const jail = new PathJail(root);
    expect(() => jail.relative('../x')).toThrow(/outside the repository/);
    expect(() => jail.relative('src/../../x')).toThrow(/outside the repository/);
    expect(() => jail.relative('/etc/passwd')).toThrow(/outside the repository/);
  });

  it('refuses escapes through symbolic links, for existing and new files', () => {
    const jail = new PathJail(root);
    expect(() => jail.forRead('escape/secret.txt')).toThrow(/symbolic link/);
    expect(() => jail.forWrite('escape/new.txt')).toThrow(/symbolic link/);
    expect(() => jail.forRead('src/link.txt')).toThrow(/symbolic link/);
  });

  it('keeps tools out of .git and protected paths', () => {
    const jail = new PathJail(root, ['.github/workflows/**', '.github/crew.yml']);
    expect(() => jail.forRead('.git/config')).toThrow(/inside .git/);
    expect(() => jail.forWrite('.git/hooks/pre-commit')).toThrow(/inside .git/);
    expect(() => jail.forWrite('.github/workflows/ci.yml')).toThrow(/protected/);
    expect(() => jail.forWrite('.github/crew.yml')).toThrow(/protected/);
    expect(jail.forWrite('.github/ISSUE_TEMPLATE.md')).toBe(join(jail.rootDir, '.github/ISSUE_TEMPLATE.md'));
  });

  it('protects what a brace pattern names: `.github/{workflows,actions}/**` covers actions and workflows, and the folders', () => {
    const jail = new PathJail(root, ['.github/{workflows,actions}/**']);
    for (const p of ['.github/actions/x.yml', '.github/actions/deep/action.yml', '.github/workflows/ci.yml', '.github/actions', '.github'])
      expect(() => jail.forWrite(p), p).toThrow(/protected/);
    expect(jail.forWrite('.github/CODEOWNERS')).toBe(join(jail.rootDir, '.github/CODEOWNERS'));
  });

  it('rejects non-strings and NUL bytes with a readable message', () => {
    const jail = new PathJail(root);
    expect(() => jail.relative(42)).toThrow(/non-empty string/);
    expect(() => jail.relative('a\0b')).toThrow(/NUL/);
  });
});

describe('PathJail: symbolic link attacks, through write_file and edit_file (the tool user can plant links with ln -s)', () => {
  let root: string;
  let outside: string;
  const PROTECTED = ['.github/workflows/**', '.github/crew.yml', '.github/crew/**'];
  const tool = (name: string) => workspaceTools(new PathJail(root, PROTECTED), () => undefined).find((t) => t.spec.name === name)!;
  const write = (path: string, content = 'x') => Promise.resolve(tool('write_file').run({ path, content }));
  const read = (path: string) => Promise.resolve(tool('read_file').run({ path }));
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'jail-'));
    outside = mkdtempSync(join(tmpdir(), 'outside-'));
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), '[core]\n');
    mkdirSync(join(root, '.github', 'workflows'), { recursive: true });
    writeFileSync(join(root, '.github', 'crew.yml'), 'max_retries: 1\n');
    writeFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'on: push\n');
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.js'), 'a\n');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('a dangling link out of the checkout: refused, and the target is not created', async () => {
    symlinkSync(join(outside, 'new'), join(root, 'x'));
    await expect(write('x', 'pwned')).rejects.toThrow(/symbolic link to a path that does not exist/);
    expect(existsSync(join(outside, 'new'))).toBe(false);
    // A dangling link inside the checkout is refused too: following it would create whatever it names.
    symlinkSync('src/missing/deeper', join(root, 'y'));
    await expect(write('y')).rejects.toThrow(/does not exist/);
    expect(existsSync(join(root, 'src', 'missing'))).toBe(false);
  });

  it('a link into .git: refused for reads and writes, and .git/config is unchanged', async () => {
    symlinkSync('.git/config', join(root, 'cfg'));
    symlinkSync(join(root, '.git'), join(root, 'g')); // absolute target, a folder
    await expect(write('cfg', '[core]\n\tfsmonitor = "touch /tmp/pwned"\n')).rejects.toThrow(/symbolic link into .git/);
    await expect(write('g/hooks/pre-commit')).rejects.toThrow(/symbolic link into .git/);
    await expect(read('cfg')).rejects.toThrow(/symbolic link into .git/);
    await expect(Promise.resolve(tool('edit_file').run({ path: 'cfg', old_string: '[core]', new_string: '[x]' }))).rejects.toThrow(/into .git/);
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(root, '.git', 'hooks'))).toBe(false);
  });

  it('a link to a protected path: refused for writes, and the protected files are unchanged', async () => {
    symlinkSync('.github/crew.yml', join(root, 'settings.yml'));
    symlinkSync('.github/workflows', join(root, 'wf'));
    await expect(write('settings.yml', 'allow_unsandboxed: true\n')).rejects.toThrow(/'.github\/crew.yml' is protected .*'settings.yml' is a link to it/);
    await expect(write('wf/ci.yml', 'on: issue_comment\n')).rejects.toThrow(/protected/);
    await expect(write('wf/new.yml')).rejects.toThrow(/protected/);
    expect(readFileSync(join(root, '.github', 'crew.yml'), 'utf8')).toBe('max_retries: 1\n');
    expect(readFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'utf8')).toBe('on: push\n');
    expect(existsSync(join(root, '.github', 'workflows', 'new.yml'))).toBe(false);
    expect(await read('settings.yml')).toMatch(/^\s*1\tmax_retries: 1$/m); // reading it is fine (numbered, #48)
  });

  it('a chain of links: followed to the end; refused when the end is outside, dangling or a loop', async () => {
    symlinkSync('b', join(root, 'a'));
    symlinkSync('src/a.js', join(root, 'b'));
    expect(await write('a', 'changed\n')).toBe('wrote src/a.js (1 line)');
    expect(readFileSync(join(root, 'src', 'a.js'), 'utf8')).toBe('changed\n');
    writeFileSync(join(outside, 'target.txt'), 'outside\n');
    symlinkSync('d', join(root, 'c'));
    symlinkSync(join(outside, 'target.txt'), join(root, 'd'));
    await expect(write('c', 'pwned')).rejects.toThrow(/outside the repository through a symbolic link/);
    expect(readFileSync(join(outside, 'target.txt'), 'utf8')).toBe('outside\n');
    symlinkSync('f', join(root, 'e'));
    symlinkSync('../../' + outside.split('/').pop() + '/nothing', join(root, 'f'));
    await expect(write('e')).rejects.toThrow(/does not exist|outside/);
    symlinkSync('loop2', join(root, 'loop1'));
    symlinkSync('loop1', join(root, 'loop2'));
    await expect(write('loop1')).rejects.toThrow(/does not exist|loop/);
  });

  it('a directory link: followed inside the checkout, refused out of it, even for new files below it', async () => {
    symlinkSync('src', join(root, 'lib'));
    expect(await write('lib/b.js', 'b\n')).toBe('wrote src/b.js (1 line)');
    expect(readFileSync(join(root, 'src', 'b.js'), 'utf8')).toBe('b\n');
    symlinkSync(outside, join(root, 'out'));
    await expect(write('out/new/deep.txt')).rejects.toThrow(/outside the repository through a symbolic link/);
    expect(existsSync(join(outside, 'new'))).toBe(false);
    symlinkSync('../../' + outside.split('/').pop(), join(root, 'src', 'up')); // relative, climbing out
    await expect(write('src/up/x.txt')).rejects.toThrow(/outside the repository/);
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
  });

  it('a hard link to a file elsewhere: not changed through the checkout', async (ctx) => {
    writeFileSync(join(outside, 'h.txt'), 'outside\n');
    try {
      linkSync(join(outside, 'h.txt'), join(root, 'h.txt'));
    } catch (e) {
      // Only another filesystem excuses it: a hard link cannot exist across one. Anything else is a failure.
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      ctx.skip();
    }
    await expect(write('h.txt', 'pwned')).rejects.toThrow(/other hard links/);
    expect(readFileSync(join(outside, 'h.txt'), 'utf8')).toBe('outside\n');
  });
});

describe('isProtectedPath', () => {
  const globs = ['.github/workflows/**', '.github/crew.yml', '.github/crew/**', 'docs/*.lock'];
  it('matches the patterns and the folders protected files live in, nothing else', () => {
    for (const p of [
      '.github/workflows/ci.yml',
      '.github/crew.yml',
      '.github/crew/templates/x.md',
      'docs/a.lock',
      '.github',
      '.github/workflows',
      '.github/crew',
      'docs',
    ])
      expect(isProtectedPath(globs, p), p).toBe(true);
    for (const p of ['.github/CODEOWNERS', '.github/crew.yml.bak', '.githubx', 'docs/a.md', 'src/.github']) expect(isProtectedPath(globs, p), p).toBe(false);
  });
});

describe('globMatch', () => {
  it('matches ** across folders and * within one', () => {
    expect(globMatch('.github/workflows/**', '.github/workflows/ci.yml')).toBe(true);
    expect(globMatch('.github/workflows/**', '.github/workflows/sub/x.yml')).toBe(true);
    expect(globMatch('.github/crew/**', '.github/crew.yml')).toBe(false);
    expect(globMatch('src/*.js', 'src/a.js')).toBe(true);
    expect(globMatch('src/*.js', 'src/x/a.js')).toBe(false);
    expect(globMatch('**/secret.txt', 'a/b/secret.txt')).toBe(true);
    // `**/` stands for whole folders, or none: the name must still be the whole last segment.
    expect(globMatch('**/secret.txt', 'secret.txt')).toBe(true);
    expect(globMatch('**/secret.txt', 'a/mysecret.txt')).toBe(false);
    expect(globMatch('**/.npmrc', 'x.npmrc')).toBe(false);
    expect(globMatch('a/**/b.js', 'a/b.js')).toBe(true);
    expect(globMatch('a/**/b.js', 'a/x/y/b.js')).toBe(true);
    expect(globMatch('a/**/b.js', 'a/xb.js')).toBe(false);
    expect(globMatch('docs/**/x.md', 'docs/foox.md')).toBe(false);
    expect(globMatch('docs/**/x.md', 'docs/a/x.md')).toBe(true);
  });

  it('braces, classes, dotfiles and negation', () => {
    expect(globMatch('.github/{workflows,actions}/**', '.github/actions/x.yml')).toBe(true);
    expect(globMatch('.github/{workflows,actions}/**', '.github/ISSUE_TEMPLATE/x.md')).toBe(false);
    expect(globMatch('src/[ab].ts', 'src/a.ts')).toBe(true);
    expect(globMatch('src/[ab].ts', 'src/c.ts')).toBe(false);
    // Dotfiles and dot-folders match like any other name: a protected pattern must cover them.
    expect(globMatch('**/*.yml', '.github/workflows/ci.yml')).toBe(true);
    expect(globMatch('config/*', 'config/.env')).toBe(true);
    expect(globMatch('!docs/**', 'src/a.ts')).toBe(true);
    expect(globMatch('!docs/**', 'docs/a.md')).toBe(false);
  });
});
