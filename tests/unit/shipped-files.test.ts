import { validateAction, validateWorkflow } from '@action-validator/core';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { trajectoryJsonSchema } from '../../src/domain/trajectory';
import { configJsonSchema, configReference } from '../../src/config/reference';
import { CREW_VERSION } from '../../src/version';
import { lintedFiles, lintProblems } from '../../scripts/lint-workflows';
import { evaluateValue } from '../support/runner/expressions';

const root = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');
const workflowText = read('.github/workflows/crew.yml');
const workflow = parseYaml(workflowText) as {
  permissions: unknown;
  on: Record<string, unknown>;
  jobs: Record<string, { if?: string; permissions?: unknown; steps: Array<Record<string, any>> }>;
};

describe('the files users copy', () => {
  it('the version crew stamps into its reports is the package version', () => {
    expect(CREW_VERSION).toBe(JSON.parse(read('package.json')).version);
  });

  it('every workflow (crew.yml, ci.yml, release.yml) and action.yml pass a real validator, as crew’s CI lints them', () => {
    expect(lintedFiles()).toEqual([
      '.github/workflows/ci.yml',
      '.github/workflows/crew-jobs.yml',
      '.github/workflows/crew.yml',
      '.github/workflows/release.yml',
      'workflow-templates/crew.yml',
      'action.yml',
    ]);
    for (const file of lintedFiles()) expect(lintProblems(file), file).toEqual([]);
    // action-validator 0.6.0's schema predates the node24 runtime GitHub added in 2025: the lint swaps in node20 for it, and only that.
    expect(validateAction(read('action.yml')).errors.map((e) => ('path' in e ? e.path : e.code))).toEqual(['/runs']);
  });

  it('the validator does catch a broken workflow (so the check above means something)', () => {
    expect(validateWorkflow('on: push\njobs:\n  x:\n    steps: 3\n').errors.length).toBeGreaterThan(0);
    expect(validateAction(read('action.yml').replace('using: node24', 'using: python')).errors.length).toBeGreaterThan(0);
  });

  it('the full workflow in docs/install.md, which the tests run, is crew’s own but for `uses: ./`: crew runs on its own issues from its checkout', () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(read('docs/install.md'))?.[1];
    expect(workflowText.match(/uses: \.\/$/gm)).toHaveLength(6);
    expect(workflowText).not.toContain('your-org/crew');
    expect(block).toBe(workflowText.replace(/uses: \.\/$/gm, 'uses: your-org/crew@v1'));
    // `uses: ./` runs the checked-out code, so every job checks out the default branch, never a pull request's merge ref:
    // by name on any other ref; on the default branch the `ref` is empty, and actions/checkout takes GITHUB_SHA by id.
    const refOn = (ref: string, step: Record<string, any>) =>
      evaluateValue(step.with, { github: { ref, event: { repository: { default_branch: 'trunk' } } } }) as Record<string, unknown>;
    for (const [id, job] of Object.entries(workflow.jobs)) {
      expect(job.steps[0], id).toMatchObject({ uses: 'actions/checkout@v4' });
      expect(refOn('refs/pull/7/merge', job.steps[0]!).ref, `${id} on a review`).toBe('trunk');
      expect(refOn('refs/heads/crew/7/integration', job.steps[0]!).ref, `${id} on crew's branch`).toBe('trunk');
      expect(refOn('refs/heads/trunk', job.steps[0]!).ref, `${id} on the default branch`).toBe('');
    }
  });

  it('the configuration table in docs/configuration.md is generated from the schema', () => {
    const section = /<!-- config-reference:start -->\n([\s\S]*?)\n<!-- config-reference:end -->/.exec(read('docs/configuration.md'))?.[1];
    expect(section, 'run npm run config-docs').toBe(configReference());
  });

  it('the shipped JSON Schema for editors is generated from the same schema (npm run config-docs)', () => {
    expect(JSON.parse(read('schema/crew.schema.json'))).toEqual(configJsonSchema());
  });

  it('the trajectory JSON Schema is generated from the record schema (npm run config-docs)', () => {
    expect(JSON.parse(read('schema/trajectory.schema.json'))).toEqual(trajectoryJsonSchema());
  });

  it('action.yml runs on node24 from dist/ and documents every input crew reads', () => {
    const action = parseYaml(read('action.yml')) as { runs: { using: string; main: string }; inputs: Record<string, { description?: string }> };
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    const settings = read('src/settings.ts');
    const readsInputs = new Set([...settings.matchAll(/get\('([a-z_]+)'\)/g)].map((m) => m[1]!));
    for (const name of ['issue', 'run']) readsInputs.add(name);
    expect(new Set(Object.keys(action.inputs))).toEqual(readsInputs);
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toMatch(/\S{10,}/);
  });

  it('the workflow grants nothing by default and only what each job needs', () => {
    expect(workflow.permissions).toEqual({});
    // No trigger that runs a fork's code with write tokens. pull_request_target (write token, the default
    // branch's workflow) only for `closed`, only for the cleanup job, which runs only for crew's own head in
    // this repository, gets no secret, and checks out the default branch (below), never the pull request.
    expect(Object.keys(workflow.on).sort()).toEqual([
      'check_suite',
      'issue_comment',
      'issues',
      'pull_request_review',
      'pull_request_review_comment',
      'pull_request_target',
      'workflow_dispatch',
      'workflow_run',
    ]);
    expect(workflow.on.pull_request_target).toEqual({ types: ['closed'] });
    const onTarget = Object.entries(workflow.jobs).filter(([, job]) => String(job.if ?? '').includes("'pull_request_target'"));
    expect(onTarget.map(([id]) => id)).toEqual(['cleanup']);
    expect(String(workflow.jobs.cleanup!.if)).toContain('github.event.pull_request.head.repo.full_name == github.repository');
    expect(JSON.stringify(workflow.jobs.cleanup!.steps)).not.toMatch(/secrets\./);
    // Completed CI runs, by workflow name (GitHub starts workflow_run only for the workflows listed).
    expect(workflow.on.workflow_run).toEqual({ workflows: ['CI'], types: ['completed'] });
    // Review traffic is filtered to the activity crew reads: submitted reviews, created review comments.
    expect(workflow.on.pull_request_review).toEqual({ types: ['submitted'] });
    expect(workflow.on.pull_request_review_comment).toEqual({ types: ['created'] });
    // The least each job needs; a new scope must be argued for here, next to what uses it.
    expect(Object.fromEntries(Object.entries(workflow.jobs).map(([id, job]) => [id, job.permissions]))).toEqual({
      // state branch, /crew remember's branch · comments, reactions, label · dispatching ready tasks, reading a failed CI
      // job's log (fix_ci; write includes read) · /crew remember's PR, reading the PR a /crew is on · when CI fails on crew's
      // PR, the merge gate reads the checks on its head (#39)
      route: { contents: 'write', issues: 'write', actions: 'write', 'pull-requests': 'write', checks: 'read', statuses: 'read' },
      // task branch, state · plan comment, questions · dispatching the tasks it unblocks · a run's plan comment on a pull
      // request (commenting on a pull request's conversation needs pull-requests, not issues)
      work: { contents: 'write', issues: 'write', actions: 'write', 'pull-requests': 'write' },
      // integration branch, state · plan comment · restarting tasks nobody holds · a run's plan comment on a pull request ·
      // a follow-up that fails here looks at its pull request's CI (#38)
      advance: { contents: 'write', issues: 'write', actions: 'write', 'pull-requests': 'write', checks: 'read', statuses: 'read' },
      // state, integration · plan comment, decisions · the PR and its report · re-running tasks · the merge gate reads checks
      critic: { contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'write', checks: 'read', statuses: 'read' },
      // merging, state · plan comment · the report comment, merging · the merge gate reads checks, and which runs are crew's own
      merge: { contents: 'write', issues: 'write', 'pull-requests': 'write', checks: 'read', statuses: 'read', actions: 'read' },
      // deleting the run's branches, state · saying which branches it kept · whether the pull request is still closed, and a
      // comment when the run lives on a pull request (commenting there needs pull-requests)
      cleanup: { contents: 'write', issues: 'write', 'pull-requests': 'write' },
    });
    expect(workflowText).not.toMatch(/write-all|read-all/);
    for (const [id, job] of Object.entries(workflow.jobs)) {
      for (const step of job.steps) {
        if (String(step.uses ?? '').startsWith('actions/checkout@')) expect(step.with?.['persist-credentials'], id).toBe(false);
      }
    }
  });

  it('untrusted data never reaches a shell: no ${{ }} of event data, inputs or outputs inside a run: script', () => {
    expect(untrustedInScripts(workflow)).toEqual([]);
    expect(untrustedInScripts(parseYaml(read('.github/workflows/ci.yml')))).toEqual([]);
    expect(untrustedInScripts(parseYaml(read('.github/workflows/crew-jobs.yml')))).toEqual([]);
    expect(untrustedInScripts(parseYaml(read('.github/workflows/release.yml')))).toEqual([]);
    const action = parseYaml(read('action.yml')) as { runs: { steps?: Array<Record<string, unknown>> } };
    expect(untrustedInScripts({ jobs: { action: { steps: action.runs.steps ?? [] } } })).toEqual([]);
  });

  it('the lint above does catch each way of inlining untrusted data (so passing it means something)', () => {
    const bad = parseYaml(`
jobs:
  x:
    steps:
      - run: echo "\${{ github.event.issue.title }}"
      - run: |
          echo ok
          echo \${{ inputs.tasks }}
      - run: echo \${{needs.route.outputs.tasks}}
      - run: echo "\${{ steps.crew.outputs.issue }}"
      - run: echo \${{ matrix.task }} \${{ github.head_ref }}
      - uses: actions/github-script@v7
        with:
          script: console.log('\${{ github.event.comment.body }}')
      - run: echo "$TITLE"
        env:
          TITLE: \${{ github.event.issue.title }}
`) as typeof workflow;
    expect(untrustedInScripts(bad)).toEqual([
      'x step 1: github.event.issue.title',
      'x step 2: inputs.tasks',
      'x step 3: needs.route.outputs.tasks',
      'x step 4: steps.crew.outputs.issue',
      'x step 5: matrix.task',
      'x step 5: github.head_ref',
      'x step 6: github.event.comment.body',
    ]);
  });

  /**
   * GitHub keeps one pending run per concurrency group and cancels the older pending one,
   * whatever cancel-in-progress says (DESIGN.md §7). A group two runs can share could cancel a
   * queued `/crew answer` or `/crew abort`; only a group unique to the run (keyed by
   * github.run_id) is harmless. Returns the places that break that.
   */
  function cancellingGroups(text: string): string[] {
    const wf = parseYaml(text) as { concurrency?: unknown; jobs: Record<string, { concurrency?: unknown }> };
    const unique = (c: unknown) => /github\.run_id/.test(typeof c === 'string' ? c : String((c as { group?: unknown }).group ?? ''));
    const places = [['the workflow', wf.concurrency], ...Object.entries(wf.jobs).map(([id, job]) => [`job ${id}`, job.concurrency])] as Array<
      [string, unknown]
    >;
    return places.filter(([, c]) => c !== undefined && !unique(c)).map(([where]) => where);
  }

  it('no concurrency group can cancel a pending /crew run (one run per issue is a lock in the state instead)', () => {
    expect(cancellingGroups(workflowText)).toEqual([]);
    // The check catches a group at either level, and allows one keyed by the run itself.
    expect(
      cancellingGroups(workflowText.replace('permissions: {}\n', 'permissions: {}\nconcurrency:\n  group: crew-${{ github.event.issue.number }}\n')),
    ).toEqual(['the workflow']);
    expect(
      cancellingGroups(
        workflowText.replace(
          '    runs-on: ubuntu-latest\n    timeout-minutes: 30\n',
          '    runs-on: ubuntu-latest\n    timeout-minutes: 30\n    concurrency: crew-${{ github.event.issue.number }}\n',
        ),
      ),
    ).toEqual(['job route']);
    expect(
      cancellingGroups(
        workflowText.replace('permissions: {}\n', 'permissions: {}\nconcurrency:\n  group: crew-${{ github.run_id }}\n  cancel-in-progress: false\n'),
      ),
    ).toEqual([]);
  });
});

