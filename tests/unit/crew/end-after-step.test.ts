import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A process that runs a "step" leaving `leave` open, then calls endSoonAfterStep as crew's entry does; how it ended and when. */
function step(leave: 'nothing' | 'a listener' | 'an interval', exitCode = 0): Promise<{ code: number | null; stdout: string; afterDone: number }> {
  const module = join(__dirname, '..', '..', '..', 'src', 'end-after-step.ts');
  const script = `
    const { endSoonAfterStep } = await import(${JSON.stringify(module)});
    const net = await import('node:net');
    if (${JSON.stringify(leave)} === 'a listener') net.createServer().listen(0, '127.0.0.1');
    if (${JSON.stringify(leave)} === 'an interval') setInterval(() => undefined, 1000);
    process.exitCode = ${exitCode};
    endSoonAfterStep(1000, (m) => console.log('warning: ' + m));
    console.log('::done ' + Date.now());
  `;
  return new Promise((resolve) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 }, (e, stdout) => {
      const done = Number(/::done (\d+)/.exec(stdout)?.[1]);
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, afterDone: Date.now() - done });
    }),
  );
}

describe('a job’s process ends soon after its step, whatever was left open (#46)', () => {
  it('a listener or an interval left open: the process ends within seconds, says what held it, and keeps the step’s exit code', async () => {
    const listener = await step('a listener', 3);
    expect(listener.afterDone).toBeLessThan(4_000);
    expect(listener.code).toBe(3);
    expect(listener.stdout).toMatch(/warning: crew's step ended 1 s ago, but something still held its process open \(open: [^)]*\b1 TCPServerWrap\b/);
    const interval = await step('an interval');
    expect(interval.afterDone).toBeLessThan(4_000);
    expect(interval.code).toBe(0);
    expect(interval.stdout).toMatch(/still held its process open \(open: [^)]*\b1 Timeout\b/);
  }, 60_000);

  it('nothing left open: the process ends at once and says nothing', async () => {
    const clean = await step('nothing');
    expect(clean.afterDone).toBeLessThan(900);
    expect(clean.stdout).not.toContain('warning:');
  }, 60_000);
});
