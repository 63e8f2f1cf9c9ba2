import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS, commandsNow, parseCommand, promptChoices, type CommandSpec } from '../../../src/domain/commands';
import { PHASES, type RunRecord } from '../../../src/domain/run-state';
import { commandTable, helpComment } from '../../../src/render/messages';
import { renderPlanComment } from '../../../src/render/plan-comment';
import { GITHUB, GITHUB_ONLY, terminalSurface } from '../../../src/domain/surface';
import { HANDLERS } from '../../../src/steps/commands';
import { view } from './run-fixtures';

const links = { comment: () => 'c', branch: (b: string) => b, run: 'r', stateFile: (p: string) => p };
const WAITING: Array<RunRecord['waiting']> = [
  null,
  { kind: 'answer', commentId: 1, questions: ['q'] },
  { kind: 'approval', commentId: 1, planVersion: 1, reason: 'requested' },
  { kind: 'decision', commentId: 1, task: 't1', topic: 'scope', question: 'q' },
  { kind: 'decision', commentId: 1, task: 't1', topic: 'plan_review', question: 'q' },
  { kind: 'verdict', commentId: 1, iteration: 3 },
  { kind: 'conflict', commentId: 1, task: 't2', files: ['a'] },
  { kind: 'budget', commentId: 1, limit: 'run', spentUsd: 1.2, budgetUsd: 1 },
];
const states = PHASES.flatMap((phase) => WAITING.map((waiting) => ({ phase, waiting, failure: null })));

/** A command that exists only in this test: whatever lists commands must show it, without being told about it. */
const extra = {
  kind: 'status',
  offerOrder: 0,
  usage: '/crew zap <what>',
  help: 'a command this test adds to the registry',
  parse: () => ({ kind: 'status' }),
  offered: () => '/crew zap <what>',
  local: { at: 'prompt' },
} as unknown as CommandSpec;

describe('the command registry', () => {
  afterEach(() => {
    const i = COMMANDS.indexOf(extra);
    if (i >= 0) (COMMANDS as CommandSpec[]).splice(i, 1);
  });

  it('every command parses by its name and has a handler; nothing else does', () => {
    for (const c of COMMANDS) {
      const parsed = parseCommand(`${c.usage.replace(/<[^>]+>|\[[^\]]+\]/g, '').trim()} 3`);
      expect(parsed?.kind, c.usage).toBe(c.kind);
    }
    expect(Object.keys(HANDLERS).sort()).toEqual([...COMMANDS.map((c) => c.kind), 'unknown'].sort());
    expect(new Set(COMMANDS.map((c) => c.offerOrder)).size).toBe(COMMANDS.length);
  });

  it('`/crew help`, the plan comment and local mode’s choices all read it: a command added to it shows in each', () => {
    (COMMANDS as CommandSpec[]).push(extra);
    expect(helpComment()).toContain('| `/crew zap <what>` | a command this test adds to the registry |');
    const body = renderPlanComment(view(['success', 'running', 'pending']), links, GITHUB);
    expect(body).toMatch(/\*\*Commands now:\*\* `\/crew zap <what>` · /);
    expect(promptChoices({ phase: 'AWAITING_APPROVAL', waiting: null, failure: null })[0]).toBe('zap <what>');
  });

  it('the plan comment offers exactly what the registry offers, in every phase and wait', () => {
    for (const s of states) {
      const body = renderPlanComment(view(['success', 'success', 'success'], s), links, GITHUB);
      const line = body.split('\n').find((l) => l.startsWith('**Commands now:**'))!;
      expect(line, `${s.phase} ${s.waiting?.kind}`).toBe(
        `**Commands now:** ${commandsNow(s)
          .map((c) => `\`${c}\``)
          .join(' · ')}`,
      );
    }
  });

  it('local mode offers at its prompt only what the plan comment offers and the prompt takes; each choice parses as that command', () => {
    for (const s of states) {
      const now = commandsNow(s);
      for (const choice of promptChoices(s)) {
        expect(now).toContain(`/crew ${choice}`);
        const kind = parseCommand(`/crew ${choice}`)!.kind;
        expect(COMMANDS.find((c) => c.kind === kind)!.local.at).toBe('prompt');
      }
    }
    // The drift this registry ended: revising a plan the reviewer failed is offered on GitHub too.
    const planReview = { phase: 'ESCALATING' as const, waiting: WAITING[4]!, failure: null };
    expect(commandsNow(planReview)).toContain('/crew revise <feedback>');
    expect(promptChoices(planReview)).toContain('revise <feedback>');
  });

  it('local mode spells each command as the registry says: at the prompt, as a crew command line, or leaves it out', () => {
    const s = terminalSurface(4);
    expect(`${s.give('resume')}, ${s.command('status')}, ${s.command('retry', '[task]')} or ${s.command('run')}`).toBe(
      'type `crew run --resume 4`, `crew status 4`, `retry [task]` or `crew run "…"`',
    );
    expect(s.command('remember', '2')).toBeNull();
    expect(s.give('retro')).toBeNull();
    // Only the commands the registry keeps off the terminal are typed as possibly missing there.
    expect(COMMANDS.filter((c) => c.local.at === 'none').map((c) => c.kind)).toEqual([...GITHUB_ONLY]);
    for (const c of COMMANDS) expect(s.command(c.kind) === null, c.kind).toBe(c.local.at === 'none');
    // On GitHub every command is a comment.
    expect(`${GITHUB.give('resume')}, ${GITHUB.command('retry', '[task]')}`).toBe('comment `/crew resume`, `/crew retry [task]`');
  });

  it('the table in docs/commands.md is the registry’s (npm run config-docs)', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../../docs/commands.md'), 'utf8');
    expect(/<!-- commands:start -->\n([\s\S]*?)\n<!-- commands:end -->/.exec(readme)?.[1]).toBe(commandTable().join('\n'));
  });
});
