import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/domain/commands';

describe('parseCommand', () => {
  it('ignores comments that do not start with /crew', () => {
    for (const body of ['hello', 'please /crew run', ' /crew run', '/crewrun', '/CREWS run', '']) expect(parseCommand(body)).toBeUndefined();
  });

  it('parses every command, case-insensitively', () => {
    expect(parseCommand('/crew run')).toEqual({ kind: 'run' });
    expect(parseCommand('/crew RUN\nmore text')).toEqual({ kind: 'run' });
    expect(parseCommand('/crew')).toEqual({ kind: 'help' });
    expect(parseCommand('/crew help')).toEqual({ kind: 'help' });
    expect(parseCommand('/crew plan')).toEqual({ kind: 'plan' });
    expect(parseCommand('/crew approve')).toEqual({ kind: 'approve' });
    expect(parseCommand('/crew revise use a table\nand keep it short')).toEqual({ kind: 'revise', feedback: 'use a table\nand keep it short' });
    expect(parseCommand('/crew answer 42')).toEqual({ kind: 'answer', text: '42' });
    expect(parseCommand('/crew retry t3')).toEqual({ kind: 'retry', task: 't3' });
    expect(parseCommand('/crew retry')).toEqual({ kind: 'retry' });
    expect(parseCommand('/crew remember 2')).toEqual({ kind: 'remember', n: 2 });
    for (const k of ['accept', 'abort', 'resume', 'status', 'retro'] as const) expect(parseCommand(`/crew ${k}`)).toEqual({ kind: k });
  });

  it('reports unknown words and malformed arguments as unknown', () => {
    expect(parseCommand('/crew frobnicate now')).toEqual({ kind: 'unknown', word: 'frobnicate' });
    expect(parseCommand('/crew remember two')).toEqual({ kind: 'unknown', word: 'remember two' });
    expect(parseCommand('/crew remember')).toEqual({ kind: 'unknown', word: 'remember' });
  });
});
