import { git } from '../git-cli';
import type { FakeGitHub } from '../github/fake-github';
import type { Plan } from '../../../src/domain/plan';
import { CREW_GIT_IDENTITY } from '../../../src/domain/retention';
import { newRunRecord, newTaskRecord, type RunRecord, type RunView, type TaskRecord } from '../../../src/domain/run-state';
import { executionLog, paths } from '../../../src/state/run-files';

/**
 * A long history on crew/state, written straight into the fake's repository (not played run by
 * run): finished runs with the files a real run leaves (18 to 35 KB each: its record, plan, task
 * records, results and their attempts, execution log, judgment, jobs, report, summary and
 * retrospective), each in several commits, as its jobs would have written it. Their text is made of
 * words picked by a seeded generator, so it compresses about as badly as real prose, not better.
 */

export interface SeededRun {
  issue: number;
  run: number;
  phase: 'COMPLETED' | 'FAILED' | 'ABORTED';
  /** When the run ended (its pull request closed or merged, or it failed or was aborted). */
  endedAt: string;
  /** For a COMPLETED run: how its pull request ended (its record says so). */
  pull?: 'merged-by-crew' | 'merged' | 'closed';
  /** crew already dealt with its branches (a run that ended after crew learnt to clean up). */
  cleaned?: boolean;
  /** Task statuses; a `running` one is claimed by a job at `endedAt`. Default: three tasks that succeeded. */
  tasks?: Array<TaskRecord['status']>;
}

const WORDS = (
  'the a to of and in is it for on with as was at by an be this that from or are which not but have has had were will can all ' +
  'function test file branch change value return error result string number array object module import export const type ' +
  'slugify trim split join parse format render update check criterion worker critic review commit merge report summary ' +
  'plan task attempt evidence command output passes fails line path source readme docs index spec helper case empty unicode ' +
  'space dash lower upper title word letter character input expected actual because added removed kept renamed moved fixed'
).split(' ');

