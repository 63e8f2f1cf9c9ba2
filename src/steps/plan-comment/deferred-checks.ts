import type { StateSnapshot } from '../../ports';

/** An edit of the plan comment whose check after writing is put off. */
export interface PendingCheck {
  issue: number;
  run: number;
  /** The run's version the edit rendered. */
  version: number;
  /** When the edit was made (performance.now()). */
  editedAt: number;
}

const key = (issue: number, run: number) => `${issue}/${run}`;

/**
 * Every job (#17 §3 for work jobs, #31 §4 for the rest): the read after each plan comment edit that
 * the sync makes (a round trip to GitHub) waits instead for the job's next look at the state, which a
 * worker makes anyway between its turns (saw), or for the job's end. A later edit by this job replaces
 * the pending check, since it renders a newer state and is checked in turn. Only an edit that crossed
 * another job's can leave the comment behind, and then only until that look: ARCHITECTURE.md,
 * "Things that will bite". This is the bookkeeping of one job; sync.ts makes the reads and renders.
 */
export class DeferredChecks {
  private on = false;
  private pending: PendingCheck | undefined;
  /** The runs this job started another job of (handedOn). */
  private readonly handed = new Set<string>();

  /** From now until end(), checks after edits are put off. */
  start(): void {
    this.on = true;
    this.pending = undefined;
    this.handed.clear();
  }

  get deferring(): boolean {
    return this.on;
  }

  /** The edit just made is checked later; it replaces any check of an earlier edit of this job's. */
  putOff(check: PendingCheck): void {
    this.pending = check;
  }

  /**
   * This job started another job of the run (the work matrix, advance, the critic, a dispatched
   * workflow run). That job reads the state after it starts and syncs the plan comment itself, so an
   * edit of this job's that crossed another's is healed there: this job's check at its end is spared.
   */
  handedOn(issue: number, run: number): void {
    if (this.on) this.handed.add(key(issue, run));
  }

  /**
   * This job wrote something of the run the plan comment does not show, on top of version `from`. When
   * that is the version the pending edit rendered, the write (a compare-and-swap) proves no other job
   * wrote the run between that edit and it, so no later edit can have crossed it: the check is settled,
   * and the comment shows everything it would show of the newer version.
   */
  wroteUnshown(issue: number, run: number, from: number): void {
    const p = this.pending;
    if (p && p.issue === issue && p.run === run && p.version === from) this.pending = undefined;
  }

  /** An edit that rendered the newest state (and needs no check) replaces the check of an earlier one. */
  replacedBy(issue: number, run: number): void {
    if (this.pending?.issue === issue && this.pending.run === run) this.pending = undefined;
  }

  /**
   * A read of the run's state GitHub confirmed after the pending edit: the check is taken from here
   * (the caller renders again if the state moved since); anything else leaves it pending.
   */
  takeSeen(issue: number, run: number, snapshot: StateSnapshot): PendingCheck | undefined {
    const p = this.pending;
    if (!this.on || !p || p.issue !== issue || p.run !== run || snapshot.confirmedAt === undefined || snapshot.confirmedAt < p.editedAt) return undefined;
    this.pending = undefined;
    return p;
  }

  /** A check taken that could not be made: still owed, unless a newer edit replaced it meanwhile. */
  owe(check: PendingCheck): void {
    if (this.on) this.pending ??= check;
  }

  /**
   * The job's end: from here on the job edits and checks at once. Returns the check still owed, none
   * when the job succeeded and handed the run on to another job. A job that failed is checked whatever
   * it handed on: the jobs it started may not run.
   */
  end(succeeded: boolean): PendingCheck | undefined {
    const p = this.pending;
    const handed = p !== undefined && this.handed.has(key(p.issue, p.run));
    this.on = false;
    this.pending = undefined;
    this.handed.clear();
    return !p || (succeeded && handed) ? undefined : p;
  }
}
