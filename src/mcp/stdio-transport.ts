import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StartedProgram } from '../sandbox/command-runner';

/** What a server may print on stderr that crew keeps, for the message when it fails. */
const STDERR_KEEP = 2000;

/**
 * The SDK's stdio transport spawns the server itself, as crew's own user with crew's environment.
 * This one speaks the same protocol (one JSON-RPC message per line) over a program the sandbox
 * started (CommandRunner.start): the tool user, its own namespaces, the allow-listed environment.
 * A line that is not a JSON-RPC message is fatal: a server that prints anything else on stdout
 * is broken, and crew stops it rather than guess where its messages resume.
 */
export class SandboxStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private readonly buffer = new ReadBuffer();
  private stderr = '';
  private closed = false;
  /** Why the server is gone, once it is: its exit, or the garbage it printed. */
  ended: string | undefined;

  private readonly child: StartedProgram['child'];

  constructor(private readonly program: StartedProgram) {
    this.child = program.child;
  }

  async start(): Promise<void> {
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (e) {
          this.fail(
            `it printed something that is not an MCP message on stdout (${e instanceof Error ? e.message.split('\n')[0]!.slice(0, 120) : 'unreadable'})`,
          );
          return;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (this.stderr.length < STDERR_KEEP) this.stderr += chunk.toString('utf8').slice(0, STDERR_KEEP - this.stderr.length);
    });
    this.child.on('error', (e) => this.fail(`it could not start (${e.message})`));
    this.child.on('close', (code, signal) => this.fail(`it exited (${signal ? `signal ${signal}` : `code ${code}`})`));
    // A server that stops reading makes writes fail; that is its exit or its garbage, reported there.
    this.child.stdin.on('error', () => undefined);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error(`the server is gone: ${this.ended ?? 'closed'}`);
    this.child.stdin.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.fail('crew stopped it');
  }

  /** What the server wrote on stderr, for a message about its failure. */
  get errorOutput(): string {
    return this.stderr.trim();
  }

  private fail(why: string): void {
    if (this.closed) return;
    this.closed = true;
    this.ended = why;
    this.program.stop();
    this.buffer.clear();
    if (why !== 'crew stopped it') this.onerror?.(new Error(why));
    this.onclose?.();
  }
}
