import type { Team } from '../agents/team-tools';
import type { Config } from '../config/schema';
import { addRefusals, hostAllowed, type Refusals } from '../domain/egress';
import { serversFor } from '../domain/mcp';
import { reviewedSha } from '../domain/run-state';
import { stdioServerDir } from '../mcp/server-dir';
import { startMcpServers } from '../mcp/servers';
import { jobTempDir } from '../sandbox/own-temp';
import { timeScale } from '../clock';
import { messageId, readInbox, writeMessage } from '../state/inbox';
import { runFolder } from '../domain/refs';
import { loadView, nonce, nowIso, planCheckSaw, SEEN, updateView, type StepContext } from './context';
import { prepareTools } from '../toolbox/sandbox-setup';
import { runStopRequest } from './budget-stop';
import { readRun } from '../state/run-files';
import type { TakenTask } from './work-claim';

/**
 * The worker checks its inbox between turns. Asking GitHub for the state's tip each time is a
 * round trip per turn; a teammate's message or an abort's shutdown request can wait this long
 * instead (30 s, time-scaled), which a turn of a real model mostly takes anyway.
 */
const TEAM_NEWS_MS = 30_000;
export const teamFreshness = () => ({ seenWithinMs: TEAM_NEWS_MS * timeScale() });

type Tools = Awaited<ReturnType<typeof prepareTools>>;

/** What a leg's worker works with, opened once per task and closed once (`dispose`). */
export interface Toolbox {
  runner: Tools['runner'];
  warning: Tools['warning'];
  setupFailure: Tools['setupFailure'];
  egress: Tools['egress'];
  reach: Tools['reach'];
  mcp: Awaited<ReturnType<typeof startMcpServers>>;
  team: Team;
  /** A new attempt's first look at its inbox may use what the job last saw. */
  newAttempt(): void;
  /** What the proxy and the MCP servers refused in this job, added to what the task's earlier jobs recorded. */
  refused(): Refusals;
  dispose(): Promise<void>;
}

/** The teammates' tools: who else is running, messages to them, this task's inbox. */
function teamOf(ctx: StepContext, t: TakenTask, fresh: { looked: boolean }): Team {
  const { issue, run } = t;
  const taskId = t.rec.id;
  return {
    running: async () =>
      [...(await loadView(ctx, issue, run, teamFreshness())).tasks.values()]
        .filter((x) => x.id !== taskId && (x.status === 'running' || x.status === 'retrying'))
        .map((x) => x.id),
    send: async (to, text) => {
      await updateView(ctx, issue, run, `${taskId} messages ${to}`, (v, tx) => {
        const targets =
          to === 'all' ? [...v.tasks.values()].filter((x) => x.id !== taskId && (x.status === 'running' || x.status === 'retrying')).map((x) => x.id) : [to];
        const at = nowIso(ctx);
        for (const target of targets)
          writeMessage(tx, issue, run, {
            id: messageId(at, taskId, nonce()),
            from: taskId,
            to: target,
            type: to === 'all' ? 'broadcast' : 'message',
            text,
            at,
          });
      });
    },
    inbox: async () => {
      // An attempt's first look may use what the job last saw (it read the state to start the task); later looks are fresh within TEAM_NEWS_MS.
      const seen = await ctx.state.load(`${runFolder(issue, run)}/`, fresh.looked ? teamFreshness() : SEEN);
      fresh.looked = true;
      // A look GitHub answered also makes the check put off after the job's last plan comment edit. The
      // worker's turn does not hang on the comment: a failed render stays pending for the job's end.
      await planCheckSaw(ctx, issue, run, seen).catch((e: unknown) =>
        ctx.log.warn(`could not bring the plan comment up to date between turns (tried again at the job's end): ${e instanceof Error ? e.message : String(e)}`),
      );
      const messages = readInbox(seen, issue, run, taskId);
      // The run stopped at its or the repository's budget (#52): this task, or this parallel attempt, stops at the end of its turn too.
      const stop = runStopRequest(readRun(seen, issue, run), taskId);
      return stop ? [...messages, stop] : messages;
    },
  };
}

/**
 * The sandbox (setup, the command runner, the egress proxy) and the repository's MCP servers for
 * workers (#36), started once per task. Only the run's base itself is the repository's reviewed
 * code; a resumed branch or merged dependencies hold a model's. A chained task's checkout is the one
 * the task before it worked in: ignored files its commands left (setup output is excluded, `git
 * clean` keeps it) are a model's, so its setup runs in the sandbox whatever its start. A follow-up's
 * base is its pull request's head, a model's: reviewedSha is then the first run's base.
 */
export async function openToolbox(ctx: StepContext, config: Config, t: TakenTask, chained: boolean): Promise<Toolbox> {
  const trusted = !chained && (await ctx.repo.head()) === reviewedSha(t.view.run);
  // A leg that only judges recorded attempts (#50) runs no worker, so it needs no server.
  const mcpServers = t.judge ? [] : serversFor(config.mcp_servers, 'worker');
  const tools = await prepareTools(ctx, config, { trusted, mcp: mcpServers.some(([, s]) => !!s.command) });
  const { runner, warning, setupFailure, egress, reach } = tools;
  // Started last: nothing that may throw comes between the servers' start and the caller's `try` whose `finally`
  // disposes; a throw before that closes the tools here.
  const { serverDir, mcp } = await startServers(ctx, config, t, { trusted, mcpServers, tools }).catch(async (e: unknown) => {
    await tools.dispose();
    throw e;
  });
  const fresh = { looked: false };
  return {
    runner,
    warning,
    setupFailure,
    egress,
    reach,
    mcp,
    team: teamOf(ctx, t, fresh),
    newAttempt: () => void (fresh.looked = false),
    refused: () => addRefusals(t.rec.refused, egress?.refused(), mcp.refused()),
    dispose: async () => {
      await mcp.close();
      await serverDir.dispose();
      await tools.dispose();
    },
  };
}

/** After the setup: its output kept out of the task's commits, then the repository's MCP servers, in the sandbox where they run commands. */
async function startServers(
  ctx: StepContext,
  config: Config,
  t: TakenTask,
  { trusted, mcpServers, tools }: { trusted: boolean; mcpServers: ReturnType<typeof serversFor>; tools: Tools },
) {
  const { runner, setupFailure } = tools;
  if (config.setup.length) {
    const produced = await ctx.repo.excludeUntracked();
    if (produced.length) ctx.log.info(`setup produced ${produced.length} untracked path(s); they stay out of the task's commits`);
  }
  const serverDir = await stdioServerDir({
    // With no stdio server to start, there is nothing to copy.
    trusted: trusted || setupFailure !== null || !mcpServers.some(([, s]) => !!s.command),
    repo: ctx.repo,
    remote: ctx.remote,
    reviewedSha: reviewedSha(t.view.run),
    tempDir: jobTempDir(),
    log: ctx.log,
  });
  const mcp = await startMcpServers({
    servers: setupFailure ? [] : mcpServers,
    runner,
    cwd: serverDir.dir,
    // What the step's own `env:` passes (the full form), and the crew_env input's variables (either form) over it.
    env: { ...process.env, ...ctx.settings.crewEnv },
    network: runner?.egress ? 'allowlist' : 'none',
    allowedHost: (host) => hostAllowed(config.network.allow, host),
    log: ctx.log,
  }).catch(async (e: unknown) => {
    await serverDir.dispose();
    throw e;
  });
  return { serverDir, mcp };
}
