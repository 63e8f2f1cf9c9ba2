import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..', '..', '..', 'src');

/** A process that starts bridges (or a proxy) and ends without closing them, as a job's process does; the folders it printed. */
function leaveOpen(what: 'bridges' | 'proxy'): Promise<string[]> {
  const script = `
    const { startServiceBridges } = await import(${JSON.stringify(join(SRC, 'sandbox', 'services.ts'))});
    const { startEgressProxy } = await import(${JSON.stringify(join(SRC, 'sandbox', 'egress', 'proxy.ts'))});
    const path = await import('node:path');
    const dirs = ${JSON.stringify(what)} === 'bridges'
      ? (await startServiceBridges([{ host: '127.0.0.1', port: 5432 }, { host: '::1', port: 6379 }])).routes.map((r) => path.dirname(r.socket))
      : [path.dirname((await startEgressProxy({ allow: [] })).socket)];
    const fs = await import('node:fs');
    console.log('::dirs ' + JSON.stringify(dirs.filter((d) => fs.existsSync(d))));
  `;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 }, (e, stdout) => {
      const m = /::dirs (.*)/.exec(stdout);
      if (!m) return reject(e ?? new Error(`no folders printed: ${stdout}`));
      resolve(JSON.parse(m[1]!) as string[]);
    }),
  );
}

describe("crew's socket folders end with the process that made them (#51)", () => {
  it("a service bridge's folder, like the egress proxy's, is removed when the process exits without closing it", async () => {
    const bridges = await leaveOpen('bridges');
    expect(bridges).toHaveLength(2);
    for (const d of bridges) expect(existsSync(d), d).toBe(false);
    const proxy = await leaveOpen('proxy');
    expect(proxy).toHaveLength(1);
    expect(existsSync(proxy[0]!)).toBe(false);
  }, 60_000);
});
