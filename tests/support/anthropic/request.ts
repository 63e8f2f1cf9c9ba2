import { invalidRequest } from './errors';
import { checkImages } from './images';

export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** Any request content block; only the fields the fake inspects are typed. */
export interface ContentBlock {
  type: string;
  text?: unknown;
  id?: unknown;
  tool_use_id?: unknown;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export interface ToolParam {
  name: string;
  cache_control?: CacheControl | null;
  [key: string]: unknown;
}

/** A `POST /v1/messages` body that passed validation. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string | ContentBlock[];
  tools?: ToolParam[];
  tool_choice?: { type: string; name?: unknown };
  thinking?: { type: string; budget_tokens?: unknown; [key: string]: unknown };
  temperature?: unknown;
  top_p?: unknown;
  top_k?: unknown;
  stream?: boolean;
  [key: string]: unknown;
}

const MAX_CACHE_BREAKPOINTS = 4;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates a parsed body like the real API does, throwing a 400 `ApiError` with its wording.
 * Only model-independent rules live here; see models.ts for the per-model ones (prefill included)
 * and thinking.ts for the thinking blocks sent back.
 */
export function validateMessagesRequest(body: unknown): MessagesRequest {
  if (!isObject(body)) throw invalidRequest('Input should be a valid dictionary');
  checkShape(body);
  const request = body as MessagesRequest;
  checkEmptyText(request);
  checkImages(request.messages);
  checkToolPairing(request.messages);
  checkCacheControl(request);
  checkToolChoice(request);
  return request;
}

function checkShape(body: Record<string, unknown>): void {
  for (const field of ['model', 'max_tokens', 'messages']) {
    if (body[field] === undefined) throw invalidRequest(`${field}: Field required`);
  }
  if (typeof body.model !== 'string' || body.model === '') {
    throw invalidRequest('model: Input should be a valid string');
  }
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) {
    throw invalidRequest('max_tokens: Input should be a valid integer');
  }
  if (body.max_tokens < 1) throw invalidRequest('max_tokens: Input should be greater than or equal to 1');
  if (!Array.isArray(body.messages)) throw invalidRequest('messages: Input should be a valid list');
  if (body.messages.length === 0) throw invalidRequest('messages: at least one message is required');
  body.messages.forEach((message: unknown, i) => {
    if (!isObject(message)) throw invalidRequest(`messages.${i}: Input should be a valid dictionary`);
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw invalidRequest(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    }
    checkContent(message.content, `messages.${i}.content`);
  });
  if (body.system !== undefined) checkContent(body.system, 'system');
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) throw invalidRequest('tools: Input should be a valid list');
    body.tools.forEach((tool: unknown, i) => {
      if (!isObject(tool) || typeof tool.name !== 'string') throw invalidRequest(`tools.${i}.name: Field required`);
      // "Define tools": a tool's name must match ^[a-zA-Z0-9_-]{1,64}$ (platform.claude.com, tool use, `name`).
      if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) throw invalidRequest(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    });
  }
  if (body.tool_choice !== undefined && (!isObject(body.tool_choice) || typeof body.tool_choice.type !== 'string')) {
    throw invalidRequest('tool_choice: Input should be a valid dictionary');
  }
  if (body.thinking !== undefined) {
    if (!isObject(body.thinking) || typeof body.thinking.type !== 'string') {
      throw invalidRequest('thinking: Input should be a valid dictionary');
    }
    const budget = body.thinking.budget_tokens;
    if (body.thinking.type === 'enabled' && (typeof budget !== 'number' || !Number.isInteger(budget))) {
      throw invalidRequest('thinking.enabled.budget_tokens: Field required');
    }
  }
}

function checkStringField(block: Record<string, unknown>, field: string, path: string): void {
  if (block[field] === undefined) throw invalidRequest(`${path}.${field}: Field required`);
  if (typeof block[field] !== 'string') throw invalidRequest(`${path}.${field}: Input should be a valid string`);
}

