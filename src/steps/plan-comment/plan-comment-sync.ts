import type { RunRecord, RunView } from '../../domain/run-state';
import type { StateSnapshot, StateTx, WriteOptions } from '../../ports';

/**
 * One job's side of the plan comment (sync.ts): the comment brought up to date with crew/state,
 * the checks after its edits (some put off to the job's next look at the state, deferred-checks.ts)
 * and the notes it adds to the run first (notes.ts). The entry makes one per job (withPlanCommentSync)
 * and the context carries it as `ctx.planComment`: what it remembers (the check it put off, the runs
 * it handed on, the notes already written) is that job's alone, however many jobs share a process.
 */
export interface PlanCommentSync {
  /** Brings the plan comment up to date with the state, checking after each edit until the state holds still. */
  sync(issue: number, run: number): Promise<void>;
  /** For a job that writes nothing to the run: renders again only if the comment lags the state this job saw. */
  catchUp(issue: number, run: number): Promise<void>;
  /** Syncs through whichever run holds the comment now: `run`, or the follow-up it was passed on to. */
  syncHolder(issue: number, run: number): Promise<void>;
  /** One write of a run whose plan comment is edited first; returns whether the write changed the run. */
  updateShownFirst(
    view: RunView,
    what: string,
    change: (rec: RunRecord) => RunRecord | undefined,
    options?: WriteOptions,
    files?: (tx: StateTx) => void,
  ): Promise<boolean>;
  /** Runs the job's step with the checks after its edits put off to its end (or its next look at the state). */
  withChecksAtEnd(step: () => Promise<void>): Promise<void>;
  /** This job started another job of the run, which syncs the comment itself. */
  handedOn(issue: number, run: number): void;
  /** This job wrote something of the run the comment does not show, on top of version `from`. */
  wroteUnshown(issue: number, run: number, from: number): void;
  /** A read of the run's state this job made for its own reasons, which may settle the check put off. */
  saw(issue: number, run: number, snapshot: StateSnapshot): Promise<void>;
  /** Whether this job failed over since the comment last said so. */
  unnotedFailovers(): boolean;
}
