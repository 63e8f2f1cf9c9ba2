/**
 * `crew doctor`'s toolchain check: will crew's jobs build and test with the toolchain versions the
 * repository's files declare? Either its setup steps (.github/actions/crew-setup) set the toolchain
 * up, or the runner's own one meets the version. Pure; src/doctor/ reads the files on the default
 * branch and, in a job, asks the runner's programs for their versions.
 */

import { SETUP_ACTION_PATH, type DeclaredVersion, type Toolchain } from './toolchain-setup';
import { versionMeets } from './version-range';

/** The runner's version of a program (`v24.1.0`); null when it has none; `silentForMs` when asking it timed out. */
export type RunnerVersion = string | null | { silentForMs: number };

export interface ToolchainFacts {
  declared: DeclaredVersion[];
  /** What the setup action sets up; null when the default branch has none. */
  setUp: Toolchain[] | null;
  /** In a job: the runner's version of each declared toolchain (`v24.1.0`), null when it has none. Absent with a person's token: the runner is not here to ask. */
  runner?: Partial<Record<Toolchain, RunnerVersion>>;
  /** Why a toolchain file could not be read (one over the contents API's 1 MB), one sentence each. */
  unread?: string[];
}

export interface ToolchainFinding {
  status: 'ok' | 'problem' | 'note' | 'unknown';
  says: string;
  fix?: string;
}

const NAME: Record<Toolchain, string> = { node: 'Node', python: 'Python', go: 'Go', rust: 'Rust' };
/** The action that sets each up, for the fix. */
const SETUP_STEP: Record<Toolchain, string> = {
  node: 'actions/setup-node with node-version-file',
  python: 'actions/setup-python with python-version-file',
  go: 'actions/setup-go with go-version-file',
  rust: 'a `rustup toolchain install` step',
};
/** The program crew asks for its version on the runner. */
export const TOOLCHAIN_PROGRAM: Record<Toolchain, string> = { node: 'node', python: 'python3', go: 'go', rust: 'rustc' };
/** How crew asks it (`go version` prints `go version go1.22.5 linux/amd64`). */
export const VERSION_ARGS: Record<Toolchain, string[]> = { node: ['--version'], python: ['--version'], go: ['version'], rust: ['--version'] };

/** One finding per declared version; none when the files declare none. */
export function toolchainFindings(facts: ToolchainFacts, asking: 'job' | 'token'): ToolchainFinding[] {
  const unread = (facts.unread ?? []).map((why): ToolchainFinding => ({
    status: 'unknown',
    says: `${why}: a toolchain version it may declare was not checked.`,
    fix: 'a version file of its own (.nvmrc, .node-version, .python-version) is read before it; or make the file smaller',
  }));
  return [...declaredFindings(facts, asking), ...unread];
}

function declaredFindings(facts: ToolchainFacts, asking: 'job' | 'token'): ToolchainFinding[] {
  return facts.declared.map((d): ToolchainFinding => {
    const asks = `\`${d.source}\` asks for ${NAME[d.tool]} ${d.version}`;
    if (facts.setUp?.includes(d.tool)) return { status: 'ok', says: `${asks}; the setup steps (${SETUP_ACTION_PATH}) set ${d.tool} up.` };
    const noSteps = facts.setUp === null ? `there is no ${SETUP_ACTION_PATH} to set it up` : `${SETUP_ACTION_PATH} does not set ${d.tool} up`;
    const fix = `\`npx crew init\` writes ${SETUP_ACTION_PATH} with ${SETUP_STEP[d.tool]} (it keeps one you have: add the step yourself, docs/workflow.md)`;
    const program = TOOLCHAIN_PROGRAM[d.tool];
    const found = facts.runner?.[d.tool];
    if (found === undefined)
      return {
        status: 'note',
        says: `${asks}, and ${noSteps}: crew's jobs use the runner's own ${program}, whichever version that is.`,
        fix: `${fix}${asking === 'token' ? "; `/crew doctor` on an issue compares it with the runner's" : ''}`,
      };
    if (found === null) return { status: 'problem', says: `${asks}, the runner has no ${program}, and ${noSteps}.`, fix };
    if (typeof found === 'object')
      return {
        status: 'unknown',
        says: `${asks}; the runner's \`${[program, ...VERSION_ARGS[d.tool]].join(' ')}\` did not answer in ${Math.round(found.silentForMs / 1000)} s, so crew cannot tell its version, and ${noSteps}.`,
        fix,
      };
    const meets = versionMeets(d.version, found);
    if (meets === true) return { status: 'ok', says: `${asks}; the runner's ${program} is ${found}, which meets it.` };
    if (meets === false)
      return {
        status: 'problem',
        says: `${asks}, but the runner's ${program} is ${found}, and ${noSteps}: crew's jobs would build and test with the wrong version.`,
        fix,
      };
    return { status: 'note', says: `${asks}; the runner's ${program} is ${found}, and crew cannot tell whether that meets it; ${noSteps}.`, fix };
  });
}
