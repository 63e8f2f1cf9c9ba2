/**
 * Request rules that depend on the model, checked after the model is known to exist.
 *
 * The Claude 5.5 family (`claude-opus-5-5`, `claude-sonnet-5-5`, `claude-haiku-5-5`) always
 * thinks (adaptively), and its migration guides list settings that return a 400
 * invalid_request_error on it. The fake rejects them with these messages:
 *
 *   thinking {type: 'enabled', budget_tokens} / {type: 'disabled'}
 *       "thinking.type.<type>" is not supported for this model. Use "thinking.type.adaptive" and
 *       "output_config.effort" to control thinking behavior.
 *     (`adaptive`, and any other type such as Sonnet 5.5's `between_tools`, passes)
 *   temperature / top_p / top_k (any value; checked in that order)
 *       `<param>` is deprecated for this model.
 *   tool_choice {type: 'any'} / {type: 'tool'} (forced tool use; `auto` and `none` pass)
 *       Thinking may not be enabled when tool_choice forces tool use.
 *   a final assistant message (prefill), whatever its content
 *       This model does not support assistant message prefill. The conversation must end with a
 *       user message.
 *
 * Every other model keeps the older rules: forced tool choice, sampling parameters and any
 * thinking type are accepted, and a prefill is accepted unless its text ends in whitespace:
 *       messages: final assistant content cannot end with trailing whitespace
 */
import { invalidRequest } from './errors';
import type { MessagesRequest } from './request';

export interface ModelRules {
  /** Any final assistant message is rejected, not only one ending in whitespace. */
  rejectsPrefill: boolean;
  /** `tool_choice` of type `any` or `tool` is rejected. */
  rejectsForcedToolChoice: boolean;
  /** `temperature`, `top_p` and `top_k` are rejected. */
  rejectsSamplingParameters: boolean;
  /** `thinking.type` values that are rejected. */
  rejectedThinkingTypes: readonly string[];
}

const CLAUDE_5_5: ModelRules = {
  rejectsPrefill: true,
  rejectsForcedToolChoice: true,
  rejectsSamplingParameters: true,
  rejectedThinkingTypes: ['enabled', 'disabled'],
};

const EARLIER: ModelRules = {
  rejectsPrefill: false,
  rejectsForcedToolChoice: false,
  rejectsSamplingParameters: false,
  rejectedThinkingTypes: [],
};

const CLAUDE_5_5_IDS = /^claude-(opus|sonnet|haiku)-5-5$/;

/**
 * The Claude API's id behind a platform's: Bedrock's `anthropic.` prefix with an optional inference
 * profile geography (`us.`, `eu.`, `apac.`, `jp.`, `global.`) and version suffix (`-v1:0`), and Vertex AI's
 * `@date` suffix, are dropped, so the same rules hold wherever the model is served.
 */
export const baseModelId = (model: string): string =>
  model
    .replace(/^(?:(?:us|eu|apac|jp|global)\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/@[0-9a-z-]+$/, '');

export const rulesForModel = (model: string): ModelRules => (CLAUDE_5_5_IDS.test(baseModelId(model)) ? CLAUDE_5_5 : EARLIER);

const SAMPLING_PARAMETERS = ['temperature', 'top_p', 'top_k'] as const;

/**
 * The most output tokens a request may ask for. Claude 4.5 models allow 64,000 (docs.claude.com
 * "Models overview", max output); the fake holds every model to that, never kinder than the API.
 */
export const MAX_OUTPUT_TOKENS = 64_000;

/**
 * `output_config.effort` (platform.claude.com/docs/en/build-with-claude/effort, "supportedModels" and its
 * levels table, 2026): `low`, `medium` and `high` on every supported model; `xhigh` and `max` only where
 * the table lists them (the 5.5 family takes all five: Haiku 5.5's API guide lists low to max). A model
 * outside the list refuses the parameter. The API's exact wording for these 400s was not in the pages we
 * could read; the fake's messages name the field and the value.
 */
const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
const EFFORT_MODELS: Record<string, readonly string[]> = {
  'claude-opus-4-5': ['low', 'medium', 'high'],
  'claude-opus-4-6': ['low', 'medium', 'high', 'max'],
  'claude-sonnet-4-6': ['low', 'medium', 'high', 'max'],
  'claude-opus-4-7': EFFORT_LEVELS,
  'claude-opus-4-8': EFFORT_LEVELS,
  'claude-sonnet-5': EFFORT_LEVELS,
  'claude-opus-5': EFFORT_LEVELS,
  'claude-haiku-5-5': EFFORT_LEVELS,
  'claude-sonnet-5-5': EFFORT_LEVELS,
  'claude-opus-5-5': EFFORT_LEVELS,
};

/** The effort levels a model accepts; undefined when it refuses the parameter. */
export const effortLevels = (model: string): readonly string[] | undefined => EFFORT_MODELS[baseModelId(model).replace(/-\d{8}$/, '')];

function checkEffort(request: MessagesRequest): void {
  const config = request.output_config;
  if (config === undefined) return;
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw invalidRequest('output_config: Input should be a valid dictionary');
  const effort = (config as { effort?: unknown }).effort;
  if (effort === undefined) return;
  if (typeof effort !== 'string' || !(EFFORT_LEVELS as readonly string[]).includes(effort))
    throw invalidRequest(`output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'`);
  const levels = effortLevels(request.model);
  if (!levels) throw invalidRequest(`output_config.effort: the effort parameter is not supported by ${request.model}`);
  if (!levels.includes(effort)) throw invalidRequest(`output_config.effort: '${effort}' is not supported by ${request.model}; it accepts ${levels.join(', ')}`);
}

export function checkModelRules(request: MessagesRequest): void {
  checkEffort(request);
  if (request.max_tokens > MAX_OUTPUT_TOKENS) {
    throw invalidRequest(`max_tokens: ${request.max_tokens} > ${MAX_OUTPUT_TOKENS}, which is the maximum allowed number of output tokens for ${request.model}`);
  }
  const rules = rulesForModel(request.model);
  checkThinkingType(request, rules);
  checkSampling(request, rules);
  checkForcedToolChoice(request, rules);
  checkPrefill(request, rules);
}

function checkThinkingType(request: MessagesRequest, rules: ModelRules): void {
  const type = request.thinking?.type;
  if (type !== undefined && rules.rejectedThinkingTypes.includes(type)) {
    throw invalidRequest(
      `"thinking.type.${type}" is not supported for this model. ` + 'Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
    );
  }
}

function checkSampling(request: MessagesRequest, rules: ModelRules): void {
  if (!rules.rejectsSamplingParameters) return;
  const sent = SAMPLING_PARAMETERS.find((name) => request[name] != null);
  if (sent) throw invalidRequest(`\`${sent}\` is deprecated for this model.`);
}

function checkForcedToolChoice(request: MessagesRequest, rules: ModelRules): void {
  const type = request.tool_choice?.type;
  if (rules.rejectsForcedToolChoice && (type === 'any' || type === 'tool')) {
    throw invalidRequest('Thinking may not be enabled when tool_choice forces tool use.');
  }
}

function checkPrefill(request: MessagesRequest, rules: ModelRules): void {
  const final = request.messages.at(-1);
  if (final?.role !== 'assistant') return;
  if (rules.rejectsPrefill) {
    throw invalidRequest('This model does not support assistant message prefill. The conversation must end with a user message.');
  }
  const tail = typeof final.content === 'string' ? final.content : final.content.at(-1)?.text;
  if (typeof tail === 'string' && /\s$/.test(tail)) {
    throw invalidRequest('messages: final assistant content cannot end with trailing whitespace');
  }
}
