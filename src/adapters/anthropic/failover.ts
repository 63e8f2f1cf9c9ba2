import { ModelError, type Clock, type Log, type Model, type ModelFailover, type ModelReply, type ModelRequest } from '../../ports';

/** One side of a failover: the Model port over a provider's client, with its name for messages. */
export type FailoverSide = Model & { readonly label: string };

/**
 * `fallback_provider`: the primary provider's Model until it fails with a limit (overloaded or
 * rate-limited past all its retries, or a spend cap: `ModelError.limit`, set by AnthropicModel),
 * then the fallback's for the rest of the job. The request that hit the limit goes to the fallback
 * at once, with the fallback's own model id for the same tier, so the attempt goes on where it
 * was: nothing of the failed request was used, and the conversation is sent unchanged
 * (append-only, as preserved thinking requires; see docs/ARCHITECTURE.md on what that assumes).
 *
 * Staying on the fallback for the rest of the job spares every later request the primary's whole
 * retry budget; the next job tries the primary again, so a passing overload costs one job's wait.
 * A limit is never success: when the fallback fails too, the error names both and the step fails
 * as it would have without a fallback. Any other error of the primary (a 400, a 500 past its
 * retries, a dropped connection) is not the fallback's to fix and is thrown as it is.
 */
export class FailoverModel implements Model {
  private switched: ModelFailover | undefined;

  constructor(
    private readonly primary: FailoverSide,
    private readonly fallback: FailoverSide,
    /** The fallback's model id for the primary's (the same tier in the fallback's mapping); undefined when the id is in no tier. */
    private readonly fallbackModel: (primaryModel: string) => string | undefined,
    private readonly clock: Clock,
    private readonly log: Log,
    /** Told once, when this job's calls move to the fallback (the plan comment says so). */
    private readonly onFailover: (failover: ModelFailover) => void,
  ) {}

  async complete(req: ModelRequest): Promise<ModelReply> {
    if (!this.switched) {
      try {
        return await this.primary.complete(req);
      } catch (e) {
        if (!(e instanceof ModelError) || e.limit === undefined) throw e;
        this.switchOver(e.limit);
      }
    }
    const via = this.switched!;
    const model = this.fallbackModel(req.model);
    if (model === undefined)
      throw new ModelError(
        `${via.from} was ${via.reason} past its retries, and crew cannot go on with ${via.to}: the model id \`${req.model}\` is none of the tiers in \`models:\`, so the fallback's own id for it is unknown`,
        via.from,
        via.reason,
      );
    try {
      return await this.fallback.complete({ ...req, model });
    } catch (e) {
      if (!(e instanceof ModelError)) throw e;
      // Both providers failed: the run fails visibly, naming both, never as a success.
      throw new ModelError(
        `${via.from} was ${via.reason} past its retries, and the fallback ${via.to} failed too: ${e.message}`,
        // Either answering again is enough for `/crew resume`: the next job tries the primary first.
        `${via.from} or its fallback ${via.to}`,
        e.limit,
      );
    }
  }

  private switchOver(reason: string): void {
    if (this.switched) return;
    this.switched = { at: this.clock.now().toISOString(), from: this.primary.label, to: this.fallback.label, reason };
    this.log.warn(
      `${this.primary.label} was ${reason} past its retries; crew goes on with ${this.fallback.label} (\`fallback_provider\`) for the rest of this job`,
    );
    this.onFailover(this.switched);
  }
}
