import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathJail } from '../../../src/agents/path-jail';
import { globMatch } from '../../../src/domain/glob';

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

  it('rejects non-strings and NUL bytes with a readable message', () => {
    const jail = new PathJail(root);
    expect(() => jail.relative(42)).toThrow(/non-empty string/);
    expect(() => jail.relative('a\0b')).toThrow(/NUL/);
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
  });
});
