import type { FakeGitHub } from '../github/fake-github';
import { git } from '../git-cli';
import type { ScenarioResult } from './run-scenario';

/**
 * What a run leaves behind, with the parts that legitimately differ between two runs
 * of the same story taken out (times, costs, ids, ports, nonces). Two runs of a
 * scenario, one interrupted and resumed, must leave the same outcome.
 */
export interface Outcome {
  branches: Record<string, Record<string, string>>;
  stateFiles: string[];
  pulls: Array<{ title: string; state: string; head: string; base: string; body: string }>;
  crewComments: string[];
}

export function normalizeText(text: string): string {
  return (
    text
      // The idempotency key is for finding a comment whose answer was lost; an edit drops it, and nobody sees it.
      .replace(/\n\n<!-- crew:post key=[0-9a-f]+ -->$/, '')
      .replace(/http:\/\/(?:127\.0\.0\.1|github\.localhost):\d+/g, 'http://github')
      // Which workflow runs' jobs kept trajectories: a resumed run has the interrupted job's run too.
      .replace(/^- Every job's agent runs, as artifacts.*$/gm, "- Every job's agent runs, as artifacts …")
      .replace(/<!-- crew:version v=\d+ -->/g, '')
      .replace(/nonce=[0-9a-f]+/g, 'nonce=…')
      .replace(/actions\/runs\/\d+/g, 'actions/runs/…')
      .replace(/\*\*Usage:\*\*.*$/gm, '**Usage:** …')
      .replace(/\*\*Total usage:\*\*.*$/gm, '**Total usage:** …')
      // The estimate counts the minutes jobs took so far, which an interrupted job adds to.
      .replace(/\*\*Estimate:\*\*.*$/gm, '**Estimate:** …')
      .replace(/\*\*Estimate vs actual:\*\*.*$/gm, '**Estimate vs actual:** …')
      .replace(/\| [\d,]+ \/ [\d,]+ \|$/gm, '| … |')
      .replace(/\b[0-9a-f]{7,40}\b/g, '#')
      .replace(/issuecomment-\d+/g, 'issuecomment-…')
      // Command evidence quotes test runners' timings.
      .replace(/\((?:[\d.]+)ms\)/g, '(…ms)')
      .replace(/duration_ms [\d.]+/g, 'duration_ms …')
  );
}

export async function outcomeOf(gh: FakeGitHub, result: ScenarioResult): Promise<Outcome> {
  const branches: Outcome['branches'] = {};
  for (const b of result.branches) {
    if (b.name === 'crew/state') continue;
    const tree = await git(['ls-tree', '-r', `refs/heads/${b.name}`], { cwd: gh.repoDir });
    branches[b.name] = Object.fromEntries(
      tree
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.split('\t')[1]!, l.split(/\s+/)[2]!]),
    );
  }
  const stateFiles = (await gh.repo.branchSha('crew/state'))
    ? (await gh.repo.listFiles('refs/heads/crew/state')).filter((f) => !f.includes('/attempts/') && !f.includes('/jobs/'))
    : [];
  return {
    branches,
    stateFiles,
    pulls: result.pulls.map((p) => ({ title: p.title, state: p.state, head: p.head, base: p.base, body: normalizeText(p.body ?? '') })),
    crewComments: [...result.issue.comments, ...result.pulls.flatMap((p) => p.comments)]
      .filter((c) => c.author === 'github-actions[bot]')
      .map((c) => normalizeText(c.body))
      .sort(),
  };
}
