/**
 * `npm run demo [-- --out DIR] [--provider anthropic|bedrock|vertex] [--follow-up]`: plays scenarios/demo.yaml
 * on the offline world and prints what a maintainer would see on GitHub, step by step. With
 * `--provider`, crew reaches the model through the fake Amazon Bedrock or Vertex AI, with the
 * README's workflow for that provider (its auth action in each job that calls the model). The
 * result (result.json, job logs, the repository) goes to DIR, by default .scenario-out/demo.
 * With `--follow-up` it plays tests/scenarios/pr-follow-up.yaml instead: crew's pull request gets
 * line comments and a `/crew` review, and a follow-up run adds commits to the same pull request.
 */
import { join, resolve } from 'node:path';
import { loadScenario, PROJECT_ROOT, runScenario } from '../tests/support/scenario/run-scenario';

function outDir(argv: string[]): string {
  const i = argv.indexOf('--out');
  if (i < 0) return join(PROJECT_ROOT, '.scenario-out', 'demo');
  const dir = argv[i + 1];
  if (!dir) {
    console.error(`--out needs a folder.\n${USAGE}`);
    process.exit(2);
  }
  return resolve(dir);
}

const USAGE = 'usage: npm run demo [-- --out DIR] [--provider anthropic|bedrock|vertex] [--follow-up]';

function providerOf(argv: string[]): 'anthropic' | 'bedrock' | 'vertex' {
  const i = argv.indexOf('--provider');
  if (i < 0) return 'anthropic';
  const p = argv[i + 1];
  if (p !== 'anthropic' && p !== 'bedrock' && p !== 'vertex') {
    console.error(`--provider takes anthropic, bedrock or vertex${p ? `, not '${p}'` : ''}.\n${USAGE}`);
    process.exit(2);
  }
  return p;
}

const out = outDir(process.argv.slice(2));
/** The follow-up story: the scenario the e2e test plays (tests/e2e/follow-ups.test.ts). */
const followUp = process.argv.includes('--follow-up');
const provider = providerOf(process.argv.slice(2));
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[22m` : s);
const dim = (s: string) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[22m` : s);

/** What a reader sees: hidden markers removed. */
const visible = (body: string) => body.replace(/<!--[\s\S]*?-->/g, '').trim();
const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