/**
 * Every \${{ … }} inside a shell script (`run:`) or a github-script `script:` that reads data
 * someone else controls: event payloads, workflow inputs, other jobs' or steps' outputs,
 * matrix values, branch names. Such data must reach a script through `env:`, where the
 * shell sees it as a value, never as code.
 */
function untrustedInScripts(wf: { jobs: Record<string, { steps: Array<Record<string, any>> }> }): string[] {
  const untrusted = /^(?:github\.event\b|github\.head_ref\b|inputs\.|needs\.[\w-]+\.outputs\b|steps\.[\w-]+\.outputs\b|matrix\.)/;
  const found: string[] = [];
  for (const [id, job] of Object.entries(wf.jobs)) {
    job.steps.forEach((step, i) => {
      const scripts = [step.run, String(step.uses ?? '').startsWith('actions/github-script@') ? step.with?.script : undefined].filter(
        (x): x is string => typeof x === 'string',
      );
      for (const script of scripts) {
        for (const m of script.matchAll(/\$\{\{([\s\S]*?)\}\}/g)) {
          for (const ref of m[1]!.match(/[A-Za-z_][\w.-]*(?:\.\*)?[\w.-]*/g) ?? []) if (untrusted.test(ref)) found.push(`${id} step ${i + 1}: ${ref}`);
        }
      }
    });
  }
  return found;
}

