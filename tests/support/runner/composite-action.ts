import { randomUUID } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isTruthy } from './expressions/coerce';
import { evaluateIf, evaluateValue, interpolate, type ExprContext, type ExprValue } from './expressions/index';
import { applyEnvFile, runnerProvided } from './env-file-command';
import { readKeyValueFile } from './output-files';
import { startProcess, type StepProcess } from './process-control';
import type { StepSpec } from './workflow-file';

/** An action's action.yml, as the runner reads it. */
export interface ActionMeta {
  inputs?: Record<string, { default?: string; required?: boolean }>;
  outputs?: Record<string, { value?: string }>;
  runs: { using: string; main?: string; steps?: StepSpec[] };
}

/**
 * The shells a composite step may name, as the runner runs them (docs: "Workflow syntax", jobs.<id>.steps[*].shell):
 * the script is written to a file that replaces `{0}`.
 */
const SHELLS: Record<string, string[]> = { bash: ['bash', '--noprofile', '--norc', '-eo', 'pipefail'], sh: ['sh', '-e'] };

/**
 * A composite action (docs: "Metadata syntax for GitHub Actions", runs for composite actions): its
 * `runs.steps` run in order as one step of the job. Each `run` step must name its `shell`; steps see the
 * `inputs` context (the given inputs, then the declared defaults), their own `steps` context, and
 * GITHUB_ACTION_PATH (the action's folder, also `github.action_path`). What a step writes to GITHUB_ENV or
 * GITHUB_PATH reaches the steps after it and, after the action, the rest of the job. The action's outputs
 * are its `outputs.<id>.value`, evaluated over its steps. A failed step skips the rest (unless their `if`
 * says otherwise) and fails the action. Nested `uses:` is not played here: it fails, saying so.
 */
/** A `name<<DELIM` entry for a GITHUB_ENV or GITHUB_OUTPUT file, its delimiter one no value holds (as @actions/core makes them). */
const heredoc = (name: string, value: string) => {
  const delim = `ghadelimiter_${randomUUID()}`;
  return `${name}<<${delim}\n${value}\n${delim}\n`;
};

