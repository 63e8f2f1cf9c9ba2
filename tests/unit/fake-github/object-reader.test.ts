import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BareRepo } from '../../support/github/bare-repo';
import { ObjectReader } from '../../support/github/object-reader';
import { git, tryGit } from '../../support/git-cli';
import { tempDir } from './helpers';

const open: Array<{ close(): void }> = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

async function repo(files: Record<string, string> = { 'README.md': '# r\n', 'src/a.ts': 'export const a = 1;\n' }): Promise<BareRepo> {
  const r = await BareRepo.create(join(await tempDir('object-reader-'), 'r.git'), files);
  open.push(r);
  return r;
}

/** What a fresh git process says, for comparison. */
async function revParse(dir: string, name: string): Promise<string | undefined> {
  const r = await tryGit(['rev-parse', '--verify', '--quiet', name], { cwd: dir });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

describe('the git process kept open for the fake’s reads', () => {
  it('answers as fresh rev-parse and cat-file runs do, for refs, files, trees and what is missing', async () => {
    const r = await repo();
    for (const name of ['refs/heads/main', 'main', 'refs/heads/nope', 'deadbeef'.repeat(5)]) {
      expect(await r.resolve(name)).toBe(await revParse(r.dir, `${name}^{commit}`));
    }
    for (const path of ['README.md', 'src/a.ts', 'src', 'missing.txt']) {
      expect(await r.blobSha('main', path)).toBe(await revParse(r.dir, `main:${path}`));
    }
    expect(await r.readFile('main', 'src/a.ts')).toBe('export const a = 1;\n');
    // A directory is no file, as `git cat-file blob main:src` fails.
    expect(await r.readFile('main', 'src')).toBeUndefined();
    expect(await r.readFile('main', 'missing.txt')).toBeUndefined();
    expect(await r.readFile('refs/heads/nope', 'README.md')).toBeUndefined();
  });

  it('sees refs and objects written behind its back, loose, packed or pushed as a pack', async () => {
    const r = await repo();
    const first = (await r.resolve('refs/heads/main'))!;
    // Written by other git processes while the reader is open.
    const second = await r.writeCommit({ branch: 'main', files: { 'README.md': '# r, again\n' }, message: 'Again' });
    expect(await r.resolve('refs/heads/main')).toBe(second);
    expect(await r.readFile('main', 'README.md')).toBe('# r, again\n');
    await git(['pack-refs', '--all'], { cwd: r.dir });
    expect(await r.resolve('refs/heads/main')).toBe(second);
    await git(['update-ref', 'refs/heads/main', first], { cwd: r.dir });
    expect(await r.resolve('refs/heads/main')).toBe(first);
    await git(['update-ref', 'refs/heads/side', second], { cwd: r.dir });
    expect(await r.resolve('refs/heads/side')).toBe(second);
    await git(['update-ref', '-d', 'refs/heads/side'], { cwd: r.dir });
    expect(await r.resolve('refs/heads/side')).toBeUndefined();
    // Objects arriving in a new pack file (as a large push leaves them).
    const other = await repo({ 'big.txt': 'x'.repeat(300_000) + '\n' });
    const tip = (await other.resolve('refs/heads/main'))!;
    await git(['-c', 'fetch.unpackLimit=1', 'fetch', '--quiet', other.dir, `+refs/heads/main:refs/heads/imported`], { cwd: r.dir });
    expect(await r.resolve('refs/heads/imported')).toBe(tip);
    expect(await r.readFile('imported', 'big.txt')).toBe('x'.repeat(300_000) + '\n');
    // Loose objects it has read before, moved into a pack and deleted.
    await git(['repack', '-a', '-d', '--quiet'], { cwd: r.dir });
    await git(['prune-packed'], { cwd: r.dir });
    expect(await r.readFile('main', 'README.md')).toBe('# r\n');
    expect(await r.readFile(second, 'README.md')).toBe('# r, again\n');
  });

  it('keeps many reads in flight in order, and bytes that are not text intact', async () => {
    const r = await repo({ 'a.txt': 'a\n', 'é/ü.txt': 'unicode ✓\n', 'empty.txt': '' });
    const names = ['a.txt', 'é/ü.txt', 'empty.txt', 'nothing', 'a.txt'];
    const reads = await Promise.all(Array.from({ length: 40 }, (_, i) => r.readFile('main', names[i % names.length]!)));
    expect(reads).toEqual(Array.from({ length: 40 }, (_, i) => ({ 'a.txt': 'a\n', 'é/ü.txt': 'unicode ✓\n', 'empty.txt': '' })[names[i % names.length]!]));
    const reader = new ObjectReader(r.dir);
    open.push(reader);
    const blob = await git(['hash-object', '-w', '--stdin'], { cwd: r.dir, input: '\u0000\u00ff binary\n' });
    expect((await reader.contents(blob.trim()))?.content).toEqual(Buffer.from('\u0000\u00ff binary\n', 'utf8'));
  });

  it('refuses a name it cannot send, and starts again after it is closed', async () => {
    const r = await repo();
    await expect(r.readFile('main', 'a\nb')).rejects.toThrow(/line break/);
    const sha = await r.resolve('main');
    r.close();
    expect(await r.resolve('main')).toBe(sha);
  });

  it('says which repository and command failed when git cannot run there', async () => {
    const reader = new ObjectReader(join(await tempDir('object-reader-'), 'does-not-exist'));
    open.push(reader);
    await expect(reader.info('HEAD')).rejects.toThrow(/git cat-file --batch-command in .*does-not-exist .*"info HEAD"/);
  });
});