describe('the README, for a first visit', () => {
  const readme = read('README.md');
  it('opens with what crew does, the picture, the two fresh-machine commands and the install; about 120 lines', () => {
    const lines = readme.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(130);
    const firstScreen = lines.slice(0, 30).join('\n');
    expect(firstScreen).toContain('![crew');
    expect(firstScreen).toContain('npm ci && npm run demo');
    expect(firstScreen).toContain('npm test');
    expect(readme.indexOf('## Install in three steps')).toBeLessThan(readme.indexOf('## The first run'));
    expect(readme.indexOf('## The first run')).toBeLessThan(readme.indexOf('## Where to go next'));
    expect(existsSync(join(root, 'docs/images/plan-comment.svg'))).toBe(true);
  });

  it('shows the short caller file exactly as workflow-templates/crew.yml (what crew init writes), 30 lines or fewer', () => {
    const template = read('workflow-templates/crew.yml');
    const block = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(template);
    expect(template.trimEnd().split('\n').length).toBeLessThanOrEqual(30);
  });

  it('links every page the old README’s sections moved to, and every link from the README and those pages resolves', () => {
    const moved = ['install', 'commands', 'pull-requests', 'configuration', 'providers', 'local-mode', 'costs', 'agents', 'developing'];
    for (const page of moved) expect(readme, page).toContain(`(docs/${page}.md)`);
    for (const file of ['README.md', ...moved.map((p) => `docs/${p}.md`)]) {
      const dir = file === 'README.md' ? '' : 'docs';
      for (const [, target] of read(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        expect(existsSync(join(root, dir, target!)), `${file} → ${target}`).toBe(true);
      }
    }
    // The moved sections, each under its own heading somewhere in docs/.
    const docs = moved.map((p) => read(`docs/${p}.md`)).join('\n');
    for (const heading of [
      '## With a GitHub App token',
      '## Auto-merge',
      "## When CI fails on crew's pull request",
      '## Cleaning up after runs',
      '## On Amazon Bedrock or Google Cloud Vertex AI',
      '### Failover to a second provider',
    ])
      expect(docs).toContain(heading);
  });
});

type Job = { if?: string; needs?: unknown; permissions?: Record<string, string>; steps: Array<Record<string, any>>; [k: string]: unknown };
const shortText = read('workflow-templates/crew.yml');
const short = parseYaml(shortText) as { on: Record<string, unknown>; permissions: unknown; jobs: Record<string, Record<string, any>> };
const SETUP_USES = './.github/actions/crew-setup';
const called = parseYaml(read('.github/workflows/crew-jobs.yml')) as {
  on: { workflow_call: { secrets: Record<string, { required: boolean }> } };
  permissions: unknown;
  jobs: Record<string, Job>;
};

describe('the short workflow (workflow-templates/crew.yml) and the reusable workflow it calls (crew-jobs.yml)', () => {
  it("is 30 lines or fewer: the full form's triggers, nothing granted by default, and one job calling crew-jobs.yml at a tag with the secret", () => {
    expect(shortText.trimEnd().split('\n').length).toBeLessThanOrEqual(30);
    const dispatchInputs = (on: Record<string, any>) => Object.keys(on.workflow_dispatch.inputs);
    expect(short.on).toEqual({ ...workflow.on, workflow_dispatch: short.on.workflow_dispatch });
    expect(dispatchInputs(short.on)).toEqual(dispatchInputs(workflow.on));
    expect(short.permissions).toEqual({});
    expect(Object.keys(short.jobs)).toEqual(['crew']);
    expect(short.jobs.crew!.uses).toBe('your-org/crew/.github/workflows/crew-jobs.yml@v1');
    // CREW_ENV is optional: unset, it is empty in crew's jobs (#51).
    expect(short.jobs.crew!.secrets).toEqual({ ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}', CREW_ENV: '${{ secrets.CREW_ENV }}' });
    expect(called.on.workflow_call.secrets).toMatchObject({ CREW_ENV: { required: false } });
    expect(Object.keys(called.on.workflow_call.secrets).sort()).toEqual(['ANTHROPIC_API_KEY', 'CREW_ENV', 'CREW_GITHUB_TOKEN']);
  });

  it("grants exactly what crew's jobs ask for together: less and GitHub refuses the run (a called job gets no more than its caller)", () => {
    const union: Record<string, string> = {};
    for (const job of Object.values(called.jobs))
      for (const [scope, access] of Object.entries(job.permissions ?? {})) if (union[scope] !== 'write') union[scope] = access;
    expect(short.jobs.crew!.permissions).toEqual(union);
    expect(called.permissions).toEqual({});
  });

  it('checks out the repository in every job but merge and cleanup, which need no working tree', () => {
    const repositoryCheckouts = (job: Job) => job.steps.filter((s) => s.uses === 'actions/checkout@v4' && !s.with?.repository).length;
    expect(Object.fromEntries(Object.entries(called.jobs).map(([id, job]) => [id, repositoryCheckouts(job as Job)]))).toEqual({
      route: 1,
      work: 1,
      advance: 1,
      critic: 1,
      merge: 0,
      cleanup: 0,
    });
  });

  it("holds the full form's jobs, each the same but for running crew from its own checkout at the commit of the workflow", () => {
    expect(Object.keys(called.jobs)).toEqual(Object.keys(workflow.jobs));
    for (const [id, full] of Object.entries(workflow.jobs) as Array<[string, Job]>) {
      const job = called.jobs[id]!;
      // A dispatch's inputs are in github.event.inputs: a called workflow's `inputs` are its own (it declares none).
      const same = (v: unknown) => JSON.parse(JSON.stringify(v ?? null).replace(/\binputs\./g, 'github.event.inputs.')) as unknown;
      // The repository's setup steps are the same step in both forms (checked in the test below).
      const notSetup = (steps: Job['steps']) => steps.filter((st) => st.uses !== SETUP_USES);
      const [fullSteps, calledSteps] = [notSetup(full.steps), notSetup(job.steps)];
      const { steps: _full, ...fullRest } = full;
      const { steps: _called, ...rest } = job;
      expect(rest, id).toEqual(same(fullRest));
      // The default branch, as in the full form, but for the merge and cleanup jobs, which run none of the repository's
      // code and read crew's files over the contents API; then crew at job.workflow_sha (docs: "Contexts", job
      // context), inside .git where no commit, agent or setup command sees it; then crew from there.
      const steps = id === 'merge' || id === 'cleanup' ? [fullSteps[0]!, ...calledSteps] : calledSteps;
      expect(steps[0], id).toEqual(fullSteps[0]);
      expect(steps[1], id).toEqual({
        uses: 'actions/checkout@v4',
        with: {
          repository: '${{ job.workflow_repository }}',
          ref: '${{ job.workflow_sha }}',
          path: '.git/crew-action',
          // Cone mode: the top-level files (action.yml) and these folders, what the action reads; none of crew's tests or fixtures.
          'sparse-checkout': 'dist\ntemplates\n.github/workflows\n',
          'persist-credentials': false,
        },
      });
      expect(steps.slice(2).map((s) => s.uses)).toEqual(['./.git/crew-action']);
      const crew = { ...steps[2], with: { ...steps[2]!.with } };
      // An App or personal token when the caller passes one; none for cleanup, which runs on pull_request_target.
      if (id === 'cleanup') expect(crew.with.github_token).toBeUndefined();
      else expect(crew.with.github_token, id).toBe('${{ secrets.CREW_GITHUB_TOKEN || github.token }}');
      delete crew.with.github_token;
      expect(crew, id).toEqual(same({ ...fullSteps[1], uses: './.git/crew-action' }));
    }
  });
});

describe("the repository's own setup steps (#51)", () => {
  it('run in the jobs that run its code (work, critic), in both forms, right before crew, from the checkout of the default branch, and only when the action exists', () => {
    for (const [form, jobs] of [
      ['full', workflow.jobs],
      ['short', called.jobs],
    ] as const) {
      const calling = Object.entries(jobs as Record<string, Job>).filter(([, j]) => j.steps.some((st) => st.uses === SETUP_USES));
      expect(
        calling.map(([id]) => id),
        form,
      ).toEqual(['work', 'critic']);
      for (const [id, j] of calling) {
        const at = j.steps.findIndex((st) => st.uses === SETUP_USES);
        expect(j.steps[at], `${form} ${id}`).toMatchObject({ if: "hashFiles('.github/actions/crew-setup/action.yml') != ''" });
        expect(j.steps[at]!.with, `${form} ${id}`).toBeUndefined();
        // After the checkout of the default branch (the first step), and the step right before crew's.
        expect(j.steps[0]!.with?.repository, `${form} ${id}`).toBeUndefined();
        expect(at, `${form} ${id}`).toBe(j.steps.length - 2);
      }
    }
  });
});

describe('docs/ARCHITECTURE.md', () => {
  it('“Where to make common changes” names only paths that exist', () => {
    const section = /## Where to make common changes\n([\s\S]*?)\n## /.exec(read('docs/ARCHITECTURE.md'))?.[1] ?? '';
    // Names that are not files of this repository: the branch crew keeps its state on, and a user's config file.
    const notFiles = new Set(['crew/state', '.github/crew.yml']);
    const named = [...section.matchAll(/`([\w.-]+(?:\/[\w.-]+)+\/?)`/g)].map((m) => m[1]!).filter((p) => !notFiles.has(p));
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });
});