/** The lines of the plan comment that change as the run goes: the title, progress and task rows. */
function planDigest(body: string): string {
  return visible(body)
    .split('\n')
    .filter((l) => l.startsWith('### ') || l.includes('tasks done') || /^\| \*\*t\d+\*\*/.test(l))
    .map((l) => l.replace(/\[`([^`]+)`\]\([^)]*\)/g, '$1'))
    .join('\n');
}

async function main() {
  const { scenario, dir } = await loadScenario(
    followUp ? join(PROJECT_ROOT, 'tests', 'scenarios', 'pr-follow-up.yaml') : join(PROJECT_ROOT, 'scenarios', 'demo.yaml'),
  );
  if (provider !== 'anthropic') {
    scenario.provider = provider;
    scenario.config = `${scenario.config ?? ''}\nprovider: ${provider}\n`;
    scenario.secrets = {};
  }
  console.log(bold(`crew demo: ${scenario.description.trim()}`));
  if (provider !== 'anthropic')
    console.log(
      dim(`The model is reached through ${provider === 'bedrock' ? 'Amazon Bedrock' : 'Vertex AI'} (a local fake of it), with the README's workflow for it.`),
    );
  console.log(
    dim("Everything runs on this machine: a local GitHub, a scripted Anthropic API, and crew's own workflow file run job by job with dist/index.js.\n"),
  );
  console.log(`${bold(`Issue #1 in ${scenario.repo.owner}/${scenario.repo.name}:`)} ${scenario.issue.title}`);
  console.log(indent(scenario.issue.body.trim()));
  console.log();
  let planEdits = 0;
  const result = await runScenario(scenario, {
    baseDir: dir,
    outDir: out,
    hooks: {
      onStep(step) {
        if ('comment' in step) console.log(`${bold(`@${step.author} comments:`)} ${step.comment}\n`);
        if ('review_comment' in step)
          console.log(
            `${bold(`@${step.review_comment.author} comments on ${step.review_comment.path} line ${step.review_comment.line}:`)} ${step.review_comment.body}\n`,
          );
        if ('resolve_thread' in step) console.log(`${bold('A reviewer resolves the thread')} ${step.resolve_thread.body}\n`);
        if ('review' in step) console.log(`${bold(`@${step.review.author} submits a review (${step.review.event}):`)} ${step.review.body}\n`);
      },
      onCrewComment({ body, edited }) {
        if (body.includes('<!-- crew:plan')) {
          planEdits++;
          console.log(bold(edited ? `crew edits its plan comment (edit ${planEdits - 1}):` : 'crew posts its plan comment:'));
          console.log(indent(edited ? planDigest(body) : visible(body)));
          console.log();
        } else if (!body.includes('<!-- crew:report')) {
          console.log(bold('crew comments:'));
          console.log(indent(visible(body)));
          console.log();
        }
      },
      onJobDone(run, job) {
        console.log(dim(`  [actions] ${run.event} run ${run.id}: job "${job.name}" ${job.result}`));
      },
    },
  });
  const plan = result.issue.comments.find((c) => c.body.includes('<!-- crew:plan'));
  if (plan) {
    console.log(bold('\nThe plan comment at the end:'));
    console.log(indent(visible(plan.body)));
  }
  console.log(bold('\nBranches crew pushed:'));
  for (const b of result.branches.filter((b) => b.name.startsWith('crew/'))) console.log(`    ${b.name.padEnd(28)} ${b.sha.slice(0, 7)}`);
  for (const pr of result.pulls) {
    console.log(bold(`\nPull request #${pr.number}: ${pr.title}`) + `  (${pr.head} → ${pr.base}, ${pr.state})`);
    console.log(`    files changed: ${pr.files.join(', ')}`);
    console.log(indent(visible(pr.body ?? '')));
    for (const c of pr.comments) {
      const what = c.body.includes('<!-- crew:retro') ? 'Retrospective' : c.body.includes('<!-- crew:report') ? 'Report' : 'Comment';
      console.log(bold(`\n  ${what} on #${pr.number}:`));
      console.log(indent(visible(c.body)));
    }
  }
  const failed = result.jobs.filter((j) => j.result === 'failure');
  console.log(bold('\nWhat it cost:'));
  console.log(
    `    ${result.jobs.length} jobs (${failed.length} failed) in ${(result.wallMs / 1000).toFixed(1)} s · ${result.github.crew.total} GitHub REST requests (${result.github.crew.writes} writes) · ${result.model.requests} model requests, ${result.model.tokens.input + result.model.tokens.cacheRead + result.model.tokens.cacheWrite} input tokens`,
  );
  console.log(
    `\nEverything above, plus job logs, is in ${join(out, 'result.json')} and ${join(out, 'logs')}/; the repository as crew left it is ${join(out, 'repo.git')}`,
  );
  const wrongPlace = provider === 'anthropic' ? 0 : result.model.requests - (result.model.byPlatform[provider] ?? 0);
  if (wrongPlace) console.error(`\n${wrongPlace} model requests did not go through ${provider}.`);
  // The follow-up story ends with a second run on the same pull request (its report comment edited in place).
  const followedUp = !followUp || result.pulls[0]?.comments.some((c) => c.body.includes('<!-- crew:report issue=1 run=2 -->'));
  const ok =
    followedUp &&
    wrongPlace === 0 &&
    result.pulls.length === 1 &&
    failed.length === 0 &&
    result.github.violations.length === 0 &&
    result.runnerErrors.length === 0;
  if (!ok) {
    console.error('\nThe demo did not end as expected; see the result file for details.');
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : String(e));
  process.exit(1);
});
