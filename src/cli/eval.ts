import { join, resolve } from 'node:path';
import { LocalStateStore } from '../adapters/local/state-store';
import { localConfig } from '../config/local';
import { CONFIG_PATH } from '../config/schema';
import { LOCAL_RUN, localStatePrefix, runsDir } from '../domain/local-runs';
import { runEval } from '../eval';
import type { Output } from '../local/live-view';
import { killRunningCommands } from '../sandbox/running-commands';
import { readView } from '../state/run-files';
import { redact } from '../text/redact';
import type { Command } from './args';
import { localModel } from './compose';

/** `crew eval`: the instances played each way (src/eval/); Ctrl-C stops at once, and the same command goes on later. */
export async function evaluate(cmd: Extract<Command, { kind: 'eval' }>, out: Output): Promise<number> {
  const config = localConfig(undefined, {}, { ...(cmd.provider ? { provider: cmd.provider } : {}) }, CONFIG_PATH);
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    out.write('\nInterrupted: stopping the instances being played. The same crew eval command goes on from here.\n');
    stop.abort();
    killRunningCommands();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { results, interrupted } = await runEval({
      instances: cmd.instances,
      ...(cmd.ids ? { ids: cmd.ids } : {}),
      ...(cmd.limit ? { limit: cmd.limit } : {}),
      ways: cmd.ways,
      concurrency: cmd.concurrency,
      out: cmd.out,
      ...(cmd.scripted ? { scripted: cmd.scripted } : {}),
      ...(cmd.provider ? { provider: cmd.provider } : {}),
      allowUnsandboxed: cmd.allowUnsandboxed,
      ...(cmd.maxIterations ? { maxIterations: cmd.maxIterations } : {}),
      budget: { tokens: cmd.maxTokens, costUsd: cmd.maxCostUsd, ms: cmd.maxMinutes * 60_000 },
      cli: process.argv[1]!,
      model: async (scripted) => localModel(scripted, config, (m) => out.write(`⚠ ${redact(m)}\n`), []),
      modelName: cmd.scripted ? 'scripted' : config.models.sonnet,
      say: (line) => out.write(`${line}\n`),
      signal: stop.signal,
      readRun: async (project, n) => readView(await new LocalStateStore(runsDir(project)).load(localStatePrefix(n)), n, LOCAL_RUN),
    });
    if (interrupted) {
      out.write(`Stopped with ${results.length} done; run the same command to go on.\n`);
      return 130;
    }
    out.write(`\nDone: ${results.length} played. ${join(resolve(cmd.out), 'results.md')} has the results.\n`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
