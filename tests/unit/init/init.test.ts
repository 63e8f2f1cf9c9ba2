import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/cli/args';
import { main } from '../../../src/cli/main';
import { FIXTURE_IDENTITY, git } from '../../support/git-cli';
import { init, InitDeclined, workflowText } from '../../../src/init/index';
import { PROJECT_ROOT } from '../../support/scenario/run-scenario';
import { clones } from './clone';

const SHORT_FORM = readFileSync(join(PROJECT_ROOT, 'workflow-templates', 'crew.yml'), 'utf8');
const clone = clones();

const NPM = { 'package.json': JSON.stringify({ name: 'x', scripts: { test: 'node --test' } }), 'package-lock.json': '{}' };

function run(dir: string, opts: { yes?: boolean; answers?: boolean[]; form?: 'short' | 'full' } = {}) {
  const said: string[] = [];
  const asked: string[] = [];
  const answers = [...(opts.answers ?? [])];
  const result = init({
    dir,
    form: opts.form ?? 'short',
    yes: opts.yes ?? false,
    ...(opts.answers ? { ask: async (q: string) => (asked.push(q), answers.shift() ?? false) } : {}),
    say: (t) => said.push(t),
    githubRepo: 'acme/widgets',
  });
  return { result, said, asked };
}

describe('crew init', () => {
  it('shows both files and what it found, asks once, writes them, and ends with the commands and the setting left', async () => {
    const dir = await clone(NPM);
    const { result, said, asked } = run(dir, { answers: [true] });
    expect((await result).written).toEqual(['.github/workflows/crew.yml', '.github/crew.yml']);
    expect(asked).toEqual(['Write .github/workflows/crew.yml and .github/crew.yml? [y/N]']);
    expect(await readFile(join(dir, '.github/workflows/crew.yml'), 'utf8')).toBe(SHORT_FORM);
    const config = await readFile(join(dir, '.github/crew.yml'), 'utf8');
    expect(config).toContain('setup:\n  - "npm ci"\n');
    const text = said.join('\n');
    expect(text).toContain('Found: npm (package-lock.json).');
    expect(text).toContain('Proposed criteria: npm test');
    // The files are shown before the question.
    expect(text.indexOf('uses: your-org/crew/.github/workflows/crew-jobs.yml@v1')).toBeGreaterThan(0);
    expect(text).toContain('git add .github/workflows/crew.yml .github/crew.yml && git commit -m "Set up crew" && git push');
    expect(text).toContain('gh secret set ANTHROPIC_API_KEY');
    expect(text).toContain(
      '"Allow GitHub Actions to create and approve pull requests" (Workflow permissions) at\n       https://github.com/acme/widgets/settings/actions',
    );
  });

  it('writes nothing when the answer is no, or when there is no terminal to ask and no --yes', async () => {
    const dir = await clone(NPM);
    await expect(run(dir, { answers: [false] }).result).rejects.toThrow(
      new InitDeclined('Nothing written. Run crew init again when you want .github/workflows/crew.yml and .github/crew.yml.'),
    );
    await expect(run(dir).result).rejects.toThrow(/asks before writing them; run it in a terminal, or pass --yes/);
    expect(existsSync(join(dir, '.github'))).toBe(false);
  });

  it('never replaces a file with --yes; replaces one only on a yes at its own prompt; leaves one that is already right', async () => {
    const mine = '# my own crew workflow\n';
    const dir = await clone({ ...NPM, '.github/workflows/crew.yml': mine });
    const withYes = run(dir, { yes: true });
    expect((await withYes.result).written).toEqual(['.github/crew.yml']);
    expect(await readFile(join(dir, '.github/workflows/crew.yml'), 'utf8')).toBe(mine);
    expect(withYes.said.join('\n')).toContain('Kept your .github/workflows/crew.yml: crew init replaces a file only when you say so at its prompt');

    const asked = run(dir, { answers: [true] });
    expect((await asked.result).written).toEqual(['.github/workflows/crew.yml']);
    expect(asked.asked).toEqual(['Replace your .github/workflows/crew.yml with this? [y/N]']);
    expect(asked.said.join('\n')).toContain('.github/crew.yml is already what crew init would write.');
    expect(await readFile(join(dir, '.github/workflows/crew.yml'), 'utf8')).toBe(SHORT_FORM);
  });

  it('writes nothing through a symbolic link a cloned repository planted: not a dangling one, not a linked folder, not one to a file of yours (#46)', async () => {
    const outside = await clone({ '.bashrc': 'mine\n' });
    const dir = await clone(NPM);
    // .github is a link to a folder outside the checkout; in a second clone the workflow file is a dangling link, and the config one to a file of yours.
    await symlink(outside, join(dir, '.github'));
    const linked = run(dir, { yes: true });
    expect((await linked.result).written).toEqual([]);
    expect(linked.said.join('\n')).toContain(
      "Not writing .github/workflows/crew.yml: .github is a symbolic link, and crew init writes no file through one (a cloned repository can plant a link that points anywhere, your shell's startup file say). Remove the link, or write .github/workflows/crew.yml yourself.",
    );
    expect(existsSync(join(outside, 'workflows'))).toBe(false);
    expect(existsSync(join(outside, 'crew.yml'))).toBe(false);

    const other = await clone(NPM);
    await mkdir(join(other, '.github', 'workflows'), { recursive: true });
    await symlink(join(outside, 'planted.yml'), join(other, '.github', 'workflows', 'crew.yml'));
    await symlink(join(outside, '.bashrc'), join(other, '.github', 'crew.yml'));
    const files = run(other, { answers: [true, true] });
    expect((await files.result).written).toEqual([]);
    expect(files.asked).toEqual([]);
    expect(existsSync(join(outside, 'planted.yml'))).toBe(false);
    expect(await readFile(join(outside, '.bashrc'), 'utf8')).toBe('mine\n');
    expect(files.said.join('\n')).toContain('Not writing .github/crew.yml: .github/crew.yml is a symbolic link');
  });

  it('the short form it writes is workflow-templates/crew.yml, 30 lines or fewer; the full form runs crew’s action at its release', async () => {
    expect(await workflowText('short')).toBe(SHORT_FORM);
    expect(SHORT_FORM.trimEnd().split('\n').length).toBeLessThanOrEqual(30);
    const full = await workflowText('full');
    expect(full).not.toMatch(/uses: \.\/$/m);
    expect(full).toMatch(/uses: your-org\/crew@v1$/m);
  });

  it('`crew init` with no terminal and no --yes writes nothing and exits 1; with --yes it writes and exits 0', async () => {
    const dir = await clone(NPM);
    const env = { ...FIXTURE_IDENTITY, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    await git(['init', '--quiet'], { cwd: dir, env });
    await git(['add', '-A'], { cwd: dir, env });
    await git(['commit', '--quiet', '-m', 'x'], { cwd: dir, env });
    let out = '';
    const write = { write: (t: string) => void (out += t) };
    expect(await main(['init', '--project', dir], write, false)).toBe(1);
    expect(out).toContain('crew: crew init shows the files and asks before writing them; run it in a terminal, or pass --yes');
    expect(existsSync(join(dir, '.github'))).toBe(false);
    out = '';
    expect(await main(['init', '--yes', '--project', dir], write, false)).toBe(0);
    expect(out).toContain('Wrote .github/workflows/crew.yml.');
    expect(out).toContain('Wrote .github/crew.yml.');
  });

  it('crew init and crew doctor on the command line', () => {
    expect(parseArgs(['init'], '/w')).toEqual({ kind: 'init', project: '/w', yes: false, form: 'short' });
    expect(parseArgs(['init', '-y', '--form', 'full', '--project', '/p'], '/w')).toEqual({ kind: 'init', project: '/p', yes: true, form: 'full' });
    expect(() => parseArgs(['init', '--form', 'long'], '/w')).toThrow(
      "--form is short (one job that calls crew's reusable workflow) or full (every job in your file); got 'long'.",
    );
    expect(() => parseArgs(['init', '--verbose'], '/w')).toThrow(
      'crew init does not take --verbose (an option of crew run); crew init takes --project DIR, --yes, --form short|full.',
    );
    expect(parseArgs(['doctor', '--json'], '/w')).toEqual({ kind: 'doctor', project: '/w', json: true });
    expect(parseArgs(['doctor', '--repo', 'acme/widgets'], '/w')).toEqual({ kind: 'doctor', project: '/w', json: false, repo: 'acme/widgets' });
    expect(() => parseArgs(['doctor', 'now'], '/w')).toThrow("crew doctor takes no arguments (got 'now')");
  });
});
