import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandTool, searchTool } from '../../../src/agents/command-tools';
import { PathJail } from '../../../src/agents/path-jail';
import { teamTools } from '../../../src/agents/team-tools';
import { workspaceTools } from '../../../src/agents/workspace-tools';
import { WINDOW_BYTES, WINDOW_LINES, LINE_CHARS } from '../../../src/domain/file-window';
import { SHOWN_FILES, SHOWN_LINES, LINE_CHARS as SEARCH_LINE_CHARS } from '../../../src/domain/search-results';

const ROOT = join(__dirname, '..', '..', '..');
const jail = new PathJail(ROOT);
const team = { running: async () => [], send: async () => undefined, inbox: async () => [] };
const tools = [
  ...workspaceTools(jail, () => undefined),
  searchTool(jail, 30_000),
  runCommandTool(jail, { runner: undefined, policy: { allow: [], deny: [] }, timeoutMs: 600_000, maxOutputBytes: 30_000 }),
  ...teamTools('t1', team, new Set()),
];
const description = (name: string) => tools.find((t) => t.spec.name === name)!.spec.description;
const n = (x: number) => x.toLocaleString('en-US');

describe("the tools' descriptions (#48: what a tool does, when to use it, how it behaves)", () => {
  it('each says more than a line: what it does, when to use it and what comes back', () => {
    expect(tools.map((t) => t.spec.name).sort()).toEqual([
      'check_inbox',
      'edit_file',
      'list_files',
      'read_file',
      'run_command',
      'search',
      'send_message',
      'write_file',
    ]);
    for (const t of tools) expect(t.spec.description.length, t.spec.name).toBeGreaterThan(170);
    for (const name of ['read_file', 'edit_file', 'search', 'run_command', 'list_files', 'write_file'])
      expect(description(name), name).toMatch(/\bUse\b|\buse it\b|\bPrefer\b/);
    // Every input a model may pass is described.
    for (const t of tools) {
      const props = (t.spec.input_schema as { properties?: Record<string, { description?: string }> }).properties ?? {};
      for (const [key, p] of Object.entries(props)) expect(p.description, `${t.spec.name}.${key}`).toBeTruthy();
    }
  });

  it('every limit a tool applies is told to the model, with the way around it', () => {
    expect(description('read_file')).toContain(`${n(WINDOW_LINES)} lines or ${n(WINDOW_BYTES)} bytes`);
    expect(description('read_file')).toContain(`Lines over ${n(LINE_CHARS)} characters are cut`);
    expect(description('read_file')).toContain('start_line');
    expect(description('search')).toContain(`the first ${SHOWN_LINES} matching lines (each cut at ${SEARCH_LINE_CHARS} characters)`);
    expect(description('search')).toContain(`up to ${SHOWN_FILES}`);
    expect(description('search')).toContain('Stops after 60 s');
    expect(description('run_command')).toContain('killed after 600 s');
    expect(description('run_command')).toContain('Output over 30,000 bytes keeps its first third and its last two thirds');
    expect(description('run_command')).toContain('| grep -n');
    expect(description('list_files')).toContain('Stops at 500 files or 30,000 bytes');
    expect(description('send_message')).toContain('at most 4,000 characters');
    expect(description('check_inbox')).toContain('up to 30,000 bytes a call');
  });
});

describe("the worker's prompt (#48: a workflow, and independent calls batched)", () => {
  const personas = ['coder', 'default', 'researcher', 'reviewer', 'writer'];
  const template = (p: string) => readFileSync(join(ROOT, 'templates', `worker_${p}.md`), 'utf8');

  it('every persona has four numbered steps ending in the report, and is asked to batch independent calls', () => {
    for (const p of personas) {
      const t = template(p);
      expect(t, p).toMatch(/## How to work\n+1\. [^\n]+\n2\. [^\n]+\n3\. [^\n]+\n4\. [^\n]*`report_result`/);
      expect(t, p).toContain('Make independent calls together');
      expect(t, p).toContain('## Your tools');
    }
  });

  it('the personas that change code reproduce first and verify after', () => {
    for (const p of ['coder', 'default']) {
      const t = template(p);
      expect(t, p).toMatch(/1\. Understand and reproduce\..*reproduce it first with `run_command`/);
      expect(t, p).toMatch(/3\. Verify\. Run the reproduction again and see it pass/);
    }
  });
});
