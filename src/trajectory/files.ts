import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTrajectories, type Trajectory, type TranscriptLevel } from '../domain/trajectory';
import { recordLine, TrajectoryRecorder } from './recorder';

/** Where a local run keeps its trajectories: one `.jsonl` file per job (the task it worked on, or its step). */
export function trajectoriesDir(runDir: string): string {
  return join(runDir, 'trajectories');
}

/**
 * A local job's trajectories: each agent run appended to `<run folder>/trajectories/<job>.jsonl`
 * when it ends (the same records, at the same level, as a job's artifact on GitHub). Nothing is
 * written with `transcripts.keep: none`.
 */
export function localTrajectories(o: {
  runDir: string;
  run: number;
  level: TranscriptLevel;
  job: { step: string; label: string; id: string };
  warn: (message: string) => void;
}): TrajectoryRecorder {
  const file = join(trajectoriesDir(o.runDir), `${o.job.label.replace(/[^A-Za-z0-9._-]/g, '-')}.jsonl`);
  return new TrajectoryRecorder({
    level: () => o.level,
    issue: o.run,
    run: 1,
    job: { step: o.job.step, id: o.job.id, url: () => null, workflowRun: null },
    now: () => Date.now(),
    warn: o.warn,
    sinks: [
      {
        end(record) {
          if (o.level === 'none') return;
          mkdirSync(trajectoriesDir(o.runDir), { recursive: true });
          appendFileSync(file, `${recordLine(record, o.level)}\n`);
        },
      },
    ],
    // Written as each run ends: publishing names the file that holds them.
    publish: async () => (existsSync(file) ? file : null),
  });
}

/** Every trajectory a local run kept, in the order the agent runs started, each line checked against the schema (a bad one is named by file and line). */
export function readTrajectories(runDir: string): Array<{ file: string; line: string; record: Trajectory }> {
  const dir = trajectoriesDir(runDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.trim() ? [{ file: join(dir, f), line, record: parseTrajectories(line, join(dir, f), i + 1)[0]! }] : [])),
    )
    .sort((a, b) => a.record.started_at.localeCompare(b.record.started_at));
}
