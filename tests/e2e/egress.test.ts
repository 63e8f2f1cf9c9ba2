import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../support/scenario/run-scenario';
import { collector, npmRegistry, serving, startEgressWorld, type EgressWorld } from '../support/egress/world';
import { sharedWithSandbox, withPath } from '../support/sandbox/shared-dir';
import { expectFaithful, play } from './helpers';

/** Where the scenario's postinstall script writes what each way out gave it: the scenario says /tmp, the run gets a folder the sandbox can reach. */
const SCENARIO_FOUND = '/tmp/crew-egress-lifecycle';
let FOUND: string;

interface Report {
  user: string;
  bytes: number;
  viaProxy: { status?: number; error?: string };
  tunnel: { status?: number; error?: string };
  cdnHost: { status?: number; error?: string };
  cdnTls: { status?: number; inside?: string; error?: string };
  byName: { status?: number; error?: string };
  direct: { status?: string; error?: string };
  dnsLookup: { address?: string; error?: string };
  dnsResolver: { address?: string; error?: string };
}

describe('model-written setup reaches only the allowed hosts (egress-lifecycle)', () => {
  let world: EgressWorld;
  let r: ScenarioResult;
  let reports: Report[];
  let logs: string;
  let prompts: string;

  beforeAll(async () => {
    // The registry and the attacker's site on one CDN edge (#46), as Cloudflare serves the npm registry and any site of its customers.
    world = await startEgressWorld({ 'registry.npmjs.org': npmRegistry, 'attacker.example': collector }, { cdn: ['registry.npmjs.org', 'attacker.example'] });
    FOUND = await sharedWithSandbox('egress-lifecycle');
    // What a script that knew the offline world's addresses would try around the proxy.
    await writeFile(join(FOUND, 'world.json'), JSON.stringify({ resolver: world.resolver, attacker: world.hosts.get('attacker.example')!.address }));
    const seen: string[] = [];
    const asked: string[] = [];
    r = await play('egress-lifecycle', {
      edit: (s) => withPath(s, SCENARIO_FOUND, FOUND),
      env: world.env,
      hooks: {
        beforeClose: async ({ anthropic, runner }) => {
          for (const run of runner.runs) for (const job of run.jobs) seen.push(...job.rawLog);
          asked.push(...anthropic.requests.map((q) => JSON.stringify(q.body)));
        },
      },
    });
    logs = seen.join('\n');
    prompts = asked.join('\n');
    reports = await Promise.all(
      (await readdir(FOUND)).filter((f) => f !== 'world.json').map(async (f) => JSON.parse(await readFile(join(FOUND, f), 'utf8')) as Report),
    );
  }, 600_000);
  afterAll(async () => {
    await world?.close();
    if (FOUND) await rm(FOUND, { recursive: true, force: true });
  });

  it('a lifecycle script posts the tree to a host outside the allowlist: nothing arrives, and the run still ends in a pull request that lists the refused host', () => {
    expectFaithful(r);
    // The script ran in t2's job and in the critic's job, as the tool user, with the whole tree in hand.
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const report of reports) {
      expect(report.user).toBe('crew-tool');
      expect(report.bytes).toBeGreaterThan(1000);
      expect(report.viaProxy.status).toBe(403);
      expect(report.tunnel.status).toBe(403);
      // Through the registry's own name: another Host, another TLS server name (#46).
      expect(report.cdnHost.status).toBe(403);
      expect(report.cdnTls.inside).toBeUndefined();
      // By name without the proxy: no resolver (or Node routes it to the proxy, which refuses it).
      expect([undefined, 403]).toContain(report.byName.status);
      // A raw socket to the collector's own address: nothing is routed out of the sandbox's namespace.
      expect(report.direct.error).toBeTruthy();
    }
    expect(world.hosts.get('attacker.example')!.reached).toEqual([]);
    expect(r.pulls).toHaveLength(1);
    const body = r.pulls[0]!.body ?? '';
    expect(body).toContain('### ⚠️ Look at before merging');
    expect(body).toMatch(/- \[ \] \*\*egress-refused\*\*: model-written code .* asked for 2 hosts outside the allowlist/);
    expect(body).toMatch(/ {2}- `attacker\.example`: \d+ requests/);
    expect(body).toMatch(/ {2}- `attacker\.example \(via registry\.npmjs\.org\)`: \d+ requests/);
    expect(body).toContain('add it to `network.allow` in `.github/crew.yml`');
    // The report comment lists it too, and each refusal was logged in the job that made it.
    expect(r.pulls[0]!.comments.some((c) => c.body.includes('**egress-refused**') && c.body.includes('`attacker.example`'))).toBe(true);
    expect(logs).toContain('egress: refused an HTTP request to attacker.example:80 (not on the allowlist)');
    expect(logs).toContain('egress: refused CONNECT to attacker.example:443 (not on the allowlist)');
    expect(logs).toContain('egress: refused an HTTP request to registry.npmjs.org:80: its Host header names attacker.example');
    expect(logs).toContain('egress: refused CONNECT to registry.npmjs.org:443: the TLS inside it names attacker.example');
  });

  it('the same setup installs the dependency from the registry the lockfile names, through the proxy', () => {
    const fetched = world.hosts.get('registry.npmjs.org')!.reached.filter((q) => q.method === 'GET' && q.url === '/left-pad-lite/-/left-pad-lite-1.0.0.tgz');
    // t2's job and the critic's job each installed it; the critic's `npm test` needs it.
    expect(fetched.length).toBeGreaterThanOrEqual(2);
    expect(fetched.every((q) => q.host === 'registry.npmjs.org')).toBe(true);
    expect(world.queries).toContain('registry.npmjs.org');
    expect(prompts).toContain('padded=007');
    expect(logs).toContain('setup (on a model-written tree, inside the sandbox, through the egress allowlist): npm ci');
    expect(logs).toMatch(
      /run_command is sandboxed: [^\n]*egress: allowlist\. Setup on a model-written tree reaches only the \d+ allowed hosts \(the package registries and GitHub\)/,
    );
  });

  it('a DNS lookup of an arbitrary name from model-written setup fails, and no name leaves in a query', () => {
    for (const report of reports) {
      expect(report.dnsLookup.address).toBeUndefined();
      expect(report.dnsLookup.error).toBeTruthy();
      expect(report.dnsResolver.address).toBeUndefined();
      expect(report.dnsResolver.error).toBeTruthy();
    }
    // The only names the offline world's resolver was asked for are the allowed ones the proxy resolved.
    expect(world.queries.length).toBeGreaterThan(0);
    expect(world.queries.every((q) => q === 'registry.npmjs.org')).toBe(true);
  });
});

describe('network.tools: allowlist (egress-tools)', () => {
  let world: EgressWorld;
  let r: ScenarioResult;
  let prompts: string;

  beforeAll(async () => {
    world = await startEgressWorld({ 'files.acme.test': serving('fixture data v2'), 'attacker.example': collector });
    const asked: string[] = [];
    r = await play('egress-tools', {
      env: world.env,
      hooks: { beforeClose: async ({ anthropic }) => void asked.push(...anthropic.requests.map((q) => JSON.stringify(q.body))) },
    });
    prompts = asked.join('\n');
  }, 600_000);
  afterAll(async () => {
    await world?.close();
  });

  it('lets a worker’s command reach an allowed host and not another', () => {
    expectFaithful(r);
    expect(prompts).toContain('fixture data v2');
    expect(world.hosts.get('files.acme.test')!.reached.map((q) => q.url)).toContain('/data.txt');
    expect(world.hosts.get('attacker.example')!.reached).toEqual([]);
    expect(prompts).toMatch(/refused attacker\.example/);
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0]!.body).toMatch(/ {2}- `attacker\.example`: 1 request\b/);
  });
});
