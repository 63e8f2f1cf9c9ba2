import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/schema';
import { parseArgs } from '../../../src/cli/args';
import { LiveView } from '../../../src/local/live-view';
import { localConfig, mergeConfig, unsandboxedAskedIn } from '../../../src/config/local';
import { GITHUB, sentence, terminalSurface } from '../../../src/domain/surface';
import { failureComment } from '../../../src/render/messages';
import { withoutMarkerLines } from '../../../src/text/markdown';
import { UsageError } from '../../../src/local/workspace';
import { renderPlanComment } from '../../../src/render/plan-comment';
import { view as runView } from '../crew/run-fixtures';

const sampleView = () => runView(['success', 'running', 'pending']);

describe('crew command line', () => {
  it('parses run, resume, list and status', () => {
    expect(parseArgs(['run', 'do it', '--criteria', 'a', '--criteria=b', '--project', '/p', '--max-iterations', '4', '--verbose'], '/cwd')).toEqual({
      kind: 'run',
      task: 'do it',
      criteria: ['a', 'b'],
      configFile: undefined,
      resume: undefined,
      project: '/p',
      maxIterations: 4,
      verbose: true,
      scripted: undefined,
      images: [],
      allowUnsandboxed: false,
      allowSetup: false,
    });
    expect(parseArgs(['run', 'x', '--image', 'a.png', '--image=b.png'], '/cwd')).toMatchObject({ images: ['a.png', 'b.png'] });
    expect(() => parseArgs(['run', '--resume', '--image', 'a.png'], '/cwd')).toThrow(
      '--resume continues an existing run; it takes no task, --criteria, --image or --config.',
    );
    expect(parseArgs(['run', 'x', '--allow-unsandboxed', '--allow-setup'], '/cwd')).toMatchObject({ allowUnsandboxed: true, allowSetup: true });
    expect(parseArgs(['run', '--resume', '--allow-setup'], '/cwd')).toMatchObject({ resume: 'latest', allowSetup: true });
    expect(parseArgs(['run', 'x', '--provider', 'bedrock', '--fallback-provider=anthropic'], '/cwd')).toMatchObject({
      provider: 'bedrock',
      fallbackProvider: 'anthropic',
    });
    expect(() => parseArgs(['run', 'x', '--provider', 'azure'], '/cwd')).toThrow("--provider is one of anthropic, bedrock, vertex (got 'azure').");
    expect(parseArgs(['run', '--resume'], '/cwd')).toMatchObject({ kind: 'run', resume: 'latest', project: '/cwd' });
    expect(parseArgs(['run', '--resume', '7', '--verbose'], '/cwd')).toMatchObject({ resume: 7, verbose: true });
    expect(parseArgs(['run', '--config', 't.yaml'], '/cwd')).toMatchObject({ configFile: 't.yaml', task: undefined });
    expect(parseArgs(['list'], '/cwd')).toEqual({ kind: 'list', project: '/cwd' });
    expect(parseArgs(['status', '3'], '/cwd')).toEqual({ kind: 'status', run: 3, project: '/cwd' });
    expect(parseArgs([], '/cwd')).toEqual({ kind: 'help' });
  });

  it.each([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['run'], 'crew run needs a task'],
    [['run', 'a', 'b'], 'Quote the task: crew run "a b"'],
    [['run', 'x', '--resume'], '--resume continues an existing run'],
    [['run', 'x', '--max-iterations', '0'], "--max-iterations needs a positive whole number (got '0')"],
    [['run', 'x', '--criteria'], '--criteria needs a value'],
    [['run', 'x', '--colour'], "unknown option '--colour'"],
    [['status', 'latest'], "the run number needs a positive whole number (got 'latest')"],
    [['run', '   '], 'the task is empty'],
  ])('refuses %j with a message that says what to do', (argv, message) => {
    expect(() => parseArgs(argv, '/cwd')).toThrow(UsageError);
    expect(() => parseArgs(argv, '/cwd')).toThrow(message);
  });

  it('reads --flag=value, --criterion, --resume=N, -v and a task after --', () => {
    expect(parseArgs(['run', 'x', '--criterion', 'a', '--criteria=b', '--criterion=c', '-v', '--project=/p', '--scripted=s.yaml'], '/cwd')).toMatchObject({
      criteria: ['a', 'b', 'c'],
      verbose: true,
      project: '/p',
      scripted: 's.yaml',
    });
    expect(parseArgs(['run', '--resume=3'], '/cwd')).toMatchObject({ resume: 3 });
    expect(parseArgs(['run', '--verbose', '--resume', '12'], '/cwd')).toMatchObject({ resume: 12, verbose: true });
    expect(parseArgs(['run', '--', '--not-an-option'], '/cwd')).toMatchObject({ task: '--not-an-option' });
    expect(parseArgs(['run', 'x', '--criteria=-1 is refused'], '/cwd')).toMatchObject({ criteria: ['-1 is refused'] });
    expect(parseArgs(['status', '--project', '/p'], '/cwd')).toEqual({ kind: 'status', project: '/p' });
  });

  it('shows the help for --help or -h anywhere, even on a line that is wrong otherwise', () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['run', '--help'], ['run', 'x', '-vh'], ['run', 'x', '--colour', '-h'], ['list', '--help']])
      expect(parseArgs(argv, '/cwd')).toEqual({ kind: 'help' });
    // A value is not an option: `--criteria -h` is a criterion that needs the = form.
    expect(() => parseArgs(['run', 'x', '--criteria', '-h'], '/cwd')).toThrow("write --criteria='-h'");
  });

  // What strict parsing refuses that the hand parser let through or got wrong; each names the flag and says what to do.
  it.each([
    [['run', 'x', '-z'], "unknown option '-z' for crew run (crew --help lists the options; a task that starts with '-' goes after --"],
    [['run', '-fix the bug'], "unknown option '-f' for crew run"],
    [
      ['run', 'x', '--criteria', '--verbose'],
      "--criteria needs a value, and '--verbose' after it looks like an option. For a value that starts with '-', write --criteria='--verbose'.",
    ],
    [['run', 'x', '--criteria', '-1 works'], "write --criteria='-1 works'"],
    [['run', 'x', '--project'], '--project needs a value: --project VALUE, or --project=VALUE.'],
    [['run', 'x', '--config='], '--config is empty: give it a value'],
    [['run', 'x', '--verbose=yes'], "--verbose takes no value (got 'yes'); leave out '=yes'."],
    [['run', 'x', '--allow-setup=false'], "--allow-setup takes no value (got 'false')"],
    [['run', 'x', '--project', 'a', '--project=b'], "--project was given twice (--project 'a', then --project 'b'); give it once."],
    [['run', 'x', '--max-iterations', '2', '--max-iterations', '3'], '--max-iterations was given twice'],
    [['run', 'x', '--scripted', 'a.yaml', '--scripted', 'b.yaml'], '--scripted was given twice'],
    [['run', '--config', 'a.yaml', '--config', 'b.yaml'], '--config was given twice'],
    [['run', '--resume', '2', '--resume'], '--resume was given twice'],
    [['run', '--resume=latest'], "--resume takes a run number (got 'latest'): crew run --resume 7, or crew run --resume for the latest run."],
    [['run', '--resume', '0'], "--resume needs a positive whole number (got '0')"],
    [['list', '--verbose'], 'crew list does not take --verbose (an option of crew run); crew list takes --project DIR.'],
    [['status', '-v'], 'crew status does not take -v (an option of crew run)'],
    [['status', '1', '--criteria', 'a'], 'crew status does not take --criteria'],
    [['list', '--colour'], "unknown option '--colour' for crew list"],
  ])('refuses %j, naming the flag', (argv, message) => {
    expect(() => parseArgs(argv, '/cwd')).toThrow(UsageError);
    expect(() => parseArgs(argv, '/cwd')).toThrow(message);
  });
});

