import type { Script } from '../../support/anthropic';
import type { ModelRequest } from '../../../src/ports';

/** A worker that reads a file (with a thinking block) and then answers: what the provider tests send through each SDK. */
export const ONE_TURN_WORKER: Script = {
  entries: [
    {
      role: 'worker',
      task: 't1',
      replies: [
        {
          content: [
            { type: 'thinking', thinking: 'Read it first.' },
            { type: 'tool_use', name: 'read_file', input: { path: 'README.md' } },
          ],
        },
        { content: [{ type: 'text', text: 'Done.' }] },
      ],
    },
  ],
};

/** The worker's first request, to `model`. */
export const workerRequest = (model: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model,
  system: "You are crew's worker.",
  tools: [{ name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Task: t1\nAttempt: 1\n\nRead the README.' }] }],
  maxTokens: 1024,
  ...extra,
});
