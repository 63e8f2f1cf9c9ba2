import { modelReach, type ModelReach } from '../domain/reach-note';
import { parseServiceAddress, reachHint, serviceKey, type ServiceAddress } from '../domain/sandbox-reach';
import { HOME_CACHES } from '../domain/setup-caches';
import { SETUP_ACTION_PATH } from '../domain/toolchain-setup';
import type { Log } from '../ports';
import type { PreparedSandbox, SandboxReach } from '../sandbox/command-runner';
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
  /** Stops the bridges (the job's tools' dispose: sandbox-setup.ts). */
  close(): Promise<void>;
  /** What the agents' run_command tells the model about it (domain/reach-note.ts). */
  model: ModelReach;
  /** The same, with the services unavailable in this job, and why (startWithReach). */
  withoutServices(why: string): JobReach;
}

/** Whether `environment` holds `name` with a value crew may hand over (none holding a secret it knows): the model is told the name only. */
const holds = (environment: NodeJS.ProcessEnv) => (name: string) => {
  const value = environment[name];
  return value !== undefined && value !== '' && redact(value) === value;
};

export const NO_REACH: JobReach = {
  reach: {},
  hint: () => null,
  model: modelReach({ passed: [], missing: [], services: [], refused: () => [], runnerHas: holds(process.env) }),
  withoutServices: () => NO_REACH,
  close: async () => undefined,
};

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
  const off = wanted.length && !bridges ? 'crew could not forward them into the sandbox' : undefined;
  const build = (offWhy: string | undefined, routes: ServiceBridges['routes'] | undefined): JobReach => ({
    reach: { env, ...(routes ? { services: routes } : {}) },
    hint: (output) =>
      reachHint(output, { missingVars: missing, services, refusedServices: bridges?.refused() ?? [], ...(offWhy ? { servicesOff: offWhy } : {}) }),
    model: modelReach({
      passed: Object.keys(env),
      missing,
      services: routes ? services : [],
      refused: () => bridges?.refused() ?? [],
      runnerHas: holds(environment),
      ...(offWhy ? { off: { services, why: offWhy } } : {}),
    }),
    withoutServices: (why) => build(why, undefined),
    close: async () => bridges?.close(),
  });
  return build(off, bridges?.routes);
}

/**
 * A sandbox started with the services' bridges; when it cannot start with them but can without (it has no `ip`
 * to bring up its own loopback: a container without iproute2), the job keeps its sandbox without the services
 * and says so, rather than losing the sandbox.
 */
export async function startWithReach(
  prepare: (reach: SandboxReach) => Promise<PreparedSandbox>,
  given: JobReach,
  log: Pick<Log, 'warn'>,
): Promise<{ prepared: PreparedSandbox; given: JobReach }> {
  const prepared = await prepare(given.reach);
  const services = given.reach.services ?? [];
  if ('runner' in prepared || !services.length) return { prepared, given };
  const { services: _, ...rest } = given.reach;
  const plain = await prepare(rest);
  if (!('runner' in plain)) return { prepared, given };
  const why = /\bip: (command )?not found/.test(prepared.reason)
    ? 'the sandbox has no `ip` program (iproute2), which brings up its own loopback for them'
    : `the sandbox could not start with them (${prepared.reason})`;
  log.warn(
    `network.services: ${why}, so the services at ${services.map((s) => serviceKey(s.address)).join(', ')} are unavailable to the sandboxed commands in this job; the sandbox itself is kept. Install iproute2 in the repository's setup steps (${SETUP_ACTION_PATH}) or on the runner.`,
  );
  return { prepared: plain, given: { ...given.withoutServices(why), reach: rest } };
}

/**
 * The same reach, with the dependency caches the setup steps restored in the runner's home (domain/setup-caches.ts's
 * HOME_CACHES) copied into the sandbox's home when it is made (sandbox/home-caches.ts): for setup on a model-written
 * tree, which then installs from the copy and never writes the runner's own folders, saved at the job's end.
 */
export function withHomeCaches(
  given: JobReach,
  log: Pick<Log, 'info' | 'warn'>,
  home = process.env.HOME,
  /** Only in an Actions job, where the setup steps restored them: locally the home is the person's, its caches theirs and maybe large. */
  inJob = process.env.GITHUB_ACTIONS === 'true',
): JobReach {
  if (!home || !inJob) return given;
  const said = (copied: string[], seconds: number, failed: string[]) => {
    if (failed.length)
      log.warn(
        `crew could not copy the runner's ${failed.map((f) => `~/${f}`).join(', ')} into the sandbox's home: setup on the model-written tree downloads what it would have found there.`,
      );
    if (copied.length)
      log.info(
        `The sandbox's home starts with a copy of the runner's ${copied.map((f) => `~/${f}`).join(', ')} (restored by the setup steps; ${seconds.toFixed(1)} s): setup on the model-written tree installs from it, and nothing it writes there is saved to the cache.`,
      );
  };
  return { ...given, reach: { ...given.reach, caches: { from: home, folders: HOME_CACHES, said } } };
}
