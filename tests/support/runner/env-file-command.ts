/**
 * What the runner does with the names a step writes to GITHUB_ENV, as actions/runner does it:
 * - src/Runner.Worker/FileCommandManager.cs, SetEnvFileCommand: every pair is set for the later steps (the
 *   job's environment and the `env` context), except the names on `_setEnvBlockList` (`NODE_OPTIONS`, compared
 *   OrdinalIgnoreCase): that pair is dropped with the error "Can't store NODE_OPTIONS output parameter using
 *   '$GITHUB_ENV' command." (an issue on the step; the step's result stands). No other name is refused:
 *   `GITHUB_TOKEN`, `GITHUB_FOO`, `RUNNER_FOO` written there reach the later steps.
 * - src/Runner.Worker/Handlers/ScriptHandler.cs (and the other handlers), "expose context to environment": after
 *   the job's environment and the step's `env:`, each step's process gets the runner's own variables written over
 *   them: `GITHUB_<KEY>` for the keys of GitHubContext.cs `_contextEnvAllowlist` and `RUNNER_<KEY>` for every key
 *   of the runner context (RunnerContext.cs). So a written `GITHUB_REF` or `RUNNER_TEMP` shows in `env.GITHUB_REF`
 *   but never in a process's environment.
 * - The handlers then write the services' own names over that environment (handlerEnv below): a run step's
 *   (Handlers/ScriptHandler.cs) the OIDC pair when the job may ask for a token; a node action's
 *   (Handlers/NodeScriptActionHandler.cs) the runtime's too, which the artifact and cache clients use
 *   (ACTIONS_RUNTIME_URL, ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL, ACTIONS_CACHE_URL, ACTIONS_CACHE_SERVICE_V2).
 *   So a GITHUB_ENV or `env:` value for one of them reaches a run step (the runtime names) but never a node
 *   action, and a composite action's own run steps get no runtime token (CompositeActionHandler.cs adds none).
 */

const SET_ENV_BLOCK_LIST = ['NODE_OPTIONS'];

/** GitHubContext.cs `_contextEnvAllowlist`, as the environment names the runner writes from them. */
const GITHUB_CONTEXT_ENV = [
  'action_path',
  'action_ref',
  'action_repository',
  'action',
  'actor',
  'actor_id',
  'api_url',
  'base_ref',
  'env',
  'event_name',
  'event_path',
  'graphql_url',
  'head_ref',
  'job',
  'output',
  'path',
  'ref_name',
  'ref_protected',
  'ref_type',
  'ref',
  'repository',
  'repository_id',
  'repository_owner',
  'repository_owner_id',
  'retention_days',
  'run_attempt',
  'run_id',
  'run_number',
  'server_url',
  'sha',
  'state',
  'step_summary',
  'triggering_actor',
  'workflow',
  'workflow_ref',
  'workflow_sha',
  'workspace',
].map((k) => `GITHUB_${k.toUpperCase()}`);

/** The runner context's keys (`runner.os`, …) as RunnerContext.cs names them, and ProcessInvoker's RUNNER_TRACKING_ID. */
const RUNNER_CONTEXT_ENV = ['os', 'arch', 'name', 'environment', 'temp', 'tool_cache', 'debug', 'workspace', 'tracking_id'].map(
  (k) => `RUNNER_${k.toUpperCase()}`,
);

/** ScriptHandler.cs: with OIDC (the connection's GenerateIdTokenUrl), written over a run step's environment. */
const SCRIPT_HANDLER_ENV = ['ACTIONS_ID_TOKEN_REQUEST_URL', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'];

/** NodeScriptActionHandler.cs: written over a node action's environment, each when the connection has it. */
const NODE_HANDLER_ENV = [
  'ACTIONS_RUNTIME_URL',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RESULTS_URL',
  'ACTIONS_CACHE_SERVICE_V2',
  ...SCRIPT_HANDLER_ENV,
];

/** Of the job's service variables (`services`: the runtime token, the results URL, OIDC), those the handler writes over a step's environment. */
export function handlerEnv(handler: 'script' | 'node', services: Record<string, string | undefined>): Record<string, string> {
  const names = handler === 'script' ? SCRIPT_HANDLER_ENV : NODE_HANDLER_ENV;
  const out: Record<string, string> = {};
  for (const name of names) if (services[name] !== undefined) out[name] = services[name];
  return out;
}

/** The runner's own variables from its `github` and `runner` contexts, as GetRuntimeEnvironmentVariables gives them (see above). */
export function contextEnv(github: Record<string, unknown>, runner: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(github))
    if ((typeof v === 'string' || typeof v === 'boolean') && GITHUB_CONTEXT_ENV.includes(`GITHUB_${k.toUpperCase()}`))
      out[`GITHUB_${k.toUpperCase()}`] = String(v);
  for (const [k, v] of Object.entries(runner)) if (typeof v === 'string') out[`RUNNER_${k.toUpperCase()}`] = v;
  return out;
}

/** The runner's own variables in a step's environment (those of `processEnv`): written over the job's and the step's (see above). */
export function runnerProvided(processEnv: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(processEnv)) if (v !== undefined && (GITHUB_CONTEXT_ENV.includes(k) || RUNNER_CONTEXT_ENV.includes(k))) out[k] = v;
  return out;
}

/** Sets what a step wrote to GITHUB_ENV into the job's environment, refusing the block list's names as the runner does. */
export function applyEnvFile(written: Record<string, string>, env: Record<string, string | undefined>, error: (message: string) => void): void {
  for (const [k, v] of Object.entries(written)) {
    const blocked = SET_ENV_BLOCK_LIST.find((b) => b.toUpperCase() === k.toUpperCase());
    if (blocked) error(`Can't store ${blocked} output parameter using '$GITHUB_ENV' command.`);
    else env[k] = v;
  }
}
