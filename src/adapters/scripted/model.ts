import { readFile } from 'node:fs/promises';
import YAML from 'yaml';
import { systemClock } from '../../clock';
import { usageOf } from '../../domain/pricing';
import type { Message, Model, ModelReply, ModelRequest } from '../../ports';
import { identify } from '../../domain/model-request';
import { scriptFileSchema, selectEntry, type ScriptFile } from './replies';

export class ScriptError extends Error {}

const textOf = (m: Message | undefined) => (m?.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('\n');

/** A rough, deterministic token count for usage figures: about four characters a token. */
const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

/**
 * The Model port played from a file of scripted replies (`crew run --scripted`), so
 * crew can be tried without a key or a network. Every reply is one the file names for
 * that role, task, attempt and turn; a request the file has no reply for stops the
 * agent with an error that says which reply is missing.
 */
export class ScriptedModel implements Model {
  private constructor(
    private readonly script: ScriptFile,
    private readonly file: string,
  ) {}

  static async load(file: string): Promise<ScriptedModel> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new ScriptError(`cannot read the script ${file}: ${(e as Error).message}`);
    }
    let data: unknown;
    try {
      data = YAML.parse(text);
    } catch (e) {
      throw new ScriptError(`${file} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    // A scenario file (npm run scenario) carries its replies under `model:`; it plays as it is.
    if (data && typeof data === 'object' && 'model' in data) data = (data as { model: unknown }).model;
    const parsed = scriptFileSchema.safeParse(data);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(top level)'}: ${i.message}`).join('\n');
      throw new ScriptError(
        `${file} is not a valid script:\n${problems}\nA script is \`entries:\` of { role, task?, attempt?, contains?, replies: [{ content: [...] }] } (or a scenario file with them under \`model:\`).`,
      );
    }
    return new ScriptedModel(parsed.data, file);
  }

  async complete(req: ModelRequest): Promise<ModelReply> {
    const opening = textOf(req.messages.find((m) => m.role === 'user'));
    const who = identify(req.system, opening, req.messages.filter((m) => m.role === 'assistant').length);
    const reply = selectEntry(this.script.entries, who, opening)?.replies[who.turn];
    if (!reply) {
      throw new ScriptError(`${this.file} has no reply for ${who.role}${who.task ? ` task ${who.task}` : ''} attempt ${who.attempt}, turn ${who.turn + 1}`);
    }
    if (reply.delay_ms) await systemClock.sleep(reply.delay_ms);
    let n = 0;
    const content = reply.content.map((b) =>
      b.type === 'tool_use'
        ? { type: 'tool_use' as const, id: `toolu_scripted_${who.turn}_${n++}`, name: b.name, input: b.input }
        : b.type === 'thinking'
          ? { ...b, signature: 'scripted' }
          : b,
    );
    const stopReason = reply.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    return {
      content,
      stopReason,
      usage: usageOf(req.model, { input: tokens([req.system, req.tools, req.messages]), output: tokens(content), cacheRead: 0, cacheWrite: 0 }),
    };
  }
}
