import { dagScenario } from '../tests/support/scenario/dag-scenario';
import { PROJECT_ROOT, runScenario } from '../tests/support/scenario/run-scenario';
const WIDE = Array.from({ length: 20 }, (_, i) => ({ id: `w${i}`, deps: i >= 15 ? [`w${i - 15}`] : [], ms: 60_000 + (i % 7) * 40_000 }));
const r = await runScenario(dagScenario('wide', WIDE, { maxParallel: 5, timeScale: 0.01 }), { baseDir: PROJECT_ROOT, hooks: {} });
const t0 = Math.min(...r.jobTimes.map((j) => j.startedAt));
for (const j of [...r.jobTimes].sort((a, b) => a.startedAt - b.startedAt)) console.log(j.job.padEnd(10), (j.task ?? '').padEnd(4), String(Math.round(j.startedAt - t0)).padStart(6), String(Math.round(j.finishedAt - t0)).padStart(6), String(Math.round(j.finishedAt - j.startedAt)).padStart(6), j.task ? Math.round(j.finishedAt - j.startedAt - WIDE[Number(j.task.slice(1)) - 1]!.ms * 0.01) : '');
