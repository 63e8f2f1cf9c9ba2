import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inertLog } from '../../../src/text/inert-log';
import { parseV1, parseV2 } from '../../support/runner/workflow-commands';

/** Every name counts as registered: stricter than the runner, which also takes a stop token as a command. */
const ANY_NAME: ReadonlySet<string> = { has: () => true } as unknown as ReadonlySet<string>;
/** How the runner splits a step's output into lines (.NET ReadLine: `\n`, `\r`, `\r\n`). */
const runnerLines = (text: string) => text.split(/\r\n|\r|\n/);
const commandsIn = (text: string) => runnerLines(text).flatMap((l) => [parseV2(l, ANY_NAME), parseV1(l, ANY_NAME)].filter(Boolean));

describe('inertLog: no line the runner could read as a workflow command', () => {
  it('the payloads of #46, and their relatives, are no commands once inert', () => {
    for (const text of [
      'critic: PASS at iteration 1: fine ##[add-mask]1',
      '  ::stop-commands::x',
      'INTAKE read the issue. ##[add-mask]1\n  ::stop-commands::x',
      'a\r::add-mask::1',
      'a\r\n\t::warning::forged',
      '\u00a0\u2003::error::wide spaces',
      '###[add-mask]1 and ##[set-env name=X]y ##[add-mask]2',
      '##[##[add-mask]1',
      '::group::x\n::endgroup::',
    ]) {
      // Without the helper each is a command; with it, none is.
      expect(commandsIn(text).length, text).toBeGreaterThan(0);
      expect(commandsIn(inertLog(text)), text).toEqual([]);
    }
  });

  it('any mix of the pieces a command is made of stays inert', () => {
    const pieces = ['::', '##[', '#', ':', '[', ']', ' ', '\t', '\u00a0', '\r', '\n', '\r\n', 'add-mask', 'stop-commands', 'x', '1', '%0A'];
    let seed = 46;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let raw = 0;
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      if (commandsIn(text).length) raw++;
      expect(commandsIn(inertLog(text)), JSON.stringify(text)).toEqual([]);
    }
    // The mix does produce commands before the helper: the check above is not vacuous.
    expect(raw).toBeGreaterThan(250);
  });

  it('leaves ordinary text as it is, line breaks included', () => {
    for (const text of ['critic: PASS at iteration 1: fine', 'a::b c::d', 'see std::vector', '## Heading [x]', 'line one\nline two\r\n'])
      expect(inertLog(text)).toBe(text);
    expect(inertLog('  ::stop-commands::x')).toBe('  : :stop-commands::x');
    expect(inertLog('say ##[add-mask]1')).toBe('say ## [add-mask]1');
  });
});

describe('every line crew writes to a job log goes through inertLog', () => {
  const root = join(__dirname, '..', '..', '..', 'src');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  /** Ways to write to the step's output; each call's argument must start with `inertLog(`. */
  const WRITE =
    /\b(core\.(?:info|warning|error|notice|debug|startGroup|setFailed|group)|console\.(?:log|error|warn|info|debug)|process\.(?:stdout|stderr)\.write)\(\s*/g;
  /**
   * Where a write is not crew's log: scripts that run inside the sandbox (their output is a command's
   * output, which crew reads and prints through its Log), and the local CLI's flush of nothing.
   */
  const NOT_THE_LOG: Record<string, string> = {
    'sandbox/test-reports/hooks.ts': "the test-report hooks run in the sandbox, as part of the project's test command",
    'sandbox/egress/route.ts': 'the egress route runs in the sandbox, in front of the command',
    'agents/syntax-check.ts': "the syntax check's parser script, in a child process whose output crew reads as data",
    "cli/index.ts:process.stdout.write('')": 'flushes stdout before exit, writing nothing',
    'adapters/runner/workflow-commands.ts':
      "the workflow commands themselves (crew's own @actions/core): their callers, `core.<name>(` in main.ts, are checked here",
  };

  it('finds each write to stdout, stderr or @actions/core, and each one is inert or not the job log', () => {
    const found: string[] = [];
    const bad: string[] = [];
    for (const file of files(root)) {
      const rel = relative(root, file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(WRITE)) {
        const after = text.slice(m.index + m[0].length);
        const site = `${rel}:${m[1]}(${after.slice(0, 2) === "''" ? "''" : ''})`;
        found.push(site);
        if (after.startsWith('inertLog(') || NOT_THE_LOG[rel] || NOT_THE_LOG[site]) continue;
        bad.push(`${site} ${after.split('\n')[0]}`);
      }
    }
    expect(bad).toEqual([]);
    // The workflow commands are only ever imported whole, so every call to them reads `core.<name>(` and is found above.
    const imports = files(root).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/import\s+([^;]*?)\s+from\s+'[./]*(?:adapters\/)?runner\/workflow-commands'/g)].map((m) => m[1]),
    );
    expect(new Set(imports)).toEqual(new Set(['* as core']));
    // Nor does anything write through @actions/core, whose calls this test would not know.
    expect(files(root).filter((f) => readFileSync(f, 'utf8').includes("'@actions/core'"))).toEqual([]);
    // The job log's writers, all in main.ts: Log.info, Log.warn, the checkpoint, a trajectory group's title and lines, the failure.
    expect(found.filter((s) => s.startsWith('main.ts')).sort()).toEqual(
      ['core.info(', 'core.warning(', 'core.info(', 'core.startGroup(', 'core.info(', 'core.setFailed('].map((c) => `main.ts:${c})`).sort(),
    );
  });
});