function checkContent(content: unknown, path: string): void {
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) throw invalidRequest(`${path}: Input should be a valid string or list`);
  content.forEach((block: unknown, j) => {
    if (!isObject(block) || typeof block.type !== 'string') throw invalidRequest(`${path}.${j}.type: Field required`);
    if (block.type === 'text' && typeof block.text !== 'string') {
      throw invalidRequest(`${path}.${j}.text: Input should be a valid string`);
    }
    if (block.type === 'thinking') {
      checkStringField(block, 'thinking', `${path}.${j}`);
      checkStringField(block, 'signature', `${path}.${j}`);
    }
  });
}

function checkEmptyText(request: MessagesRequest): void {
  const hasEmptyBlock = (content: string | ContentBlock[] | undefined) =>
    Array.isArray(content) && content.some((block) => block.type === 'text' && block.text === '');
  if (hasEmptyBlock(request.system)) throw invalidRequest('system: text content blocks must be non-empty');
  if (request.messages.some((message) => hasEmptyBlock(message.content))) {
    throw invalidRequest('messages: text content blocks must be non-empty');
  }
  const last = request.messages.length - 1;
  request.messages.forEach((message, i) => {
    const isFinalAssistant = i === last && message.role === 'assistant';
    if (message.content.length === 0 && !isFinalAssistant) {
      throw invalidRequest(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
  });
}

export const blocksOf = (message: MessageParam | undefined): ContentBlock[] => (Array.isArray(message?.content) ? message.content : []);

function toolUseIds(message: MessageParam | undefined): string[] {
  if (message?.role !== 'assistant') return [];
  return blocksOf(message)
    .filter((block) => block.type === 'tool_use')
    .map((block) => String(block.id));
}

function checkToolPairing(messages: MessageParam[]): void {
  messages.forEach((message, i) => {
    if (message.role === 'assistant') {
      const next = messages[i + 1];
      const answered = new Set(
        next?.role === 'user'
          ? blocksOf(next)
              .filter((block) => block.type === 'tool_result')
              .map((block) => String(block.tool_use_id))
          : [],
      );
      const missing = toolUseIds(message).filter((id) => !answered.has(id));
      if (missing.length > 0) {
        throw invalidRequest(
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ` +
            `${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
      return;
    }
    const asked = new Set(toolUseIds(messages[i - 1]));
    blocksOf(message).forEach((block, j) => {
      if (block.type === 'tool_result' && !asked.has(String(block.tool_use_id))) {
        throw invalidRequest(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ` +
            `${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block ` +
            'in the previous message.',
        );
      }
    });
  });
}

function checkCacheControl(request: MessagesRequest): void {
  const marked: Array<{ path: string; cacheControl: unknown }> = [];
  const collect = (path: string, item: { cache_control?: unknown }) => {
    if (item.cache_control != null) marked.push({ path, cacheControl: item.cache_control });
  };
  request.tools?.forEach((tool, i) => collect(`tools.${i}`, tool));
  if (Array.isArray(request.system)) request.system.forEach((block, i) => collect(`system.${i}`, block));
  request.messages.forEach((message, i) => blocksOf(message).forEach((block, j) => collect(`messages.${i}.content.${j}`, block)));

  for (const { path, cacheControl } of marked) {
    if (!isObject(cacheControl) || cacheControl.type !== 'ephemeral') {
      throw invalidRequest(`${path}.cache_control.type: Input should be 'ephemeral'`);
    }
    if (cacheControl.ttl !== undefined && cacheControl.ttl !== '5m' && cacheControl.ttl !== '1h') {
      throw invalidRequest(`${path}.cache_control.ttl: Input should be '5m' or '1h'`);
    }
  }
  if (marked.length > MAX_CACHE_BREAKPOINTS) {
    throw invalidRequest(`A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${marked.length}.`);
  }
}

function checkToolChoice(request: MessagesRequest): void {
  const choice = request.tool_choice;
  if (choice?.type !== 'tool') return;
  const names = (request.tools ?? []).map((tool) => tool.name);
  if (typeof choice.name !== 'string' || !names.includes(choice.name)) {
    throw invalidRequest(`tool_choice.name: tool '${String(choice.name)}' was not found in \`tools\``);
  }
}