/** A deterministic generator (mulberry32), so every seeded run reads the same in every test. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function prose(rand: () => number, bytes: number): string {
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const n = 6 + Math.floor(rand() * 14);
    const words = Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
    const sentence = `${words.join(' ')}.`;
    out.push(sentence.charAt(0).toUpperCase() + sentence.slice(1));
    size += sentence.length + 1;
  }
  return out.join(rand() < 0.2 ? '\n\n' : ' ');
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The files of one finished run, as crew would have left them, in the order its jobs wrote them (one commit each). */
export function seededRunCommits(s: SeededRun): Array<{ message: string; files: Record<string, string | null> }> {
  const rand = random(s.issue * 1000 + s.run);
  const end = Date.parse(s.endedAt);
  const start = end - 40 * 60_000;
  const { issue, run } = s;
  const statuses = s.tasks ?? ['success', 'success', 'success'];
  const plan: Plan = {
    summary: prose(rand, 160),
    criteria: [
      { id: 'c1', text: 'The tests pass', kind: 'command', command: 'npm test' },
      { id: 'c2', text: prose(rand, 80), kind: 'semantic' },
    ],
    tasks: statuses.map((_, i) => ({
      id: `t${i + 1}`,
      title: prose(rand, 40),
      description: prose(rand, 300),
      persona: i % 2 ? 'writer' : 'coder',
      tier: i % 2 ? 'haiku' : 'sonnet',
      dependsOn: i ? ['t1'] : [],
      files: [`src/part${i + 1}.js`],
      criteria: [prose(rand, 60)],
    })),
  };
  const pr =
    s.phase === 'COMPLETED'
      ? {
          number: 10_000 + issue * 10 + run,
          url: `https://github.com/acme/widgets/pull/${10_000 + issue * 10 + run}`,
          reportCommentId: 4_000_000_000 + issue * 10 + run,
        }
      : null;
  const base = newRunRecord({
    issue,
    run,
    mode: 'run',
    title: prose(rand, 50),
    requestedBy: 'maintainer',
    trigger: { commentId: 3_000_000_000 + issue * 10 + run, createdAt: iso(start) },
    base: { branch: 'main', sha: 'a'.repeat(40) },
    now: iso(start),
    host: 'actions',
  });
  const tasks: TaskRecord[] = statuses.map((status, i) => ({
    ...newTaskRecord(`t${i + 1}`, `crew/${issue}/r${run}/t${i + 1}`),
    status,
    attempts: 1,
    startedAt: iso(start + (i + 2) * 60_000),
    finishedAt: status === 'running' ? null : iso(start + (i + 8) * 60_000),
    claim: status === 'running' ? { runId: '8000000001', nonce: 'seed', at: s.endedAt } : null,
    headSha: 'b'.repeat(40),
    usage: { inputTokens: 40_000, outputTokens: 3_000, cacheReadTokens: 20_000, cacheWriteTokens: 5_000, costUsd: 0.21 },
    turns: 9,
    summary: prose(rand, 120),
    changedFiles: [`src/part${i + 1}.js`],
  }));
  const ended = iso(end);
  const record: RunRecord = {
    ...base,
    phase: s.phase,
    planVersion: 1,
    version: 14,
    planCommentId: 3_500_000_000 + issue * 10 + run,
    pr,
    updatedAt: ended,
    usage: { inputTokens: 60_000, outputTokens: 6_000, cacheReadTokens: 30_000, cacheWriteTokens: 9_000, costUsd: 0.4 },
    failure: s.phase === 'COMPLETED' ? null : { step: s.phase === 'ABORTED' ? 'abort' : 'the tasks', message: prose(rand, 60) },
    review:
      s.phase === 'COMPLETED'
        ? { iteration: 1, verdict: 'PASS', headSha: 'c'.repeat(40), met: { c1: true, c2: true }, acceptedBy: null, allowance: 0, rerun: [] }
        : null,
    merge:
      s.pull === 'merged-by-crew'
        ? { state: 'merged', reason: '', headSha: 'c'.repeat(40), mergeSha: 'd'.repeat(40), at: ended }
        : s.phase === 'COMPLETED'
          ? { state: 'not-merged', reason: 'auto_merge is off', headSha: 'c'.repeat(40), mergeSha: null, at: iso(end - 60_000) }
          : null,
    prClosed: s.pull === 'merged' || s.pull === 'closed' ? { merged: s.pull === 'merged', at: ended, by: 'maintainer' } : null,
    cleanup: s.cleaned ? { at: ended, deleted: statuses.map((_, i) => `crew/${issue}/r${run}/t${i + 1}`), kept: [], refused: null } : null,
    retro: { commentId: 4_100_000_000 + issue * 10 + run, url: `https://github.com/acme/widgets/issues/${issue}#issuecomment-1`, mode: 'light' },
  };
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  const view: RunView = { run: record, plan, tasks: new Map(tasks.map((t) => [t.id, t])), jobs: [] };
  const commits: Array<{ message: string; files: Record<string, string | null> }> = [];
  const at = (what: string) => `issue #${issue} run ${run}: ${what}`;
  commits.push({
    message: at('start a run'),
    files: {
      [paths.request(issue, run)]: `# ${record.title}\n\n${prose(rand, 700)}\n`,
      [paths.requestJson(issue, run)]: json({ title: record.title, body: prose(rand, 700) }),
    },
  });
  const planFiles: Record<string, string> = {
    [paths.planJson(issue, run)]: json(plan),
    [paths.planMd(issue, run)]: `# Plan\n\n${prose(rand, 1000)}\n`,
    [paths.intake(issue, run)]: json({ task: prose(rand, 200), criteria: plan.criteria }),
  };
  for (const t of plan.tasks) planFiles[paths.taskMd(issue, run, t.id)] = `# ${t.title}\n\n${t.description}\n`;
  commits.push({ message: at('plan'), files: planFiles });
  for (const t of tasks) {
    const result = `---\nstatus: ${t.status}\nquality: GREEN\ncompleteness: 100\n---\n# Result of ${t.id}\n\n${prose(rand, 1700)}\n<!-- COMPLETE -->\n`;
    commits.push({
      message: at(`${t.id} ${t.status}`),
      files: {
        [paths.taskJson(issue, run, t.id)]: json(t),
        [paths.attemptResult(issue, run, t.id, 1)]: result,
        ...(t.status === 'running' ? {} : { [paths.result(issue, run, t.id)]: result }),
        [paths.job(issue, run, `80000${issue}${run}-1-work-${t.id}`)]: json({
          id: `80000${issue}${run}-1-work-${t.id}`,
          step: 'work',
          task: t.id,
          startedAt: t.startedAt,
          lastAt: t.finishedAt ?? t.startedAt,
        }),
      },
    });
  }
  const last: Record<string, string> = {
    [paths.run(issue, run)]: json(record),
    [paths.log(issue, run)]: executionLog(view),
    [paths.report(issue, run)]: `# Report\n\n${prose(rand, 3200)}\n`,
    [paths.reportSummary(issue, run)]: `${prose(rand, 1400)}\n`,
    [paths.retrospective(issue, run)]: `# Retrospective\n\n${prose(rand, 1000)}\n`,
    [paths.retrospectiveJson(issue, run)]: json({ mode: 'light', proposals: [prose(rand, 300), prose(rand, 300)] }),
  };
  if (record.review) last[paths.judgment(issue, run, 1)] = json({ verdict: 'PASS', headSha: 'c'.repeat(40), criteria: [prose(rand, 600), prose(rand, 600)] });
  commits.push({ message: at(`ended (${s.phase.toLowerCase()})`), files: last });
  return commits;
}

/**
 * Writes the runs onto crew/state in one `git fast-import`: every run's commits, one after another,
 * on top of whatever the branch holds. Returns how many commits the branch gained.
 */
export async function seedStateHistory(gh: FakeGitHub, runs: readonly SeededRun[]): Promise<number> {
  const parent = await gh.repo.branchSha('crew/state');
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const who = `${CREW_GIT_IDENTITY.name} <${CREW_GIT_IDENTITY.email}>`;
  let stream = '';
  let count = 0;
  for (const run of [...runs].sort((a, b) => a.endedAt.localeCompare(b.endedAt))) {
    for (const c of seededRunCommits(run)) {
      const when = `${Math.floor(Date.parse(run.endedAt) / 1000)} +0000`;
      stream += `commit refs/heads/crew/state\nauthor ${who} ${when}\ncommitter ${who} ${when}\n${data(c.message)}`;
      if (count === 0 && parent) stream += `from ${parent}\n`;
      for (const [path, content] of Object.entries(c.files)) stream += content === null ? `D ${path}\n` : `M 100644 inline ${path}\n${data(content)}`;
      count++;
    }
  }
  await git(['fast-import', '--quiet', '--force', '--done'], { cwd: gh.repo.dir, input: `${stream}done\n` });
  return count;
}

/** crew's branches of a seeded run: one commit by crew's identity on main per task named. */
export async function seedRunBranches(gh: FakeGitHub, run: SeededRun, leaves: readonly string[]): Promise<void> {
  for (const leaf of leaves) {
    await gh.repo.writeCommit({
      branch: `crew/${run.issue}/r${run.run}/${leaf}`,
      files: { [`src/${leaf}.js`]: `export const ${leaf} = ${run.issue};\n` },
      message: `crew: ${leaf} (attempt 1, success)`,
      from: 'main',
      identity: CREW_GIT_IDENTITY,
    });
  }
}