describe('configuration of a local run', () => {
  it('layers crew.yml, the task file and the command line, merging nested keys', () => {
    expect(mergeConfig({ budgets: { run: { tokens: 5000 } }, max_parallel: 2 }, { budgets: { task: { tokens: 3000 } }, max_parallel: 4 })).toEqual({
      budgets: { run: { tokens: 5000 }, task: { tokens: 3000 } },
      max_parallel: 4,
    });
    const c = localConfig('max_iterations: 4\nmax_parallel: 3\n', { max_iterations: 6 }, { maxIterations: 2 }, '.github/crew.yml');
    expect(c.max_iterations).toBe(2);
    expect(c.max_parallel).toBe(3);
    expect(c.auto_merge).toBe(false);
    // Local runs are sandboxed unless the person says otherwise, on the command line: a repository or a task file cannot.
    expect(c.allow_unsandboxed).toBe(false);
    expect(localConfig('allow_unsandboxed: true\n', { allow_unsandboxed: true }, {}, '.github/crew.yml').allow_unsandboxed).toBe(false);
    expect(localConfig('', {}, { allowUnsandboxed: true }, '.github/crew.yml').allow_unsandboxed).toBe(true);
    // --provider and --fallback-provider go over the file's keys, with the provider's own model ids; a clash names the flags.
    const onBedrock = localConfig('provider: vertex\n', {}, { provider: 'bedrock', fallbackProvider: 'anthropic' }, '.github/crew.yml');
    expect(onBedrock.provider).toBe('bedrock');
    expect(onBedrock.models.sonnet).toMatch(/^(us\.)?anthropic\./);
    expect(onBedrock.fallback?.provider).toBe('anthropic');
    expect(() => localConfig('', {}, { provider: 'vertex', fallbackProvider: 'vertex' }, '.github/crew.yml')).toThrow(
      '--fallback-provider is vertex, the same as --provider',
    );
    expect(unsandboxedAskedIn('allow_unsandboxed: true\n', { allow_unsandboxed: true }, { config: '.github/crew.yml', task: 'task.yaml' })).toEqual([
      '.github/crew.yml',
      'task.yaml',
    ]);
    expect(unsandboxedAskedIn('allow_unsandboxed: false\n', {}, { config: '.github/crew.yml' })).toEqual([]);
  });

  it('names the file and the key of a bad value', () => {
    expect(() => localConfig('max_parallel: lots\n', {}, {}, '.github/crew.yml')).toThrow(ConfigError);
    expect(() => localConfig('max_parallel: lots\n', {}, {}, '.github/crew.yml')).toThrow(
      /\.github\/crew\.yml is not valid:\n- `max_parallel`: .*\(got "lots"\)/,
    );
    expect(() => localConfig(': :\n', {}, {}, '.github/crew.yml')).toThrow(/not valid YAML at line 1/);
  });
});

