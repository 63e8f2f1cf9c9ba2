import { CONFIG_FILE, ok, SECRET_NAME, WORKFLOW_PATH, type DoctorFacts, type Read } from '../domain/doctor';
import { ConfigError, parseConfig } from '../config/schema';
import { commandProblem } from '../domain/criteria';
import type { RepositorySettings } from '../ports';
import type { RunnerVersion, ToolchainFacts } from '../domain/toolchain-check';
import { declaredVersions, SETUP_ACTION_PATH, TOOLCHAIN_FILES, toolchainSetup, toolchainsSetUp, type Toolchain } from '../domain/toolchain-setup';
import { CREW_VERSION } from '../version';
import { setupCacheFacts } from './setup-caches';

/** A task branch's name as crew makes them (the rules of any `crew/<N>/r<k>/<task>` branch are asked through it). */
const SAMPLE_TASK_BRANCH = 'crew/1/r1/t1';
const STATE_BRANCH = 'crew/state';

export interface GatherOptions {
  asking: DoctorFacts['asking'];
  /** In a job: whether it was given the key (never the key itself). With a token the repository's secret is asked for. */
  jobHasKey?: boolean;
  /** In a job: the `crew/` branches that belong to no open run. */
  strays?: () => Promise<string[] | undefined>;
  /** In a job: the repository's spend as one sentence, and whether a budget is near its end. */
  spend?: () => Promise<{ says: string; near: boolean }>;
  /** In a job: the runner's own versions of these toolchains (src/doctor/runner-toolchains.ts). */
  runnerToolchains?: (tools: Toolchain[]) => Promise<Partial<Record<Toolchain, RunnerVersion>>>;
}

/** The toolchain files and the setup action on the default branch; undefined when no file declares a version. */
async function toolchainFacts(settings: RepositorySettings, opts: GatherOptions): Promise<Read<ToolchainFacts> | undefined> {
  const reads = await Promise.all([...TOOLCHAIN_FILES, SETUP_ACTION_PATH].map(async (f) => [f, await settings.defaultBranchFile(f)] as const));
  const refused = reads.find(([, r]) => !r.ok && r.status !== 0)?.[1];
  if (refused && !refused.ok) return refused;
  // A file GitHub sends without its content (over 1 MB) is said, and the check goes on with the others.
  const unread = reads.flatMap(([, r]) => (r.ok ? [] : [r.message]));
  const texts = new Map(reads.flatMap(([f, r]) => (r.ok && r.value !== null ? [[f, r.value] as const] : [])));
  const declared = declaredVersions(toolchainSetup({ names: [...texts.keys()], read: (n) => texts.get(n) }));
  if (!declared.length && !unread.length) return undefined;
  const action = texts.get(SETUP_ACTION_PATH);
  const facts: ToolchainFacts = { declared, setUp: action === undefined ? null : [...toolchainsSetUp(action)], ...(unread.length ? { unread } : {}) };
  const uncovered = declared.map((d) => d.tool).filter((t) => !facts.setUp?.includes(t));
  if (opts.runnerToolchains && uncovered.length) facts.runner = await opts.runnerToolchains(uncovered);
  return ok(facts);
}

/** Everything `diagnose` needs, read at once; a read GitHub refuses is kept as its status, never thrown. */
export async function gatherFacts(settings: RepositorySettings, opts: GatherOptions): Promise<DoctorFacts> {
  const repo = await settings.repository();
  const [actions, workflowPermissions, taskBranchRules, stateBranchRules, stateBranchProtected, workflowFile, configText, secret] = await Promise.all([
    settings.actionsPermissions(),
    settings.workflowPermissions(),
    settings.branchRules(SAMPLE_TASK_BRANCH),
    settings.branchRules(STATE_BRANCH),
    settings.branchProtected(STATE_BRANCH),
    settings.defaultBranchFile(WORKFLOW_PATH),
    settings.defaultBranchFile(CONFIG_FILE),
    opts.asking === 'job' ? Promise.resolve(ok(opts.jobHasKey === true)) : settings.secretExists(SECRET_NAME),
  ]);
  const toolchains = await toolchainFacts(settings, opts);
  const setupCaches = await setupCacheFacts(settings);
  const facts: DoctorFacts = {
    repo,
    asking: opts.asking,
    actions,
    workflowPermissions,
    taskBranchRules,
    stateBranchRules,
    stateBranchProtected,
    workflowFile,
    config: configOf(configText),
    secret,
    crewVersion: CREW_VERSION,
    ...(toolchains ? { toolchains } : {}),
    ...(setupCaches ? { setupCaches } : {}),
  };
  if (opts.strays) {
    facts.strays = await opts.strays().then(
      (s): Read<string[]> | undefined => (s === undefined ? undefined : ok(s)),
      (e: unknown): Read<string[]> => ({ ok: false, status: 0, message: (e as Error).message }),
    );
    if (!facts.strays) delete facts.strays;
  }
  if (opts.spend)
    facts.spend = await opts.spend().then(ok, (e: unknown): Read<{ says: string; near: boolean }> => ({ ok: false, status: 0, message: (e as Error).message }));
  return facts;
}

function configOf(text: Read<string | null>): DoctorFacts['config'] {
  if (!text.ok) return text;
  if (text.value === null) return ok(null);
  try {
    const config = parseConfig(text.value, CONFIG_FILE);
    // `criteria:` takes commands; one the plan review would refuse stops every run at planning.
    const unrunnable = config.criteria.flatMap((c, i) => {
      const p = commandProblem(c);
      return p ? [`criteria[${i}] "${c}" is not a command crew can run: ${p}`] : [];
    });
    return ok({ provider: config.provider, ...(unrunnable.length ? { error: unrunnable.join('; ') } : {}) });
  } catch (e) {
    if (e instanceof ConfigError) return ok({ error: e.problems.join('; '), provider: 'anthropic' });
    throw e;
  }
}
