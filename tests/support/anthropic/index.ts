export { startFakeAnthropic, DEFAULT_MODELS } from './server';
export type { FakeAnthropic, FakeAnthropicOptions, UsageTotals } from './server';
export { identifyRequest, parseScript, parseScriptYaml } from './script';
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
