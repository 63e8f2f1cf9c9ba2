import { MAX_FAILOVER_NOTES } from '../../domain/run-state';
import { readRun, writeRun } from '../../state/run-files';
import { nowIso, updateRunFolder, type StepContext } from '../context';

/**
 * What this job tells the run before each plan comment render: the waits GitHub's rate limits imposed
 * on it, and its model calls' failovers to `fallback_provider`, each written once, so the plan
 * comment (and the report) say so. The counts are this job's: another job's notes are its own.
 */
export class RunNotes {
  /** How many of this job's rate-limit waits are already in the run's record. */
  private rateLimits = 0;
  /** How many of this job's failovers are already in the run's record. */
  private failovers = 0;

  constructor(private readonly ctx: StepContext) {}

  /** No rate-limit wait since the last note: an edit just made was not held up by one. */
  rateLimitsNoted(): boolean {
    return this.ctx.forge.rateLimitWaits().length === this.rateLimits;
  }

  /** Nothing to note: no rate-limit wait and no failover since the last notes. */
  allNoted(): boolean {
    return this.rateLimitsNoted() && (this.ctx.modelFailovers?.() ?? []).length === this.failovers;
  }

  /** Whether this job failed over since the plan comment last said so (a model call after the step's last sync). */
  unnotedFailovers(): boolean {
    return (this.ctx.modelFailovers?.().length ?? 0) > this.failovers;
  }

  /** Writes what is new since the last notes into the run. */
  async write(issue: number, run: number): Promise<void> {
    await this.noteRateLimits(issue, run);
    await this.noteFailovers(issue, run);
  }

  /**
   * Records in the run the waits GitHub's rate limits imposed on this job since it last
   * did, as one note, so the plan comment says so once requests are possible again.
   */
  private async noteRateLimits(issue: number, run: number): Promise<void> {
    const ctx = this.ctx;
    const waits = ctx.forge.rateLimitWaits();
    const fresh = waits.slice(this.rateLimits);
    if (!fresh.length) return;
    this.rateLimits = waits.length;
    const note = { at: fresh[0]!.at, seconds: Math.round(fresh.reduce((sum, w) => sum + w.seconds, 0)) };
    await updateRunFolder(ctx, issue, run, `GitHub rate-limited a job for ${note.seconds}s`, (tx) => {
      const rec = readRun(tx, issue, run);
      if (rec) writeRun(tx, { ...rec, rateLimited: [...rec.rateLimited, note].slice(-3) }, nowIso(ctx));
    });
  }

  /**
   * Records in the run each failover to `fallback_provider` this job made since it last did, so the
   * plan comment (and the report) say which provider hit which limit and where the run went on.
   */
  private async noteFailovers(issue: number, run: number): Promise<void> {
    const ctx = this.ctx;
    const all = ctx.modelFailovers?.() ?? [];
    const fresh = all.slice(this.failovers);
    if (!fresh.length) return;
    this.failovers = all.length;
    const who = ctx.settings.task ? `the worker of ${ctx.settings.task}` : `the ${ctx.settings.step} job`;
    await updateRunFolder(ctx, issue, run, `${fresh[0]!.from} hit a limit; went on with ${fresh[0]!.to}`, (tx) => {
      const rec = readRun(tx, issue, run);
      if (rec) writeRun(tx, { ...rec, failovers: [...rec.failovers, ...fresh.map((f) => ({ ...f, job: who }))].slice(-MAX_FAILOVER_NOTES) }, nowIso(ctx));
    });
  }
}
