import { CONFIG_FILE } from './doctor';
import { unreachedLoopback, sandboxEnvNameProblem, serviceKey } from './sandbox-reach';

/**
 * What the agents' run_command tells the model about the runner's environment and loopback services (#51):
 * up front, in the tool's description, which of them the sandboxed commands get; and after a failed command
 * whose output points at one they do not get, one short line saying so, so the model does not spend turns
 * on what only a maintainer can change (`sandbox_env`, `network.services`).
 */
export interface ModelReach {
  /** A sentence for run_command's description. */
  told(sandboxed: boolean): string;
  /** A line for a failed command's result, or null when nothing in its output points at the runner's environment. */
  note(output: string, sandboxed: boolean): string | null;
}

export interface ModelReachFacts {
  /** The variables sandbox_env hands over, and those it names that no setup step set. */
  passed: readonly string[];
  missing: readonly string[];
  /** network.services' addresses (serviceKey), and those that refused crew's bridge on the runner. */
  services: readonly string[];
  refused(): readonly string[];
  /** Whether the runner's environment (crew's) holds `name` with a value crew may hand over: not a secret it knows. */
  runnerHas(name: string): boolean;
  /** network.services' addresses when they are unavailable in this job, and why. */
  off?: { services: readonly string[]; why: string };
}

/** At most this many names in a note: it stays one short line. */
const SHOWN = 3;
const list = (names: readonly string[]) => names.slice(0, SHOWN).join(', ') + (names.length > SHOWN ? ` and ${names.length - SHOWN} more` : '');

/** A word on a line that says something is missing: where a name of a variable in the output counts. */
const MISSING = /not set|unset|undefined|missing|required|KeyError|must be set|is empty|not defined|no such|environment|getenv|env\b/i;

/** The shell's own variables: a line that names one is about something else. */
const SHELL_OWN = new Set(['USER', 'LOGNAME', 'SHELL', 'PWD', 'OLDPWD', 'SHLVL', 'HOSTNAME', 'MAIL']);

/** Upper-case names a failed command's output mentions on a line that says something is missing. */
function namedVariables(output: string): string[] {
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    if (!MISSING.test(line)) continue;
    for (const m of line.matchAll(/(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])|(?<![A-Za-z0-9_$])[A-Z]{4,}(?![A-Za-z0-9_])/g))
      if (m[0].length <= 64 && !SHELL_OWN.has(m[0])) names.add(m[0]);
  }
  return [...names];
}

export function modelReach(facts: ModelReachFacts): ModelReach {
  return {
    told: (sandboxed) => {
      const given = [
        ...(facts.passed.length ? [`the variables ${facts.passed.join(', ')} (sandbox_env)`] : []),
        ...(sandboxed && facts.services.length ? [`the services at ${facts.services.join(', ')} on the runner's loopback (network.services)`] : []),
      ];
      const rest = sandboxed
        ? "no other variable of the runner's environment and no other port on its loopback reach them"
        : "no other variable of the runner's environment reaches them";
      const off =
        sandboxed && facts.off ? ` The services at ${facts.off.services.join(', ')} (network.services) are unavailable in this job: ${facts.off.why}.` : '';
      return `${given.length ? `From the repository's setup steps, commands get ${given.join(' and ')}; ${rest}` : `Commands get no variable of the runner's environment${sandboxed ? ' and no service on its loopback' : ''}`} (only a maintainer can change that, in ${CONFIG_FILE}).${off}`;
    },
    note: (output, sandboxed) => {
      const said: string[] = [];
      if (sandboxed) {
        const addresses = unreachedLoopback(output).map(serviceKey);
        const unnamed = addresses.filter((a) => !facts.services.includes(a) && !facts.off?.services.includes(a));
        const off = addresses.filter((a) => facts.off?.services.includes(a));
        if (off.length) said.push(`${list(off)} is named in network.services but unavailable in this job: ${facts.off!.why}`);
        if (unnamed.length)
          said.push(`${list(unnamed)} on the runner is not reachable from the sandbox (not in network.services; a maintainer can add it in ${CONFIG_FILE})`);
        // A named service's bridge saw the runner refuse it; the command may only have seen its connection closed.
        const dead = facts.refused().filter((a) => output.includes(a));
        if (dead.length) said.push(`nothing listened at ${list(dead)} on the runner: the repository's setup steps did not start that service`);
      }
      const named = namedVariables(output);
      const missing = named.filter((n) => facts.missing.includes(n));
      if (missing.length) said.push(`${list(missing)} is named in sandbox_env but no setup step set it`);
      const held = named.filter((n) => !facts.passed.includes(n) && !facts.missing.includes(n) && sandboxEnvNameProblem(n) === null && facts.runnerHas(n));
      if (held.length) said.push(`${list(held)} is set on the runner but not passed to the sandbox (a maintainer can add it to sandbox_env in ${CONFIG_FILE})`);
      return said.length ? `crew: ${said.join('; ')}.` : null;
    },
  };
}