export function playComposite(o: {
  uses: string;
  actionDir: string;
  meta: ActionMeta;
  given: Record<string, unknown>;
  ctx: ExprContext;
  env: NodeJS.ProcessEnv;
  /** What the runner writes over a run step's environment (env-file-command.ts, handlerEnv('script', …)). */
  scriptOwned?: Record<string, string>;
  /** What it writes over a node action's: a `uses:` sub-step's (a stand-in's), not a `run` one's. */
  nodeOwned?: Record<string, string>;
  workspace: string;
  /** The calling step's GITHUB_OUTPUT: the action's outputs are written there. */
  outputFile: string;
  annotate: (level: 'error' | 'warning' | 'notice', message: string) => void;
  onLine: (line: string) => void;
  /**
   * Plays a `uses:` step the runner has a stand-in for (setup-actions.ts: actions/setup-node, actions/cache, …)
   * with the sub-step's files and environment; false when it has none.
   */
  useAction?: (
    uses: string,
    withs: Record<string, unknown>,
    at: { env: NodeJS.ProcessEnv; files: { env: string; path: string; output: string } },
  ) => Promise<boolean>;
}): StepProcess {
  const inputs: Record<string, string> = {};
  // `required` is not enforced: actions/runner's ActionManifestManager.cs (ConvertInputs) keeps only each input's
  // `default`, an empty string when there is none, and ActionRunner.cs merges those for the inputs not given,
  // with no word about a missing one.
  for (const [name, d] of Object.entries(o.meta.inputs ?? {})) {
    const v = o.given[name];
    inputs[name] = v !== undefined && v !== null ? String(v) : d?.default !== undefined ? interpolate(String(d.default), o.ctx) : '';
  }
  for (const [name, v] of Object.entries(o.given)) if (!(name in inputs) && v !== undefined && v !== null) inputs[name] = String(v);

  let current: StepProcess | undefined;
  const stop: { cancel?: number; kill?: boolean } = {};
  const stopped = () => stop.kill === true || stop.cancel !== undefined;
  const env: NodeJS.ProcessEnv = { ...o.env, GITHUB_ACTION_PATH: o.actionDir };
  // The runner's own variables, written over what a sub-step exported and its `env:` (env-file-command.ts).
  const provided = runnerProvided(env);
  const github = { ...(o.ctx.github as Record<string, ExprValue>), action_path: o.actionDir };
  const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};

  const run = async (): Promise<{ code: number | null; signal: NodeJS.Signals | null }> => {
    let failed: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    for (const [i, step] of (o.meta.runs.steps ?? []).entries()) {
      const where = `${o.uses} (runs.steps[${i}])`;
      const ctx: ExprContext = { ...o.ctx, github, inputs, steps, env: { ...(env as Record<string, string>) } };
      const go = evaluateIf(step.if, ctx, {
        success: () => !failed && !stopped(),
        failure: () => !!failed,
        cancelled: () => stopped(),
        always: () => true,
      });
      if (!go || stopped()) {
        if (step.id) steps[step.id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
        continue;
      }
      if (step.uses === undefined && step.run === undefined) throw new Error(`${where}: a composite step needs \`run\` or \`uses\``);
      const stepEnv: NodeJS.ProcessEnv = { ...env };
      for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = String(evaluateValue(v, ctx) ?? '');
      Object.assign(stepEnv, provided, o.scriptOwned);
      const files = { output: `${o.outputFile}-c${i}`, env: `${String(o.env.GITHUB_ENV)}-c${i}`, path: `${String(o.env.GITHUB_PATH)}-c${i}` };
      await Promise.all(Object.values(files).map((f) => writeFile(f, '')));
      let r: { code: number | null; signal: NodeJS.Signals | null };
      if (step.uses !== undefined) {
        const withs = (evaluateValue(step.with ?? {}, ctx) ?? {}) as Record<string, unknown>;
        let played = false;
        try {
          played = (await o.useAction?.(step.uses, withs, { env: { ...stepEnv, ...o.nodeOwned }, files })) ?? false;
          r = { code: 0, signal: null };
        } catch (e) {
          played = true;
          o.annotate('error', `${step.uses}: ${(e as Error).message}`);
          r = { code: 1, signal: null };
        }
        if (!played)
          throw new Error(
            `${where}: the offline runner plays \`uses:\` inside a composite action only for the actions it stands in for (setup-actions.ts), not ${step.uses}`,
          );
      } else {
        // docs: runs.steps[*].shell, "Required if run is set".
        const shell = step.shell && SHELLS[step.shell];
        if (!shell) throw new Error(`${where}: Required property is missing: shell (the offline runner plays ${Object.keys(SHELLS).join(', ')})`);
        const script = join(o.outputFile + `-c${i}.sh`);
        await writeFile(script, interpolate(step.run!, { ...ctx, env: { ...(stepEnv as Record<string, string>) } }));
        const cwd = step['working-directory'] ? resolve(o.workspace, interpolate(step['working-directory'], ctx)) : o.workspace;
        current = startProcess(shell[0]!, [...shell.slice(1), script], {
          cwd,
          env: { ...stepEnv, GITHUB_OUTPUT: files.output, GITHUB_ENV: files.env, GITHUB_PATH: files.path },
          onLine: o.onLine,
        });
        if (stop.kill) current.kill();
        else if (stop.cancel !== undefined) current.cancel(stop.cancel);
        r = await current.done;
        current = undefined;
      }
      // What the step exported reaches the steps after it, and (through the calling step's files) the job.
      // The runner processes each sub-step's file once (its refusal said here), so the job gets what was kept.
      const kept: Record<string, string> = {};
      applyEnvFile(await readKeyValueFile(files.env), kept, (m) => o.annotate('error', m));
      Object.assign(env, kept);
      const lines = Object.entries(kept).map(([k, v]) => heredoc(k, v));
      if (lines.length) await appendFile(String(o.env.GITHUB_ENV), lines.join(''));
      const added = (await readFile(files.path, 'utf8')).split(/\r?\n/).filter(Boolean);
      if (added.length) {
        await appendFile(String(o.env.GITHUB_PATH), `${added.join('\n')}\n`);
        env.PATH = [...added.reverse(), env.PATH].filter(Boolean).join(':');
      }
      const outcome = r.code === 0 ? 'success' : 'failure';
      const continueOnError = isTruthy(evaluateValue(step['continue-on-error'] ?? false, ctx) as ExprValue);
      if (step.id)
        steps[step.id] = { outputs: await readKeyValueFile(files.output), outcome, conclusion: continueOnError && outcome === 'failure' ? 'success' : outcome };
      if (outcome === 'failure' && !continueOnError) failed ??= { code: r.code ?? 1, signal: r.signal };
    }
    const out: string[] = [];
    const ctx: ExprContext = { ...o.ctx, github, inputs, steps };
    for (const [name, spec] of Object.entries(o.meta.outputs ?? {})) out.push(heredoc(name, interpolate(String(spec?.value ?? ''), ctx)));
    if (out.length) await appendFile(o.outputFile, out.join(''));
    if (stopped()) return { code: null, signal: 'SIGINT' };
    // The sub-step already said why; the calling step fails with a code that is not 0.
    return failed ?? { code: 0, signal: null };
  };
  const done = run();
  return {
    get child() {
      return current?.child as StepProcess['child'];
    },
    done,
    cancel(scale: number) {
      stop.cancel = scale;
      current?.cancel(scale);
    },
    kill() {
      stop.kill = true;
      current?.kill();
    },
  };
}
