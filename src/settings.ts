import { parseLeg } from './domain/attempts';
import { z } from 'zod';
import { parseCrewEnv } from './domain/crew-env';
import { isProvider, PROVIDERS, type Provider } from './domain/providers';
import { addDeclaredSecret } from './text/redact';

/** The action's inputs as one typed object. Each error names the input and the form it expects. */
export interface Settings {
  /**
   * Which workflow job this is: `route` (commands), `work` (one task), `advance` (settle and integrate),
   * `critic` (judge and finish), `merge` (the merge gate again) or `cleanup` (crew's pull request closed).
   */
  step: 'route' | 'work' | 'advance' | 'critic' | 'merge' | 'cleanup';
  /** The Anthropic API key; empty when the secret is not set, which crew reports when it first needs it. */
  anthropicApiKey: string;
  /** The `provider` input: where model calls go, over `.github/crew.yml`'s `provider`; undefined when the input is empty. */
  provider?: Provider;
  /** The `fallback_provider` input: where model calls go when the provider hits its limits, over `.github/crew.yml`'s key; undefined when empty. */
  fallbackProvider?: Provider;
  /** Token for GitHub: the workflow's GITHUB_TOKEN by default, or an App or personal token. */
  githubToken: string;
  /**
   * Whether `githubToken` is the workflow's own GITHUB_TOKEN (the `workflow_token` input, which is
   * always `github.token`, equals it): a token that reads this repository alone (#36's images).
   */
  githubTokenIsWorkflows: boolean;
  /** For `work`: the task id from the matrix. */
  task?: string;
  /** For `work` and `advance`: the issue and run the route job chose. */
  issue?: number;
  run?: number;
  /** For `advance`: how the work matrix ended (`needs.work.result`), to tell a cancelled run from a lost worker. */
  workResult?: string;
  /** The `crew_env` input's variables (secrets for the repository's MCP servers), by name; crew masks every value at its start. */
  crewEnv?: Record<string, string>;
}

export class InputError extends Error {}

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^[1-9][0-9]*$/, { message: `Input \`${name}\` must be a positive whole number` })
    .transform(Number);

/** `get` reads one input of the action (main.ts: the runner's `INPUT_<NAME>`). */
export function readSettings(get: (name: string) => string): Settings {
  const step = get('step');
  if (step !== 'route' && step !== 'work' && step !== 'advance' && step !== 'critic' && step !== 'merge' && step !== 'cleanup') {
    throw new InputError(
      `Input \`step\` must be one of route, work, advance, critic, merge or cleanup (got '${step}'). Set it in the workflow's \`with:\` block, as the README's workflow does.`,
    );
  }
  const githubToken = get('github_token');
  if (!githubToken) throw new InputError('Input `github_token` is empty. Leave it unset to use the workflow token, or pass a GitHub App or personal token.');
  const workflowToken = get('workflow_token');
  const crewEnv = parseCrewEnv(get('crew_env'));
  if ('problem' in crewEnv) throw new InputError(crewEnv.problem);
  const settings: Settings = {
    step,
    anthropicApiKey: get('anthropic_api_key'),
    githubToken,
    githubTokenIsWorkflows: workflowToken !== '' && workflowToken === githubToken,
    crewEnv: crewEnv.vars,
  };
  for (const name of ['issue', 'run'] as const) {
    const raw = get(name);
    if (raw === '') {
      if (step !== 'route' && step !== 'merge' && step !== 'cleanup')
        throw new InputError(`Input \`${name}\` is required for step '${step}'. Pass \`\${{ needs.route.outputs.${name} }}\`, as the README's workflow does.`);
      continue;
    }
    const parsed = positiveInt(name).safeParse(raw);
    if (!parsed.success) throw new InputError(`${parsed.error.issues[0]!.message} (got '${raw}').`);
    settings[name] = parsed.data;
  }
  const provider = get('provider');
  if (provider !== '') {
    if (!isProvider(provider))
      throw new InputError(
        `Input \`provider\` must be one of ${PROVIDERS.join(', ')} (got '${provider}'). Leave it unset to use \`provider\` in .github/crew.yml (anthropic by default).`,
      );
    settings.provider = provider;
  }
  const fallback = get('fallback_provider');
  if (fallback !== '') {
    if (!isProvider(fallback))
      throw new InputError(
        `Input \`fallback_provider\` must be one of ${PROVIDERS.join(', ')} (got '${fallback}'). Leave it unset to use \`fallback_provider\` in .github/crew.yml (no failover by default).`,
      );
    settings.fallbackProvider = fallback;
  }
  const workResult = get('work_result');
  if (workResult) settings.workResult = workResult;
  const task = get('task');
  if (step === 'work') {
    // A task's parallel attempt n ≥ 2 (#50) is the leg `t1-a<n>`.
    if (!parseLeg(task))
      throw new InputError(`Input \`task\` must be a crew task id such as t1 (or a parallel attempt's, t1-a2) (got '${task}'). Pass \`\${{ matrix.task }}\`.`);
    settings.task = task;
  }
  return settings;
}

/**
 * The `crew_env` values, masked in the job log and redacted everywhere else, down to the same length: redaction's
 * own floor (6) would leave a 4- or 5-character value, which the log hides, in comments, commits and a
 * `sandbox_env` variable (toolbox/sandbox-reach.ts leaves out only what redaction knows).
 */
export function maskCrewEnv(vars: Record<string, string> = {}, setSecret: (value: string) => void): void {
  for (const value of Object.values(vars)) {
    addDeclaredSecret(value);
    if (value) setSecret(value);
  }
}
