import type { ToolUseBlock } from '../ports';

/** The same call with the same result this many times: the model is told it is going round in circles. */
export const REPEAT_NOTE_AT = 3;
/** This many times: the attempt stops, with the reason (OpenHands' stuck detector stops a repeated action with the same observation). */
export const REPEAT_STOP_AT = 5;

export interface Repeat {
  /** 'note' at REPEAT_NOTE_AT, 'stop' at REPEAT_STOP_AT. */
  act: 'note' | 'stop';
  count: number;
  text: string;
}

/**
 * Counts each tool call by its name, its exact input and its exact result (an error included), over
 * the whole attempt, in any order: a model that edits, reads, and edits the same way again is as stuck
 * as one that repeats itself turn after turn.
 */
export class RepeatWatch {
  readonly #seen = new Map<string, number>();

  record(use: ToolUseBlock, result: string, isError: boolean): Repeat | undefined {
    const key = JSON.stringify([use.name, use.input, isError, result]);
    const count = (this.#seen.get(key) ?? 0) + 1;
    this.#seen.set(key, count);
    const what = `${use.name} with the same input ${count} times, and it ${isError ? 'failed' : 'answered'} the same way each time`;
    if (count === REPEAT_STOP_AT) return { act: 'stop', count, text: `the worker called ${what}` };
    if (count === REPEAT_NOTE_AT)
      return {
        act: 'note',
        count,
        text: `crew notes: you have called ${what}. Repeating it will not change the result: read the error or the output again, look at the file as it is now (read_file), and try a different approach. At ${REPEAT_STOP_AT} identical calls with the same result crew stops this attempt.`,
      };
    return undefined;
  }
}
