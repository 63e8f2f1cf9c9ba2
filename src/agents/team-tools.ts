import type { TeamMessage } from '../state/inbox';
import { bounded } from './bounded-tool';
import type { AgentTool } from './tool-loop';

/** What a worker can do with its teammates; work.ts backs it with the run state. */
export interface Team {
  /** Ids of the other tasks running now. */
  running(): Promise<string[]>;
  send(to: string, text: string): Promise<void>;
  inbox(): Promise<TeamMessage[]>;
}

/** check_inbox answers with at most this many bytes of messages; the rest wait for the next call. */
const INBOX_BYTES = 30_000;

export function teamTools(self: string, team: Team, delivered: Set<string>): AgentTool[] {
  const tools: AgentTool[] = [
    {
      spec: {
        name: 'send_message',
        description:
          "Send a short message (at most 4,000 characters) to another running task (its id, e.g. 't2') or to all of them ('all'). Use it for facts they need: an interface you defined, a file you moved. It arrives between their turns as a <teammate-message>; a task that is not running now is refused, with the ones that are.",
        input_schema: {
          type: 'object',
          properties: {
            to: { type: 'string', description: "A running task's id, or 'all'" },
            text: { type: 'string', description: 'The message, at most 4,000 characters' },
          },
          required: ['to', 'text'],
        },
      },
      async run(input) {
        const i = (input ?? {}) as { to?: unknown; text?: unknown };
        if (typeof i.to !== 'string' || typeof i.text !== 'string' || !i.text.trim()) throw new Error("'to' and a non-empty 'text' are required");
        if (i.text.length > 4000) throw new Error('messages are limited to 4,000 characters');
        const running = await team.running();
        const to = i.to.trim();
        if (to !== 'all' && to === self) throw new Error('you cannot message yourself');
        if (to !== 'all' && !running.includes(to)) throw new Error(`task '${to}' is not running now (running: ${running.join(', ') || 'none'})`);
        if (to === 'all' && running.length === 0) return 'no other task is running; nothing was sent';
        await team.send(to, i.text.trim());
        return to === 'all' ? `sent to ${running.join(', ')}` : `sent to ${to}`;
      },
    },
    {
      spec: {
        name: 'check_inbox',
        description:
          'Read the messages from other tasks that you have not seen yet (each once, up to 30,000 bytes a call; it says when more wait). New messages also arrive on their own between your turns, so call it only when you are waiting for one.',
        input_schema: { type: 'object', properties: {} },
      },
      async run() {
        const fresh = (await team.inbox()).filter((m) => !delivered.has(m.id));
        const shown: string[] = [];
        let bytes = 0;
        for (const m of fresh) {
          const entry = `from ${m.from} (${m.type}): ${m.text}`;
          if (shown.length && bytes + Buffer.byteLength(entry) > INBOX_BYTES) break;
          shown.push(entry);
          bytes += Buffer.byteLength(entry) + 2;
          delivered.add(m.id);
        }
        const left = fresh.length - shown.length;
        if (!shown.length) return 'no new messages';
        return `${shown.join('\n\n')}${left ? `\n\n(${left} more message${left === 1 ? '' : 's'}: call check_inbox again)` : ''}`;
      },
    },
  ];
  return tools.map(bounded);
}
