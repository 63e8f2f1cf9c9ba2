import type { Identity } from './script';

export interface Fault {
  /** Every given field must equal the request's identity; no match means any request. */
  match?: Partial<Identity>;
  /**
   * '429' rate_limit_error, '529' overloaded_error, '500' api_error, 'spend-limit' the monthly spend
   * cap (a 429 rate_limit_error with `details.error_code: enforced_spend_limit_reached`, no retry-after).
   * On Amazon Bedrock a 429 is its ThrottlingException and a 529 its 503 ServiceUnavailableException;
   * on Vertex AI a 429 is Google's RESOURCE_EXHAUSTED (server.ts). 'midstream' starts the SSE
   * and then sends an `error` event; 'reset-midstream' starts the SSE and then destroys the socket
   * (a connection reset: Node's fetch reports `terminated`); 'eof-midstream' starts the SSE and then
   * ends the response cleanly without `message_stop` (a proxy or load balancer closing early). The
   * three midstream kinds only match streaming requests. 'drop' destroys the socket without answering.
   */
  kind: '429' | '529' | '500' | 'spend-limit' | 'drop' | MidstreamFault;
  /** How many matching requests it hits (default 1). */
  times?: number;
  /** Sent as `retry-after` (and `retry-after-ms`) with a 429 or 529. */
  retryAfterSeconds?: number;
  /** Sent as `retry-after-ms` alone (model time, not scaled) with a 429 or 529. */
  retryAfterMs?: number;
}

export const MIDSTREAM_FAULTS = ['midstream', 'reset-midstream', 'eof-midstream'] as const;
export type MidstreamFault = (typeof MIDSTREAM_FAULTS)[number];
export const isMidstream = (kind: Fault['kind']): kind is MidstreamFault => (MIDSTREAM_FAULTS as readonly string[]).includes(kind);

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
        (stream || !isMidstream(fault.kind)) &&
        Object.entries(fault.match ?? {}).every(([key, value]) => identity[key as keyof Identity] === value),
    );
    if (!slot) return undefined;
    slot.remaining -= 1;
    return slot.fault;
  }
}
