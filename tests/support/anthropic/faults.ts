import type { Identity } from './script';

export interface Fault {
  /** Every given field must equal the request's identity; no match means any request. */
  match?: Partial<Identity>;
  /**
   * '429' rate_limit_error, '529' overloaded_error, '500' api_error; 'midstream' starts the SSE
   * and then sends an `error` event (it only matches streaming requests); 'drop' destroys the
   * socket without answering.
   */
  kind: '429' | '529' | '500' | 'midstream' | 'drop';
  /** How many matching requests it hits (default 1). */
  times?: number;
  /** Sent as `retry-after` with a 429. */
  retryAfterSeconds?: number;
}

/** Faults in the order added; each matching request consumes one hit of the first live match. */
export class FaultPlan {
  readonly #pending: Array<{ fault: Fault; remaining: number }> = [];

  add(faults: Fault[]): void {
    for (const fault of faults) this.#pending.push({ fault, remaining: fault.times ?? 1 });
  }

  take(identity: Identity, stream: boolean): Fault | undefined {
    const slot = this.#pending.find(
      ({ fault, remaining }) =>
        remaining > 0 &&
        (stream || fault.kind !== 'midstream') &&
        Object.entries(fault.match ?? {}).every(([key, value]) => identity[key as keyof Identity] === value),
    );
    if (!slot) return undefined;
    slot.remaining -= 1;
    return slot.fault;
  }
}
