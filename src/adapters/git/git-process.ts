import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { vulnerabilityCheck, type VulnerabilityCategoryFlags } from '@simple-git/argv-parser';
import { ownGit } from '../../sandbox/own-programs';

/** crew's git: one command at a time, its output as text. */
export interface Git {
  /** Runs `git <args>`; resolves with its standard output. */
  raw(args: string[]): Promise<string>;
  /** Another client in the same folder whose every command also has `name` in its environment (this one is left as it is). */
  env(name: string, value: string): Git;
}

/** Which of the argument checks below (the categories of `@simple-git/argv-parser`) a client lets through. */
export type UnsafeAllowed = Partial<VulnerabilityCategoryFlags>;

/** What a client's commands run with: their environment, and the argument checks they may pass. */
export interface GitSettings {
  vars: Record<string, string>;
  allowed: UnsafeAllowed;
}

/**
 * Runs git for crew. It replaces simple-git, whose completion handling waits 50 ms after every
 * command that printed nothing (its `deferClose`, in case output arrives after `close`, which
 * Node's `close` event already rules out). Most of crew's commands print nothing (`checkout
 * --quiet`, `add`, `commit --quiet`, a clean `status`), and a chained task runs about thirty:
 * 1.5 s a task, a sixth of a task's time at the bench's scale (#17's chain).
 *
 * Kept from simple-git, on purpose:
 * - the argument and environment checks of its "unsafe" plugin (the same parser, the same
 *   categories), so a value that slipped past crew's own validation still cannot set an upload
 *   program, an alias or a driver;
 * - when a command counts as failed: a non-zero exit with something on standard error. A
 *   conflicted merge exits 1 with its report on standard output only and resolves; callers read
 *   the outcome from the repository (GitWorkingCopy.tryMerge), not from the exit;
 * - the error's text: standard output, then standard error;
 * - one command at a time per client, so two of crew's commands never meet on the index lock.
 * Not kept: a command killed by a signal resolved with what it printed; here it fails.
 */
export class GitProcess implements Git {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly settings: Promise<GitSettings>;

  constructor(
    private readonly dir: string,
    /** A promise where finding them takes a process of its own (gitClient's drivers), which then runs while the job goes on. */
    settings: GitSettings | Promise<GitSettings>,
    /** Runs before every command, in turn with them (a pinned git folder's check). */
    private readonly before?: () => Promise<void>,
  ) {
    if (!isDirectory(dir)) throw new Error(`crew cannot run git in ${dir}: there is no such folder`);
    this.settings = Promise.resolve(settings);
    // Its failure is each command's to report; a client that never runs one must not end the job over it.
    this.settings.catch(() => undefined);
  }

  env(name: string, value: string): Git {
    // Its own queue, as a second client's: the state store's carrier pushes while no other command of its runs.
    return new GitProcess(
      this.dir,
      this.settings.then((s) => ({ ...s, vars: { ...s.vars, [name]: value } })),
      this.before,
    );
  }

  raw(args: string[]): Promise<string> {
    const next = this.queue.then(
      () => this.run(args),
      () => this.run(args),
    );
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async run(args: string[]): Promise<string> {
    const { vars, allowed } = await this.settings;
    for (const found of vulnerabilityCheck(args, vars))
      if (allowed[found.category] !== true) throw new Error(`crew refused to run git ${args[0] ?? ''}: ${found.message}`);
    await this.before?.();
    const git = ownGit();
    return new Promise<string>((resolve, reject) => {
      const child = spawn(git, args, { cwd: this.dir, env: vars, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e) => reject(new Error(`crew could not start git ${args[0] ?? ''}: ${e.message}`, { cause: e })));
      // `close` comes after both streams ended: everything git printed is in.
      child.on('close', (code, signal) => {
        const stdout = Buffer.concat(out);
        if (signal) reject(new Error(`git ${args[0] ?? ''} was stopped by ${signal}: ${Buffer.concat([stdout, ...err]).toString('utf8')}`));
        else if (code && err.length) reject(new Error(Buffer.concat([stdout, ...err]).toString('utf8')));
        else resolve(stdout.toString('utf8'));
      });
    });
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
