import { createHash } from 'node:crypto';
import YAML from 'yaml';
import { z } from 'zod';
import { identify, type Identity } from '../../../src/domain/model-request';
import { selectEntry, STOP_REASONS } from '../../../src/adapters/scripted/replies';
import type { MidstreamFault } from './faults';
import type { ContentBlock, MessagesRequest } from './request';
import type { OutputBlock, Usage } from './usage';

/** Who is asking, derived from the request content only (see `identifyRequest`). */
export type { Identity };

/** A request as scripts see it, before the fake answers. */
export interface IncomingRequest extends Identity {
  seq: number;
  receivedAt: number;
  auth: 'x-api-key' | 'bearer' | 'sigv4' | 'none';
  /** With a platform front (platforms.ts): which, the path the request came in on, and whose credentials signed it. */
  platform?: { kind: 'bedrock' | 'vertex'; path: string; principal: string };
  body: MessagesRequest;
  stream: boolean;
}

/** A request as recorded once the fake has decided its outcome. */
export interface RecordedRequest extends IncomingRequest {
  /** HTTP status, or how a faulted stream/connection ended. */
  outcome: number | MidstreamFault | 'drop';
  /** Usage the client was told about. */
  usage?: Usage;
  reply?: OutputBlock[];
  error?: { type: string; message: string };
}

const scriptedBlockSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string().min(1) }),
  /**
   * The fake adds a deterministic `signature`. Empty text is allowed: it is what the real API
   * returns at `display: 'omitted'`.
   */
  z.strictObject({ type: z.literal('thinking'), thinking: z.string() }),
  z.strictObject({
    type: z.literal('tool_use'),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()),
    id: z.string().min(1).optional(),
  }),
]);

const scriptedReplySchema = z.strictObject({
  content: z.array(scriptedBlockSchema).min(1),
  /**
   * max_tokens: the stream is cut inside the last block (a tool call's JSON stops midway), as the
   * real API cuts a reply at the request's `max_tokens`. refusal, pause_turn and
   * model_context_window_exceeded are sent as given.
   */
  stop_reason: z.enum(STOP_REASONS).optional(),
  delay_ms: z.number().nonnegative().optional(),
  /**
   * Holds the reply until the fake has received this many requests from that role (and task),
   * counting those still being answered. It orders parallel jobs by what they did, where a delay
   * would guess how long a loaded machine takes to get there.
   */
  after: z.strictObject({ role: z.string().min(1), task: z.string().min(1).optional(), requests: z.number().int().positive() }).optional(),
});

const scriptEntrySchema = z.strictObject({
  role: z.string().min(1),
  task: z.string().min(1).optional(),
  attempt: z.number().int().positive().optional(),
  /** The entry applies only when the conversation's first user message contains this text. */
  contains: z.string().min(1).optional(),
  replies: z.array(scriptedReplySchema),
});

const scriptSchema = z.strictObject({
  entries: z.array(scriptEntrySchema),
  respond: z
    .custom<(request: IncomingRequest) => ScriptedReply | undefined>((value) => typeof value === 'function', {
      message: 'Expected a function',
    })
    .optional(),
});

export type ScriptedBlock = z.infer<typeof scriptedBlockSchema>;
export type ScriptedReply = z.infer<typeof scriptedReplySchema>;
export type ScriptEntry = z.infer<typeof scriptEntrySchema>;
/** `respond`, when given, is consulted before `entries`; returning undefined falls through. */
export type Script = z.infer<typeof scriptSchema>;

function parseWith<T>(schema: z.ZodType<T>, data: unknown, what: string, at: string[] = []): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${[...at, ...issue.path].join('.') || '(root)'}: ${issue.message}`);
  throw new Error(`Invalid ${what}:\n${problems.join('\n')}`);
}

/** Validates a script from plain (JSON/YAML-shaped) data; errors name the bad path, under `at` when given (e.g. `model`). */
export const parseScript = (data: unknown, at: string[] = []): Script => parseWith(scriptSchema, data, 'fake-anthropic script', at);

export const parseScriptYaml = (text: string): Script => parseScript(YAML.parse(text));

const textOf = (content: string | ContentBlock[] | undefined): string =>
  typeof content === 'string'
    ? content
    : (content ?? []).flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n');

/**
 * role: first `You are crew's <role>` in the system prompt, else 'unknown'.
 * task / attempt: `Task: <id>` / `Attempt: <n>` lines of the first user message (attempt 1 if absent).
 * turn: assistant messages already in the conversation, so a retried request gets the same reply.
 * The rule is crew's own (src/domain/model-request.ts, as scripted replies use it), so a script file
 * plays the same against this fake and against `crew run --scripted`.
 */
export function identifyRequest(body: MessagesRequest): Identity {
  return identify(
    textOf(body.system),
    textOf(body.messages.find((message) => message.role === 'user')?.content),
    body.messages.filter((message) => message.role === 'assistant').length,
  );
}

/** Most specific matching entry wins: task counts more than attempt; ties go to the earlier entry. */
export function selectReply(script: Script, request: IncomingRequest): ScriptedReply | undefined {
  const responded = script.respond?.(request);
  if (responded !== undefined) return parseWith(scriptedReplySchema, responded, 'reply from respond()');

  return selectEntry(script.entries, request, firstUserText(request.body))?.replies[request.turn];
}

function firstUserText(body: MessagesRequest): string {
  const first = body.messages.find((m) => m.role === 'user');
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n');
}

const seedOf = (identity: Identity, ...rest: unknown[]) => JSON.stringify([identity.role, identity.task, identity.attempt, identity.turn, ...rest]);

/** Ids derive from who asked and where, so a retried request gets identical tool_use ids. */
function toolUseId(identity: Identity, index: number): string {
  const digest = createHash('sha256').update(seedOf(identity, index)).digest('base64url');
  return `toolu_${digest.replace(/[-_]/g, '').slice(0, 24)}`;
}

/**
 * Opaque like the real one, and deterministic: it derives from who asked, where, and the thinking
 * text, so a retried request gets the same signature and different text never shares one.
 */
export function thinkingSignature(identity: Identity, index: number, thinking: string): string {
  return createHash('sha512')
    .update(seedOf(identity, index, 'thinking', thinking))
    .digest('base64');
}

function materializeBlock(block: ScriptedBlock, identity: Identity, index: number): OutputBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: thinkingSignature(identity, index, block.thinking) };
    case 'tool_use':
      return { type: 'tool_use', id: block.id ?? toolUseId(identity, index), name: block.name, input: block.input };
  }
}

export function materializeReply(reply: ScriptedReply, identity: Identity): { content: OutputBlock[]; stopReason: NonNullable<ScriptedReply['stop_reason']> } {
  const content = reply.content.map((block, index) => materializeBlock(block, identity, index));
  const stopReason = reply.stop_reason ?? (content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
  return { content, stopReason };
}
