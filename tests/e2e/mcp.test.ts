import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/anthropic/script';
import { collector, serving, startEgressWorld, type EgressWorld } from '../support/egress/world';
import { PROJECT_ROOT, type ScenarioResult } from '../support/scenario/run-scenario';
import { crewComments, expectFaithful, play, shown } from './helpers';

const SERVERS = join(PROJECT_ROOT, 'tests', 'support', 'mcp', 'servers.mjs');
const FACTS_TOKEN = 'facts-token-5f1c2a9e';
const CANARY = 'canary-never-for-mcp-3b7d';
const NOT_PASSED = 'repository-secret-not-passed-9c41';
/**
 * The repository's secrets (#51): CREW_ENV holds the servers' variables as NAME=value lines, which the
 * workflow hands crew (the short form's caller passes it to crew-jobs.yml, the full form to crew's work
 * step); OTHER_SECRET is one more the repository has, which neither form passes on.
 */
const SECRETS = {
  CREW_ENV: `# for the MCP servers\nFACTS_TOKEN=${FACTS_TOKEN}\n\nCANARY_UNNAMED=${CANARY}\n`,
  OTHER_SECRET: NOT_PASSED,
};

type Block = { type: string; name?: string; tool_use_id?: string; content?: unknown; is_error?: boolean; id?: string };

/** The answer each tool call got, as the worker's next request carries it. */
function answers(requests: RecordedRequest[], tool: string): Array<{ text: string; error: boolean }> {
  // Each request repeats the conversation so far: one answer per tool call, by its id.
  const out = new Map<string, { text: string; error: boolean }>();
  for (const q of requests.filter((r) => r.role === 'worker')) {
    const msgs = q.body.messages as Array<{ role: string; content: Block[] | string }>;
    const uses = msgs.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_use' && b.name === tool);
    for (const u of uses)
      for (const m of msgs)
        for (const b of Array.isArray(m.content) ? m.content : [])
          if (b.type === 'tool_result' && b.tool_use_id === u.id) out.set(u.id!, { text: String(b.content), error: b.is_error === true });
  }
  return [...out.values()];
}

