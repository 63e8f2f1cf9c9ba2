import { z } from 'zod';

/**
 * The repository's MCP servers (#36), as `.github/crew.yml` names them (`mcp_servers:`), and the
 * rules crew applies to their tools. Pure: starting and talking to servers is src/mcp/.
 *
 * A tool reaches the model as `mcp__<server>__<tool>`. The Messages API takes tool names matching
 * `^[a-zA-Z0-9_-]{1,64}$` (platform.claude.com, "Define tools": `name`), so a server's tool whose
 * name does not fit is left out, with the reason, rather than renamed into something else.
 */

export const MCP_ROLES = ['worker', 'planner', 'critic'] as const;
export type McpRole = (typeof MCP_ROLES)[number];

/** A server name: letters, digits, `-` and single `_`s, so `mcp__<server>__<tool>` splits one way only. */
const SERVER_NAME = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Variables of crew's step environment that are crew's own, never a server's: its inputs (its key, tokens, `crew_env`),
 * the runner's tokens (cache, OIDC), its model key, the job's token. A server the model drives holding one could push or
 * spend as crew.
 */
const CREWS_OWN = /^(INPUT_|ACTIONS_|ANTHROPIC_|CLAUDE_)|^GITHUB_TOKEN$/i;
const serverVariable = z
  .string()
  .regex(ENV_NAME, 'an environment variable name')
  .refine((n) => !CREWS_OWN.test(n), {
    error: (issue) =>
      `\`${String(issue.input)}\` is crew's own (its inputs, the runner's tokens, its model key or the job's GITHUB_TOKEN): crew never hands it to an MCP server. Give the server a secret of its own through CREW_ENV or the workflow's \`env:\``,
  });
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const McpServerSchema = z
  .strictObject({
    command: z.string().min(1).optional().describe('stdio: the program to start, inside the sandbox, as the tool user (e.g. `npx`).'),
    args: z.array(z.string()).default([]).describe("stdio: the program's arguments."),
    url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("Streamable HTTP: the server's URL. crew connects from its own side, so the URL's host must be listed in `network.allow`."),
    env: z
      .array(serverVariable)
      .default([])
      .describe(
        "stdio: the names of variables the server gets from crew's step environment (secrets the workflow passes in with `env:`); it gets nothing else of crew's.",
      ),
    headers: z
      .record(z.string().min(1), serverVariable)
      .default({})
      .describe("HTTP: request headers, each set from the named variable of crew's step environment (`Authorization: MY_SERVER_TOKEN`)."),
    roles: z
      .array(z.enum(MCP_ROLES))
      .min(1)
      .default(['worker'])
      .describe(
        'Which agents get its tools: `worker` (the default). `planner` and `critic` are reserved: crew does not give them MCP tools yet, and refuses the config.',
      ),
    tools: z.array(z.string().min(1)).min(1).describe('The server\'s tools the agents may call, by the server\'s own names; `["*"]` for all of them.'),
    start_timeout_seconds: z.int().min(1).max(300).default(30).describe('How long the server may take to start and list its tools before crew stops it.'),
    call_timeout_seconds: z.int().min(1).max(600).default(60).describe('How long one tool call may take before crew stops the server.'),
  })
  .superRefine((s, c) => {
    if (!!s.command === !!s.url) c.addIssue({ code: 'custom', message: 'give either `command` (a stdio server) or `url` (a streamable HTTP server)' });
    if (s.command && Object.keys(s.headers).length)
      c.addIssue({ code: 'custom', path: ['headers'], message: '`headers` are for an HTTP server; a stdio server takes `env`' });
    if (s.url && s.env.length) c.addIssue({ code: 'custom', path: ['env'], message: '`env` is for a stdio server; an HTTP server takes `headers`' });
    // Said, not ignored: a server named for the critic that silently never reaches it would be a promise crew does not keep.
    for (const role of s.roles)
      if (role !== 'worker')
        c.addIssue({ code: 'custom', path: ['roles'], message: `crew does not give MCP tools to the ${role} yet; only \`worker\` works today` });
  });
export type McpServerConfig = z.output<typeof McpServerSchema>;

export const McpServersSchema = z
  .record(z.string().max(20).regex(SERVER_NAME, 'a server name: letters, digits, `-` and single `_`s, at most 20 characters'), McpServerSchema)
  .default({});

/** The name the model sees for a server's tool, or why it has none. */
export function mcpToolName(server: string, tool: string): { ok: true; name: string } | { ok: false; reason: string } {
  const name = `mcp__${server}__${tool}`;
  if (!TOOL_NAME.test(name))
    return {
      ok: false,
      reason: `its name as crew gives it (${JSON.stringify(name.slice(0, 80))}) is not a name the API takes (letters, digits, _ and -, at most 64)`,
    };
  return { ok: true, name };
}

/** Whether a tool the model called is an MCP server's (crew's own tools never start so). */
export const isMcpTool = (name: string): boolean => name.startsWith('mcp__');

/** Whether the allow-list lets the agents call this tool. */
export const allowedTool = (allow: readonly string[], tool: string): boolean => allow.includes('*') || allow.includes(tool);

/** The servers a role's agents get. */
export function serversFor(servers: Record<string, McpServerConfig>, role: McpRole): Array<[string, McpServerConfig]> {
  return Object.entries(servers).filter(([, s]) => s.roles.includes(role));
}

/** An MCP server's tool description or schema reaches the model as untrusted text: this much of it at most. */
export const MCP_DESCRIPTION_CHARS = 2000;
/** A tool's answer, like a command's output, is cut at this many bytes. */
export const MCP_ANSWER_BYTES = 50_000;
