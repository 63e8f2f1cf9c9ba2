import { afterEach, describe, expect, it } from 'vitest';
import { parseV1, parseV2, REGISTERED_COMMANDS } from '../../support/runner/workflow-commands';
import { job, onlyRun, startWorld, workflow, type World } from './helpers';

// Workflow commands as GitHub's runner reads them (actions/runner ActionCommand.cs, ActionCommandManager.cs).

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function runOnce(jobs: string) {
  world = await startWorld({ files: { '.github/workflows/t.yml': workflow(jobs) } });
  await world.dispatch('t.yml');
  await world.settle();
  return onlyRun(world.runner);
}

const registered = new Set<string>(REGISTERED_COMMANDS);

describe('parsing', () => {
  it('reads `::name::` after leading white space, .NET white space included, and names in any case', () => {
    expect(parseV2('::add-mask::x', registered)).toMatchObject({ command: 'add-mask', data: 'x', form: 'v2' });
    expect(parseV2('   \t::warning file=a.ts,line=3::look', registered)).toMatchObject({
      command: 'warning',
      properties: { file: 'a.ts', line: '3' },
      data: 'look',
    });
    expect(parseV2('\u00a0\u2003::ADD-MASK::y', registered)).toMatchObject({ command: 'add-mask', data: 'y' });
    expect(parseV2('x ::add-mask::y', registered)).toBeUndefined();
    expect(parseV2('::not-a-command::y', registered)).toBeUndefined();
    expect(parseV2('::error::a%0Ab%25', registered)?.data).toBe('a\nb%');
  });

  it('reads `##[name]` anywhere in a line', () => {
    expect(parseV1('the model said … ##[add-mask]1', registered)).toMatchObject({ command: 'add-mask', data: '1', form: 'v1' });
    expect(parseV1('a ##[warning file=x.ts;line=2]w%5D', registered)).toMatchObject({
      command: 'warning',
      properties: { file: 'x.ts', line: '2' },
      data: 'w]',
    });
    expect(parseV1('##[foo]bar', registered)).toBeUndefined();
    expect(parseV1('##[add-mask 1', registered)).toBeUndefined();
  });
});

describe('a step that prints commands', () => {
  it('`##[add-mask]` anywhere in a line masks the value, and the job outputs that contain it are skipped', async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    outputs:
      issue: \${{ steps.s.outputs.issue }}
      word: \${{ steps.s.outputs.word }}
    steps:
      - id: s
        run: |
          echo "the intake said: fine ##[add-mask]1"
          echo "issue 12 run 1"
          echo "issue=12" >> "$GITHUB_OUTPUT"
          echo "word=done" >> "$GITHUB_OUTPUT"
`);
    const j = job(run, 'j');
    expect(j.log).toContain('issue ***2 run ***');
    expect(j.log.some((l) => l.includes('add-mask'))).toBe(false);
    expect(j.outputs).toEqual({ word: 'done' });
    expect(j.annotations).toContainEqual({ level: 'warning', message: "Skip output 'issue' since it may contain secret." });
    expect(j.commands?.map((c) => [c.command, c.data, c.form])).toEqual([['add-mask', '1', 'v1']]);
  });

  it('an indented `::command::` is a command; a line broken by a carriage return is two lines', async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "   ::warning::indented"
          printf 'before\\r::notice::after a CR\\n'
          echo "text ::error::not at the start"
`);
    const j = job(run, 'j');
    expect(j.annotations).toEqual([
      { level: 'warning', message: 'indented' },
      { level: 'notice', message: 'after a CR' },
    ]);
    expect(j.log).toContain('text ::error::not at the start');
  });

  it('`stop-commands` makes every command plain output until its token, in either form, and lasts to the end of the step', async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "::stop-commands::tok-12345"
          echo "::error::printed, not annotated"
          echo "x ##[add-mask]zz"
          echo "  ::group::not folded"
          echo "##[tok-12345]"
          echo "::notice::after the token"
          echo "::stop-commands::x"
          echo "::warning::still stopped at the end of the step"
      - run: echo "::warning::the next step reads commands again"
`);
    const j = job(run, 'j');
    expect(j.log).toEqual(
      expect.arrayContaining([
        '::stop-commands::***',
        '::error::printed, not annotated',
        'x ##[add-mask]zz',
        '  ::group::not folded',
        '##[***]',
        '::stop-commands::x',
        '::warning::still stopped at the end of the step',
      ]),
    );
    expect(j.annotations).toEqual([
      { level: 'notice', message: 'after the token' },
      { level: 'warning', message: 'the next step reads commands again' },
    ]);
    expect(j.commands?.map((c) => c.command)).toEqual(['stop-commands', 'tok-12345', 'notice', 'stop-commands', 'warning']);
    expect(j.result).toBe('success');
  });

  it('refuses a stop token that is empty or a command, and fails the step', async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    steps:
      - run: echo "::stop-commands::warning"
`);
    const j = job(run, 'j');
    expect(j.result).toBe('failure');
    expect(j.annotations[0]).toEqual({ level: 'error', message: "Unable to process command '::stop-commands::warning' successfully." });
  });

  it('a command that cannot be carried out fails the step though the process exits 0; `set-output` still sets an output', async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    outputs:
      old: \${{ steps.s.outputs.old }}
    steps:
      - id: s
        run: |
          echo "::set-output name=old::by command"
          echo "model text ##[set-env name=X]y"
          exit 0
`);
    const j = job(run, 'j');
    expect(j.result).toBe('failure');
    expect(j.steps[0]!.outputs).toEqual({ old: 'by command' });
    expect(j.annotations.map((a) => a.message)).toContainEqual(expect.stringContaining('The `set-env` command is disabled.'));
  });
});

describe("a step's summary (GITHUB_STEP_SUMMARY)", () => {
  it('over 1 MiB, none of it is kept and the runner says so; within it, it is added to the job summary', async () => {
    const run = await runOnce(`
  j:
    runs-on: ubuntu-latest
    steps:
      - run: head -c 1048577 /dev/zero | tr '\\\\0' x >> "$GITHUB_STEP_SUMMARY"
      - run: echo "## kept" >> "$GITHUB_STEP_SUMMARY"
`);
    const j = job(run, 'j');
    expect(j.result).toBe('success');
    expect(j.summary).toBe('## kept\n');
    expect(j.annotations).toContainEqual({
      level: 'error',
      message: expect.stringContaining('$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k, got 1024k.'),
    });
  });
});
