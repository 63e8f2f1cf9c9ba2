import type { Reporter, TestModule, Vitest } from 'vitest/node';
import type { Toolchain } from './toolchains.js';

export interface ToolchainSkip {
  name: Toolchain;
  install: string;
  /** The test, as `file › name`. */
  test: string;
  /** Why it was skipped: the note needToolchains gave ctx.skip. */
  why: string;
}

/** Test names run to 250 characters; the start says which test it is. */
const short = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The lines that end `npm test` when tests were skipped for want of a toolchain: each such test and
 * why, then one line with each toolchain, how many tests wanted it, and its install command. None when
 * no test was.
 */
export function toolchainSummary(skips: readonly ToolchainSkip[]): string[] {
  if (!skips.length) return [];
  const by = new Map<Toolchain, { count: number; install: string }>();
  for (const s of skips) by.set(s.name, { count: (by.get(s.name)?.count ?? 0) + 1, install: s.install });
  return [
    'Tests skipped for want of a toolchain (tests/support/toolchains.ts):',
    ...skips.map((s) => `  ↓ ${short(s.test)}: ${s.why}`),
    `skipped for want of ${[...by].map(([name, { count, install }]) => `${name}: ${count} (${install})`).join('; ')}`,
  ];
}

/**
 * Collects the tests needToolchains skipped (toolchains.ts marks each in its task meta, which vitest
 * carries from the worker processes) and prints the summary after the default reporter's, so it ends
 * the run's output. Listed after 'default' in vitest.config.ts.
 */
export default class ToolchainSummary implements Reporter {
  private vitest?: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skips = testModules.flatMap((m) =>
      [...m.children.allTests()].flatMap((t): ToolchainSkip[] => {
        const want = t.meta().missingToolchain;
        const result = t.result();
        if (!want || result.state !== 'skipped') return [];
        return [{ ...want, test: `${m.relativeModuleId} › ${t.name}`, why: result.note ?? '' }];
      }),
    );
    for (const line of toolchainSummary(skips)) this.vitest?.logger.log(line);
  }
}
