import { describe, expect, it } from 'vitest';
import { commandText, parseCommand } from '../../../src/domain/commands';
import { withoutQuotes } from '../../../src/text/markdown';

describe('commandText (the words after the command, part of a pull request run’s request)', () => {
  it('is what follows the command word, on its line and below, without quoted lines', () => {
    expect(commandText('/crew run')).toBe('');
    expect(commandText('/crew run keep the old API')).toBe('keep the old API');
    expect(commandText('/crew RUN\nAlso trim.\n\nDone when:\n- `npm test` passes')).toBe('Also trim.\n\nDone when:\n- `npm test` passes');
    expect(commandText('/crew run\n> quoted from someone\n\nmine')).toBe('mine');
    expect(commandText('please /crew run now')).toBe('');
  });
});

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

  it('/crew continue takes an optional amount in dollars, with or without the $ (#52); anything else is not a command', () => {
    expect(parseCommand('/crew continue')).toEqual({ kind: 'continue' });
    expect(parseCommand('/crew continue $5')).toEqual({ kind: 'continue', amountUsd: 5 });
    expect(parseCommand('/crew continue 2.50')).toEqual({ kind: 'continue', amountUsd: 2.5 });
    for (const bad of ['$0', '$-3', 'five', '$5.001', '$1e3'])
      expect(parseCommand(`/crew continue ${bad}`)).toEqual({ kind: 'unknown', word: `continue ${bad}` });
  });

  it('reports unknown words and malformed arguments as unknown', () => {
    expect(parseCommand('/crew frobnicate now')).toEqual({ kind: 'unknown', word: 'frobnicate' });
    expect(parseCommand('/crew remember two')).toEqual({ kind: 'unknown', word: 'remember two' });
    expect(parseCommand('/crew remember')).toEqual({ kind: 'unknown', word: 'remember' });
  });

  it('never takes a quoted line as a command or as its argument', () => {
    for (const body of ['> /crew approve', '  > /crew approve', '>/crew run', 'I agree:\n> /crew approve']) expect(parseCommand(body)).toBeUndefined();
    expect(parseCommand('/crew revise\n> Which layout?\n\nUse a table.')).toEqual({ kind: 'revise', feedback: 'Use a table.' });
    // Without a blank line GitHub shows the next line inside the quote, so it is quoted too.
    expect(parseCommand('/crew revise keep it short\n> Which layout?\nUse a table.')).toEqual({ kind: 'revise', feedback: 'keep it short' });
    expect(parseCommand('/crew answer\n> 1. Which separator?\n\nHyphens.')).toEqual({ kind: 'answer', text: 'Hyphens.' });
    // Only a quote: nothing left to answer with (route asks for the answer after the command).
    expect(parseCommand('/crew answer\n> /crew approve\n> use underscores')).toEqual({ kind: 'answer', text: '' });
  });
});

describe('withoutQuotes', () => {
  it('leaves out quoted lines and the lines a quoted paragraph runs on into, as GitHub renders them', () => {
    expect(withoutQuotes('> asked\n\nmine')).toBe('mine');
    expect(withoutQuotes('> asked\n>\n> more\n\nmine\n> again\nlazy, still quoted\n\nalso mine')).toBe('mine\n\nalso mine');
    // A blank line, or a new block, ends the quoted paragraph; a quote line with nothing on it does not run on.
    expect(withoutQuotes('> asked\n- mine\n# also mine')).toBe('- mine\n# also mine');
    expect(withoutQuotes('>\nmine')).toBe('mine');
    expect(withoutQuotes('> all\n> quoted')).toBe('');
  });
  it('keeps `>` inside code fences: that is code, not a quote', () => {
    expect(withoutQuotes('Run this:\n```\n> npm test\n```\nthen reply.')).toBe('Run this:\n```\n> npm test\n```\nthen reply.');
  });
});
