import type { Trajectory, TranscriptLevel } from '../domain/trajectory';
import { agentRunsSummary, turnLines, turnTitle } from '../render/trajectory';
import { recordLine, TrajectoryRecorder } from './recorder';

/** What a job on GitHub does with its trajectories, given by main.ts over the runner's workflow commands (adapters/runner) and @actions/artifact. */
export interface GitHubTrajectoryIO {
  /** A collapsible group in the job log. */
  group(title: string, lines: string[]): void;
  /** Uploads files as a workflow artifact; returns its page, or null where the server keeps no artifacts (GitHub Enterprise Server). */
  upload(name: string, files: Array<{ name: string; text: string }>): Promise<string | null>;
  summary(markdown: string): Promise<void>;
  warn(message: string): void;
}

export interface GitHubTrajectoryOptions {
  io: GitHubTrajectoryIO;
  level: () => TranscriptLevel;
  /** The run the job works on, once known (route finds or creates it). */
  working: () => { issue: number; run: number } | undefined;
  job: { step: string; id: string; url: () => string | null; workflowRun: string; runAttempt: number };
  now: () => number;
  /** The repository is public: its job logs and artifacts are too, so MCP servers' answers are left out. */
  publicRepository: boolean;
}

/** The file inside each artifact: one trajectory per line. */
export const TRAJECTORIES_FILE = 'trajectories.jsonl';

/**
 * A job's trajectories on GitHub: each turn a group in the job log as it completes, each published
 * set an artifact (a work job publishes each attempt before recording it, so the task's record links
 * it; the rest at the job's end), and the step summary's table of every agent run of the job.
 */
export function githubTrajectories(o: GitHubTrajectoryOptions): { recorder: TrajectoryRecorder; finish(): Promise<void> } {
  const kept: string[] = [];
  const working = o.working();
  const recorder = new TrajectoryRecorder({
    level: o.level,
    issue: working?.issue ?? null,
    run: working?.run ?? null,
    job: { step: o.job.step, id: o.job.id, url: o.job.url, workflowRun: o.job.workflowRun },
    now: o.now,
    warn: o.io.warn,
    leaveOutMcpAnswers: o.publicRepository,
    sinks: [
      {
        turn(record, turn) {
          const level = o.level();
          if (level !== 'none') o.io.group(turnTitle(record, turn), turnLines(turn, level));
        },
      },
    ],
    async publish(records: Trajectory[], label: string) {
      const level = o.level();
      if (level === 'none') return null;
      const w = o.working();
      const name = [`crew-trajectories`, w ? `${w.issue}-r${w.run}` : null, label, o.job.runAttempt > 1 ? `rerun${o.job.runAttempt}` : null]
        .filter(Boolean)
        .join('-');
      const page = await o.io.upload(name, [{ name: TRAJECTORIES_FILE, text: records.map((r) => `${recordLine(placed(r, w), level)}\n`).join('') }]);
      if (page) kept.push(`[${name}](${page})`);
      return page;
    },
  });
  return {
    recorder,
    async finish() {
      await recorder.publish(o.job.step);
      const md = agentRunsSummary(recorder.records(), o.level(), kept.length ? kept.join(', ') : null);
      if (md) await o.io.summary(md);
    },
  };
}

/** A record started before route knew its run gets the run it belongs to. */
function placed(r: Trajectory, w: { issue: number; run: number } | undefined): Trajectory {
  return w && r.issue === null ? { ...r, issue: w.issue, run: w.run } : r;
}
