export { startFakeAnthropic, DEFAULT_MODELS } from './server';
export type { FakeAnthropic, FakeAnthropicOptions, UsageTotals } from './server';
export { identifyRequest, parseScript, parseScriptYaml, thinkingSignature } from './script';
export { rulesForModel } from './models';
export type { ModelRules } from './models';
export type {
  Identity,
  IncomingRequest,
  RecordedRequest,
  Script,
  ScriptEntry,
  ScriptedBlock,
  ScriptedReply,
} from './script';
export type { Fault } from './faults';
export type { MessagesRequest } from './request';
export { canonicalBlocks, inputTokens, outputTokens, tokensForText } from './usage';
export type { CanonicalBlock, OutputBlock, Usage } from './usage';
