/**
 * Settings that would make crew's own git run a program, overridden for every command. They
 * outrank `.git/config`, so a poisoned checkout config (tools cannot write it, but this is the
 * second fence) runs nothing while the credentials are in git's environment: no hooks, no
 * fsmonitor daemon, no credential helper, no signing program.
 * The search tool's `git grep` (agents/command-tools.ts) runs with them too.
 */
export const HARDENING: Array<[string, string]> = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['credential.helper', ''],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['protocol.ext.allow', 'never'],
  // crew never needs a pager, an editor, ssh or a password prompt: if git ever wanted one, it fails instead of running a program.
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.sshCommand', 'false'],
  ['core.askPass', ''],
];
