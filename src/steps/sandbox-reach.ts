import { parseServiceAddress, reachHint, serviceKey, type ServiceAddress } from '../domain/sandbox-reach';
import { SETUP_ACTION_PATH } from '../domain/toolchain-setup';
import type { Log } from '../ports';
import type { SandboxReach } from '../sandbox/command-runner';
import { pathFolderWarnings } from '../sandbox/path-folders';
import { startServiceBridges, type ServiceBridges } from '../sandbox/services';
import { redact } from '../text/redact';

/**
 * What the repository's setup steps hand to this job's sandboxed commands (#51), as `.github/crew.yml`
 * names it: `sandbox_env`'s variables, read from crew's environment (the runner puts what a step writes to
 * `$GITHUB_ENV` there for every later step), and bridges to `network.services`' addresses.
 */
export interface JobReach {
  reach: SandboxReach;
  /** A line for a failed command's message when it points at the setup steps (domain/sandbox-reach.ts), or null. */
  hint(output: string): string | null;
}

export const NO_REACH: JobReach = { reach: {}, hint: () => null };

/**
 * The variables and bridges, said in the job's log. A variable whose value holds a secret crew knows (its
 * token, its key, a `crew_env` value, a cloud credential: whatever redact() hides) is left out, and so
 * is one no step set; a bridge that cannot start leaves its service unreachable, said too.
 */
export async function prepareReach(
  config: { sandbox_env?: string[]; network: { services?: string[] } },
  log: Pick<Log, 'info' | 'warn'>,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<JobReach> {
  // What the setup steps put on PATH reaches crew's own commands and the sandbox's alike.
  for (const warning of pathFolderWarnings(environment.PATH, environment.GITHUB_WORKSPACE)) log.warn(warning);
  const names = config.sandbox_env ?? [];
  const wanted = (config.network.services ?? []).map(parseServiceAddress).filter((a): a is ServiceAddress => !('problem' in a));
  if (!names.length && !wanted.length) return NO_REACH;
  const env: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of names) {
    const value = environment[name];
    if (value === undefined) missing.push(name);
    else if (redact(value) !== value) log.warn(`sandbox_env: ${name} is left out: its value holds a secret crew knows (a token, a key or a crew_env value)`);
    else env[name] = value;
  }
  if (missing.length) log.warn(`sandbox_env names ${missing.join(', ')}, which no setup step set (export it through $GITHUB_ENV in ${SETUP_ACTION_PATH})`);
  let bridges: ServiceBridges | undefined;
  if (wanted.length) {
    try {
      bridges = await startServiceBridges(wanted);
    } catch (e) {
      log.warn(`network.services: crew could not forward ${wanted.map(serviceKey).join(', ')} into the sandbox (${(e as Error).message.split('\n')[0]})`);
    }
  }
  const services = wanted.map(serviceKey);
  if (Object.keys(env).length || bridges)
    log.info(
      `The sandboxed commands get ${[
        ...(Object.keys(env).length ? [`the setup steps' ${Object.keys(env).join(', ')} (sandbox_env)`] : []),
        ...(bridges ? [`the services at ${services.join(', ')} on the runner's loopback (network.services)`] : []),
      ].join(' and ')}.`,
    );
  return {
    reach: { env, ...(bridges ? { services: bridges.routes } : {}) },
    hint: (output) => reachHint(output, { missingVars: missing, services, refusedServices: bridges?.refused() ?? [] }),
  };
}