describe("the repository's MCP servers (#36)", () => {
  let world: EgressWorld;
  let r: ScenarioResult;
  let requests: RecordedRequest[] = [];
  let logs = '';

  beforeAll(async () => {
    world = await startEgressWorld({ 'files.acme.test': serving('fixture data v2'), 'attacker.example': collector });
    r = await play('mcp-servers', {
      edit: (s) => {
        s.config = s.config!.replaceAll('MCP_SERVERS', SERVERS);
        s.secrets = { ...s.secrets, ...SECRETS };
      },
      env: world.env,
      hooks: {
        beforeClose: async ({ anthropic, runner }) => {
          requests = [...anthropic.requests];
          logs = runner.runs.flatMap((run) => run.jobs.flatMap((j) => [...j.rawLog, j.summary])).join('\n');
        },
      },
    });
  }, 600_000);
  afterAll(async () => {
    await world?.close();
  });

  it("offers the allowed tools as mcp__<server>__<tool>, with the server's schema; the worker's call shapes the change in the pull request", () => {
    expectFaithful(r);
    const worker = requests.find((q) => q.role === 'worker')!;
    const tools = (worker.body.tools ?? []) as Array<{ name: string; input_schema: { properties?: Record<string, unknown> } }>;
    expect(tools.filter((t) => t.name.startsWith('mcp__')).map((t) => t.name)).toEqual(['mcp__facts__write_version', 'mcp__facts__probe']);
    expect(tools.find((t) => t.name === 'mcp__facts__write_version')!.input_schema.properties).toMatchObject({ url: { type: 'string' } });
    // Only workers get them by default.
    for (const q of requests.filter((x) => x.role !== 'worker')) expect(JSON.stringify(q.body.tools ?? [])).not.toContain('mcp__');

    expect(answers(requests, 'mcp__facts__write_version')).toEqual([
      { text: 'DATA_VERSION now says v2 (from http://files.acme.test/data.txt: fixture data v2)', error: false },
    ]);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.files).toContain('DATA_VERSION');
    // A private repository's job log keeps the answer, for the people who can read the repository.
    expect(logs).toContain('DATA_VERSION now says v2');
    expect(world.hosts.get('files.acme.test')!.reached.map((q) => q.url)).toEqual(['/data.txt']);
  });

  it('runs the server as the tool user with only its named variables, from the CREW_ENV secret in the short form (redacted in its answers), and no way to a host outside the allowlist', () => {
    expect(r.workflow).toBe('short');
    const [probe] = answers(requests, 'mcp__facts__probe');
    expect(probe!.error).toBe(false);
    const seen = JSON.parse(probe!.text) as { user: string; env: Record<string, string>; outside: { status?: number }; byName: string };
    expect(seen.user).toBe('crew-tool');
    // Named for it: there, and redacted on its way back. Not named: absent, like crew's token and key.
    expect(seen.env.FACTS_TOKEN).toBe('***');
    expect(Object.keys(seen.env)).not.toContain('CANARY_UNNAMED');
    for (const q of requests) {
      const body = JSON.stringify(q.body);
      expect(body).not.toContain(CANARY);
      expect(body).not.toContain(FACTS_TOKEN);
      expect(body).not.toContain(NOT_PASSED);
      expect(body).not.toContain('sk-ant-scenario-key');
      expect(body).not.toMatch(/ghs_[A-Za-z0-9]{20,}/);
    }
    expect(Object.keys(seen.env).filter((k) => /TOKEN|KEY|SECRET|GITHUB_|ANTHROPIC/.test(k))).toEqual(['FACTS_TOKEN']);
    // The proxy refuses the host; by name it does not even resolve; the host heard nothing.
    // The job log shows none of the values either.
    for (const value of [FACTS_TOKEN, CANARY, NOT_PASSED]) expect(logs).not.toContain(value);
    expect(seen.outside.status).toBe(403);
    expect(seen.byName).not.toBe('connected');
    expect(world.hosts.get('attacker.example')!.reached).toEqual([]);
    expect(r.pulls[0]!.body).toMatch(/`attacker\.example`: 1 request/);
  });

  it('stops a server that hangs on start and one that prints garbage, names both in the plan comment and the report, and the run still ends', () => {
    expect(r.pulls).toHaveLength(1);
    const plan = shown(crewComments(r).find((c) => c.body.includes('crew · run'))!.body);
    const report = [...crewComments(r), ...r.pulls[0]!.comments].map((c) => shown(c.body)).find((b) => b.includes('## crew report'))!;
    for (const text of [plan, report]) {
      expect(text).toMatch(/MCP server `slow` not started: it did not start and list its tools within 3 s/);
      expect(text).toMatch(/MCP server `noisy` not started: it printed something that is not an MCP message on stdout/);
    }
    expect(report).toContain('### MCP servers');
  });
});

describe('MCP answers on a public repository (#46), in the full workflow form', () => {
  it('stay out of the job logs and step summaries anyone can read; the model still gets them; the CREW_ENV secret reaches the server', async () => {
    const world = await startEgressWorld({ 'files.acme.test': serving('fixture data v2'), 'attacker.example': collector });
    let requests: RecordedRequest[] = [];
    let logs = '';
    try {
      const r = await play('mcp-servers', {
        edit: (s) => {
          s.config = s.config!.replaceAll('MCP_SERVERS', SERVERS);
          s.repo.settings.private = false;
          s.secrets = { ...s.secrets, ...SECRETS };
          s.workflow = 'full';
        },
        env: world.env,
        hooks: {
          beforeClose: async ({ anthropic, runner }) => {
            requests = [...anthropic.requests];
            logs = runner.runs.flatMap((run) => run.jobs.flatMap((j) => [...j.rawLog, j.summary])).join('\n');
          },
        },
      });
      expectFaithful(r);
      expect(r.pulls).toHaveLength(1);
      expect(answers(requests, 'mcp__facts__write_version')[0]!.text).toContain('DATA_VERSION now says v2');
      expect(logs).toContain('mcp__facts__write_version');
      expect(logs).not.toContain('DATA_VERSION now says v2');
      expect(logs).toContain('the answer of mcp__facts__write_version is left out: this repository is public');
      expect(r.workflow).toBe('full');
      const seen = JSON.parse(answers(requests, 'mcp__facts__probe')[0]!.text) as { env: Record<string, string> };
      expect(seen.env.FACTS_TOKEN).toBe('***');
      expect(Object.keys(seen.env).filter((k) => /TOKEN|KEY|SECRET|GITHUB_|ANTHROPIC|CANARY/.test(k))).toEqual(['FACTS_TOKEN']);
      for (const value of [FACTS_TOKEN, CANARY, NOT_PASSED]) expect(JSON.stringify(requests.map((q) => q.body)) + logs).not.toContain(value);
    } finally {
      await world.close();
    }
  }, 600_000);
});