describe('terminal text', () => {
  const links = { branch: (b: string) => b, comment: (_i: number, id: number) => `#comment-${id}`, run: '.crew/runs/1/crew.log', stateFile: (p: string) => p };

  it('shows a plan comment without markup a terminal cannot render, with local commands', () => {
    const view = sampleView();
    const md = renderPlanComment(view, links, GITHUB);
    const text = withoutMarkerLines(renderPlanComment(view, links, terminalSurface(12)));
    expect(md).toContain('```mermaid');
    expect(text).not.toContain('<!--');
    expect(text).not.toContain('```mermaid');
    expect(text).not.toContain('<sub>');
    expect(text).not.toContain('**');
    expect(text).not.toContain('/crew ');
    expect(text).toContain('| Task | Persona | Model | Depends on | Status | Branch | Attempts |');
    expect(text).toContain('Next: crew run --resume 12');
    // The markers stay in what is stored, so crew finds its comments again; only the terminal leaves them out.
    expect(renderPlanComment(view, links, terminalSurface(12)).split('\n')[0]).toBe(md.split('\n')[0]);
  });

  it('words and marks up for the terminal what GitHub reads as markdown', () => {
    const s = terminalSurface(3);
    expect(`${sentence(s.give('resume'))} to continue.`).toBe('Type `crew run --resume 3` to continue.');
    expect(`${sentence(GITHUB.give('resume'))} to continue.`).toBe('Comment `/crew resume` to continue.');
    expect(`Reply ${s.command('retry')} or ${s.command('answer', '<text>')}.`).toBe('Reply `retry` or `answer <text>`.');
    expect(`Reply ${GITHUB.command('retry')} or ${GITHUB.command('answer', '<text>')}.`).toBe('Reply `/crew retry` or `/crew answer <text>`.');
    expect(s.give('remember', '<n>')).toBeNull();
    const marked = (x: typeof s) =>
      [x.details('Evidence', 'x'), '', `${x.bold('bold')} ${x.link('a/b', 'a/b', true)} ${x.commentLink('see', '#comment-3')}`].join('\n');
    expect(marked(terminalSurface(1))).toBe('▸ Evidence\n\nx\n\nbold a/b see');
    expect(marked(GITHUB)).toBe('<details><summary>Evidence</summary>\n\nx\n\n</details>\n\n**bold** [`a/b`](a/b) [see](#comment-3)');
    const failure = (x: typeof s) => failureComment('the route step', 'git failed', '.crew/runs/4/crew.log', `${x.seeTheLog}.`, x);
    expect(withoutMarkerLines(failure(terminalSurface(4)))).toBe(
      'crew stopped during the route step.\n\ngit failed\n\nWhat you can do: See the log for details.\n\nLog: .crew/runs/4/crew.log',
    );
    expect(failure(GITHUB)).toBe(
      '**crew stopped** during the route step.\n\ngit failed\n\n**What you can do:** Check the workflow log for details.\n\n<sub>[Workflow log](.crew/runs/4/crew.log)</sub>\n<!-- crew:failure -->',
    );
    const footer = (x: typeof s) =>
      [x.heading(`crew · run ${x.runNumber(4, 1)} · Done`), x.checkbox(true, 'tests pass'), `Requested by @me · ${x.link(x.runLogLabel, 'l/crew.log')}`].join(
        '\n',
      );
    expect(footer(terminalSurface(4))).toBe('crew · run 4 · Done\n✔ tests pass\nRequested by @me · log (l/crew.log)');
    expect(footer(GITHUB)).toBe('### crew · run 1 · Done\n- [x] tests pass\nRequested by @me · [workflow run](l/crew.log)');
  });

  it('leaves out only the lines that are crew’s markers', () => {
    const body = ['<!-- crew:plan issue=3 run=1 --><!-- crew:version v=4 -->', 'Run 3', 'see <!-- crew:x --> here', '', 'end', '<!-- crew:failure -->'].join(
      '\n',
    );
    expect(withoutMarkerLines(body)).toBe('Run 3\nsee <!-- crew:x --> here\n\nend');
  });

  it('prints plain lines on change in a log, and redraws in place on a terminal', () => {
    const view = sampleView();
    const plain: string[] = [];
    const log = new LiveView({ write: (t) => plain.push(t) }, false);
    log.update(view);
    const first = plain.length;
    expect(first).toBeGreaterThan(0);
    log.update(view);
    expect(plain.length).toBe(first);
    log.message('crew asks something');
    log.stop();
    expect(plain.join('')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(plain.join('')).toContain('crew asks something');

    const tty: string[] = [];
    const term = new LiveView({ write: (t) => tty.push(t) }, true);
    term.update(view);
    term.update(view);
    term.stop();
    expect(tty.join('')).toMatch(/\x1b\[\d+A\x1b\[J/);
  });
});
