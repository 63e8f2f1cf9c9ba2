/**
 * Who is asking the model, read from the request itself: the role from "You are crew's <role>"
 * in the system prompt (crew's templates all say it), the task and attempt from the "Task:" and
 * "Attempt:" lines of the first user message, the turn from the assistant messages so far.
 * Scripted replies are picked by it; `crew run --verbose` labels what each agent says with it.
 */

export interface Identity {
  role: string;
  task?: string;
  attempt: number;
  turn: number;
}

export function identify(system: string, firstUserText: string, assistantTurns: number): Identity {
  const role = /You are crew's ([a-z_-]+)/.exec(system)?.[1] ?? 'unknown';
  const task = /^Task: ([A-Za-z0-9_-]+)/m.exec(firstUserText)?.[1];
  const attempt = Number(/^Attempt: (\d+)/m.exec(firstUserText)?.[1] ?? 1);
  return { role, ...(task === undefined ? {} : { task }), attempt, turn: assistantTurns };
}
