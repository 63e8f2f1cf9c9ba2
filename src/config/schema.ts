import { parse as parseYaml, YAMLParseError } from 'yaml';
import { show, valueAt } from '../text/quote-value';
import { z } from 'zod';
import { DEFAULT_ESCALATION_LIMITS } from '../domain/leader-policy';
import { isSafeBranchName } from '../domain/refs';
import { hostEntryProblem } from '../domain/egress';
import { parseServiceAddress, PROXY_PORT, sandboxEnvNameProblem, sandboxEnvServerProblems, servicesListProblem } from '../domain/sandbox-reach';
import { McpServersSchema } from '../domain/mcp';
import { MAX_TASKS } from '../domain/plan';
import { MAX_PARALLEL_ATTEMPTS } from '../domain/attempts';
import { DEFAULT_MODELS, defaultsText, PROVIDERS, type Provider } from '../domain/providers';
import { WAITING_LABEL } from '../domain/labels';
import type { Tier as TierName } from '../domain/plan';
import { TRANSCRIPT_LEVELS } from '../domain/trajectory';
import { EFFORT_LEVELS } from '../domain/effort';

/** How long a job's trajectories artifact is kept by default: long enough to look into a run, short for model conversations. */
const DEFAULT_RETENTION_DAYS = 30;

/**
 * `.github/crew.yml`, read from the default branch. One schema for every key; each
 * key has a default, so an empty or missing file is valid.
 */

const Tier = z.enum(['haiku', 'sonnet', 'opus']);

const Budget = (tokens: number, cost: number, what: string) =>
  z
    .strictObject({
      tokens: z
        .int()
        .min(1000)
        .max(1_000_000_000)
        .default(tokens)
        .describe(`Most budget tokens ${what} may spend: input and output tokens, a cache read counting 0.1 and a cache write 1.25, as they are priced.`),
      cost_usd: z.number().positive().default(cost).describe(`Most dollars ${what} may spend, estimated from published prices.`),
    })
    .prefault({});

/**
 * Paths no agent writes by default: everything under `.github` (workflows, crew's own configuration,
 * CODEOWNERS, dependabot), action definitions anywhere (they run with the repository's permissions),
 * `.gitattributes` (it can hide a change from a diff, and pick filter and diff programs), `.gitmodules`
 * (it points clones at other repositories) and `.npmrc` (it can change the registry and run scripts).
 */
export const DEFAULT_PROTECTED_PATHS = ['.github/**', '**/action.yml', '**/action.yaml', '**/.gitattributes', '.gitmodules', '**/.npmrc'] as const;

export const DEFAULT_DENY = [
  'rm -rf /',
  'rm -rf ~',
  'sudo',
  'su',
  'git push',
  'git remote',
  'curl',
  'wget',
  'ssh',
  'scp',
  'nc',
  'dd',
  'mkfs',
  'shutdown',
  'reboot',
];

export const ConfigSchema = z.strictObject({
  default_model: Tier.default('sonnet').describe('Model tier for the planning agents (intake, decomposer, plan reviewer).'),
  provider: z
    .enum(PROVIDERS)
    .default('anthropic')
    .describe(
      "Where the model calls go: `anthropic` (the Claude API, `anthropic_api_key`), `bedrock` (Amazon Bedrock, with the AWS credentials `aws-actions/configure-aws-credentials` leaves in the job) or `vertex` (Google Cloud Vertex AI, with the credentials `google-github-actions/auth` leaves). The action's `provider` input, when set, takes precedence.",
    ),
  fallback_provider: z
    .enum(PROVIDERS)
    .optional()
    .describe(
      "Where the model calls go when `provider` stays overloaded or rate-limited past its retries (`api_retry_wait_seconds`), or its monthly spend limit is reached: `anthropic`, `bedrock` or `vertex`, another than `provider`, with its own credentials in the job (the README's \"Failover\"). The job goes on there, with the fallback's model ids (`fallback_models`), and the plan comment says so; if the fallback fails too, the run fails. Unset: no failover. The action's `fallback_provider` input, when set, takes precedence.",
    ),
  models: z
    .strictObject({
      haiku: z
        .string()
        .min(1)
        .optional()
        .describe(`Model id for the haiku tier: quick, mechanical tasks. Default: ${defaultsText('haiku')}.`),
      sonnet: z
        .string()
        .min(1)
        .optional()
        .describe(`Model id for the sonnet tier: most tasks. Default: ${defaultsText('sonnet')}.`),
      opus: z
        .string()
        .min(1)
        .optional()
        .describe(`Model id for the opus tier: hard reasoning. Default: ${defaultsText('opus')}.`),
    })
    .prefault({})
    .describe("The model id used for each tier, in the provider's own naming; a tier left out takes the provider's default."),
  fallback_models: z
    .strictObject({
      haiku: z.string().min(1).optional().describe("The fallback's model id for the haiku tier. Default: the fallback provider's (see `models.haiku`)."),
      sonnet: z.string().min(1).optional().describe("The fallback's model id for the sonnet tier. Default: the fallback provider's (see `models.sonnet`)."),
      opus: z.string().min(1).optional().describe("The fallback's model id for the opus tier. Default: the fallback provider's (see `models.opus`)."),
    })
    .optional()
    .describe("The model id used for each tier on `fallback_provider`, in that provider's own naming; a tier left out takes the fallback provider's default."),
  bedrock: z
    .strictObject({
      region: z
        .string()
        .regex(/^[a-z]{2}(-[a-z]+)+-[0-9]+$/, 'must be an AWS region such as us-east-1')
        .optional()
        .describe(
          'The AWS region of the Bedrock runtime endpoint. Unset: `AWS_REGION` (or `AWS_DEFAULT_REGION`), which `aws-actions/configure-aws-credentials` sets from its `aws-region`.',
        ),
    })
    .prefault({})
    .describe('Amazon Bedrock (`provider: bedrock`).'),
  vertex: z
    .strictObject({
      region: z
        .string()
        .regex(/^(global|us|eu|[a-z]+-[a-z]+[0-9]+)$/, 'must be a Vertex AI location such as us-east5, europe-west1 or global')
        .optional()
        .describe('The Vertex AI location. Unset: `CLOUD_ML_REGION`, else `global` (the global endpoint).'),
      project_id: z
        .string()
        .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'must be a Google Cloud project id (6–30 lowercase letters, digits and hyphens)')
        .optional()
        .describe(
          'The Google Cloud project. Unset: `ANTHROPIC_VERTEX_PROJECT_ID`, else the project `google-github-actions/auth` exported (`GOOGLE_CLOUD_PROJECT`, `CLOUDSDK_CORE_PROJECT`).',
        ),
    })
    .prefault({})
    .describe('Google Cloud Vertex AI (`provider: vertex`).'),
  max_parallel: z.int().min(1).max(20).default(10).describe('How many tasks may run at the same time.'),
  attempts: z
    .strictObject({
      parallel: z
        .int()
        .min(1)
        .max(MAX_PARALLEL_ATTEMPTS)
        .default(1)
        .describe(
          "How many attempts of each task run side by side, each a work job of its own on its own branch (`…/t1`, `…/t1-a2`, …) from the same base. When all are done, each is judged on its own branch as the critic judges the run (command criteria with tests by identity against the base, the tamper and hollow-test checks) and the best is kept; the others are deleted with the run's branches. A run asks for another number with `/crew run --attempts N` or the label `crew: best of N`. Each attempt counts against `max_parallel` and the budgets: a task gets at most `max_parallel` attempts (they run side by side, not in waves), and the plan comment says when that is fewer than asked. At the repository's `budgets.day` or `budgets.month`, or while the run waits at a budget another task met, an attempt does not start or retry (one working stops at its next turn): its leg ends with what it did. The task is judged on what its attempts did (judging runs commands, no model) and keeps one that qualifies; otherwise, or when the budget stopped them all (nothing is judged then), the task waits at the budget as a task run once does, and after `/crew continue` only the attempts the budget stopped go on, each from its own branch.",
        ),
      max: z
        .int()
        .min(1)
        .max(MAX_PARALLEL_ATTEMPTS)
        .default(3)
        .describe(
          `The most attempts of a task a run may ask for (\`--attempts\`, the label), and what a task the planner marks hard gets. At most ${MAX_PARALLEL_ATTEMPTS}.`,
        ),
    })
    .prefault({})
    .refine((a) => a.parallel <= a.max, { message: 'parallel must not be over max' })
    .describe('Parallel attempts of each task, the evidence choosing among them (#50).'),
  max_retries: z.int().min(0).max(10).default(2).describe('How many times a failed, partial or timed-out task is retried.'),
  max_tasks: z.int().min(1).max(MAX_TASKS).default(10).describe('The most tasks a plan may have.'),
  max_iterations: z
    .int()
    .min(1)
    .max(10)
    .default(3)
    .describe('How many times the critic judges the integrated work, sending failed criteria back to their tasks in between, before a person decides.'),
  localisation_seconds: z
    .int()
    .min(0)
    .max(3600)
    .default(600)
    .describe(
      "How long, per judgment, the critic may spend re-running a failed command criterion on the base and on each task's branch to find the task that makes it fail (no model involved); 0 turns it off.",
    ),
  worker_max_turns: z
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe(
      'Model turns one attempt of a worker may take. The worker is told the turns left and warned near the end; at the limit it gets one more turn to report, and its work is kept.',
    ),
  task_timeout_minutes: z
    .int()
    .min(1)
    .max(300)
    .default(30)
    .describe('Wall-clock minutes a task may take, across its attempts (a hard stop; the partial work is kept).'),
  max_output_tokens: z
    .strictObject({
      worker: z
        .int()
        .min(1024)
        .max(128_000)
        .default(64_000)
        .describe(
          "Output tokens a worker's or the conflict resolver's reply may use (thinking counts): room to write a whole file in one tool call. 64,000 is the most Claude 4.5 and 5.5 models allow.",
        ),
      summarizer: z
        .int()
        .min(1024)
        .max(128_000)
        .default(16_000)
        .describe(
          "Output tokens compaction's summary may use (thinking counts); a summary cut off is asked again with twice the room, up to 64,000, then fails visibly.",
        ),
    })
    .prefault({})
    .describe(
      'The `max_tokens` crew asks for, by role (the planning agents, the critic and the retrospector ask for 32,000). A reply cut off at it runs none of its tool calls; the model is told, and how much room it has.',
    ),
  api_retry_wait_seconds: z
    .int()
    .min(0)
    .max(3600)
    .default(300)
    .describe(
      'The most seconds one model request may spend, in all, waiting between retries (429, 529, 5xx, a stream that broke off) before it fails; `retry-after` is honoured within it.',
    ),
  effort: z
    .strictObject({
      planner: z.enum(EFFORT_LEVELS).optional().describe("Intake, the decomposer, the plan reviewer and re-planning. Unset: the model's own default."),
      worker: z.enum(EFFORT_LEVELS).optional().describe('Workers. Unset: `high` on a model that takes the parameter, else nothing is sent.'),
      critic: z.enum(EFFORT_LEVELS).optional().describe('The critic. Unset: `high` on a model that takes the parameter, else nothing is sent.'),
      resolver: z.enum(EFFORT_LEVELS).optional().describe("The conflict resolver. Unset: the model's own default."),
      retrospector: z.enum(EFFORT_LEVELS).optional().describe("The retrospector. Unset: the model's own default."),
      summarizer: z.enum(EFFORT_LEVELS).optional().describe("Compaction's summary. Unset: the model's own default."),
    })
    .prefault({})
    .describe(
      "How much effort each role's model spends on a reply, thinking included (the API's `output_config.effort`: `low`, `medium`, `high`, `xhigh`, `max`). The Claude 5.5 family takes every level; older models fewer or none, and the API refuses a level the model does not take, so a level you set is sent whatever the model.",
    ),
  context_budget: z
    .int()
    .min(10_000)
    .max(1_000_000)
    .optional()
    .describe(
      "Input tokens a worker's conversation may grow to: past 60% of it, older turns are summarised (by the worker's own model, in set sections) and the work goes on in a fresh conversation that keeps the task, the files changed and the newest turns word for word. Unset: the model's documented context window (1M tokens for the Claude 5 and 5.5 families, 200k for Claude 4.x and unknown models).",
    ),
  setup: z
    .array(z.string().min(1))
    .default([])
    .describe(
      "Commands run before the agents start, with network (e.g. `npm ci`): as crew's user on the run's base commit; inside the sandbox on a tree a model has written, where only the hosts `network` allows are reachable. Local mode runs them only once you allow them (`[y/N]`, or `--allow-setup`).",
    ),
  sandbox_env: z
    .array(
      z.string().superRefine((n, c) => {
        const problem = sandboxEnvNameProblem(n);
        if (problem) c.addIssue({ code: 'custom', message: problem });
      }),
    )
    .default([])
    .describe(
      "Variables the repository's setup steps (`.github/actions/crew-setup`) export through `$GITHUB_ENV` that the sandboxed commands get (run_command, the critic's commands, setup on a model-written tree), by name: `[DATABASE_URL]`. Every other variable stays out. crew's own secrets, its inputs, the runner's, cloud credentials and an MCP server's variables are refused, and so is a value holding a secret crew knows.",
    ),
  command_timeout_seconds: z.int().min(1).max(3600).default(300).describe("How long one of an agent's commands may run."),
  allow_unsandboxed: z
    .boolean()
    .default(false)
    .describe(
      'Let agents run commands without the sandbox when it cannot be set up. Off: run_command is refused instead. Not used by local mode, where only `crew run --allow-unsandboxed` turns the sandbox off.',
    ),
  network: z
    .strictObject({
      allow: z
        .array(
          z
            .string()
            .min(1)
            .superRefine((h, c) => {
              const problem = hostEntryProblem(h);
              if (problem) c.addIssue({ code: 'custom', message: `\`${h}\` is not a host: write ${problem}` });
            }),
        )
        .default([])
        .describe(
          "Hosts model-written code may reach through crew's egress proxy, besides the defaults: setup on a model-written tree, and the agents' commands with `tools: allowlist`. A host name (`npm.example.com`) or `*.example.com` for its subdomains; no scheme, port or path.",
        ),
      defaults: z
        .boolean()
        .default(true)
        .describe(
          "Allow the package registries and GitHub hosts a repository's manifests and lockfiles need (npm, PyPI, crates.io, the Go module proxy, RubyGems, Maven Central, GitHub; docs/SECURITY.md lists them). Off: only the hosts in `allow`.",
        ),
      tools: z
        .enum(['none', 'allowlist'])
        .default('none')
        .describe(
          "The network of the agents' own commands (run_command, the critic's command criteria): `none`, or `allowlist` for repositories whose tests download (the same allowlist as setup).",
        ),
      services: z
        .array(
          z
            .string()
            .min(1)
            .superRefine((a, c) => {
              const parsed = parseServiceAddress(a);
              if ('problem' in parsed) c.addIssue({ code: 'custom', message: parsed.problem });
            }),
        )
        .superRefine((list, c) => {
          const problem = servicesListProblem(list, [{ host: '127.0.0.1', port: PROXY_PORT }]);
          if (problem) c.addIssue({ code: 'custom', message: problem });
        })
        .default([])
        .describe(
          "Services the repository's setup steps (`.github/actions/crew-setup`) start on the runner's loopback, by address (`127.0.0.1:5432`, `[::1]:6379`): crew forwards each into the sandbox's own network namespace, where the commands reach it at the same address. Nothing else on the runner's loopback is reachable.",
        ),
      fallback: z
        .enum(['offline', 'open'])
        .default('offline')
        .describe(
          "Where the allowlist cannot be set up on the runner (crew says why at the start of the job): `offline` runs model-written setup without network; `open` gives it the runner's network, unfiltered, and says so in the plan comment.",
        ),
    })
    .prefault({})
    .describe(
      "What model-written code may reach on the network. It runs in its own network namespace whose only way out is crew's proxy, which lets through only allowed hosts and counts the rest; refused hosts are listed in the pull request.",
    ),
  require_plan_approval: z.boolean().default(false).describe('Wait for `/crew approve` after every plan, as `/crew plan` does.'),
  auto_merge: z
    .boolean()
    .default(false)
    .describe(
      'Merge the pull request when the critic passed its exact head, the checks on it are green, and (with `require_approval`) someone other than the requester approved it.',
    ),
  merge_method: z
    .enum(['merge', 'squash', 'rebase'])
    .optional()
    .describe('How crew merges. Unset: the first method the repository allows (merge, squash, rebase).'),
  merge_without_checks: z
    .boolean()
    .default(false)
    .describe('Let crew merge when the repository reports no checks on the head. Off: no checks means no merge, and the report says why.'),
  require_approval: z
    .boolean()
    .default(false)
    .describe(
      'Merge only after an approving review of the head from someone with write, maintain or admin access other than the person who asked for the run.',
    ),
  fix_ci: z
    .boolean()
    .default(false)
    .describe(
      "When a CI workflow run fails on the head of crew's open pull request, read the failed job's log tail and start a follow-up run on the same branch to fix it, at most `fix_ci_attempts` times per pull request. Needs the `workflow_run` trigger to name your CI workflows, and a token whose pushes start CI (a GitHub App's or a personal token). Off by default.",
    ),
  fix_ci_attempts: z
    .int()
    .min(1)
    .max(5)
    .default(2)
    .describe(
      'How many follow-up runs `fix_ci` may start for one pull request. When they are used up crew says so on the pull request and stops: it never loops on its own pushes.',
    ),
  pr_labels: z.array(z.string().min(1).max(50)).default([]).describe('Labels crew adds to the pull requests it opens.'),
  base_branch: z
    .string()
    .min(1)
    .refine(isSafeBranchName, 'must be a plain branch name (letters, digits, . _ + @ # - and /; no leading - or .)')
    .optional()
    .describe('The branch pull requests target; the repository default branch when unset.'),
  protected_paths: z
    .array(z.string().min(1))
    .default([...DEFAULT_PROTECTED_PATHS])
    .describe(
      "Globs agents may never write, and no task may plan to touch (picomatch syntax: `*` within a folder, `**` across folders, `{a,b}`, `[ab]`, a leading `!` negates; dotfiles match like other names): what runs with the repository's permissions (workflows, actions), crew's own configuration, and files that change how git or npm treat the rest. Setting it replaces the whole list.",
    ),
  commands: z
    .strictObject({
      allow: z.array(z.string().min(1)).default([]).describe('Command prefixes agents may run; empty allows any not denied.'),
      deny: z.array(z.string().min(1)).default(DEFAULT_DENY).describe('Command prefixes agents may never run.'),
    })
    .prefault({})
    .describe('The command policy for run_command: a seatbelt on top of the sandbox.'),
  criteria: z.array(z.string().min(1)).default([]).describe('Done criteria added to every run, e.g. `npm test`; a command exits 0 when met.'),
  budgets: z
    .strictObject({
      run: Budget(20_000_000, 50, 'one run'),
      task: Budget(6_000_000, 20, 'one task (all its attempts)'),
      attempt: Budget(3_000_000, 10, "one attempt of a task (the worker's own turns, compaction's summaries included)"),
      day: z
        .number()
        .positive()
        .optional()
        .describe(
          "Most dollars the repository's runs may spend in one UTC day (estimated from published prices, like `cost_usd`), summed over every run on crew/state; a run's whole cost counts on the day it started. No limit when unset. A run that would start past it (the day's spend has reached it, or a typical run here would pass it) is refused with one comment saying the spend, the budget and when it resets (the next midnight UTC; at most one such comment an hour on an issue); the plan comment warns from 80 %. A run already going that reaches it finishes its current step, keeps its work and asks as at `run`'s end.",
        ),
      month: z
        .number()
        .positive()
        .optional()
        .describe(
          "Most dollars the repository's runs may spend in one UTC calendar month, counted like `day`; it resets on the first of the next month (00:00 UTC). No limit when unset.",
        ),
    })
    .prefault({})
    .describe(
      "Hard limits on model use. A worker is told its turns and budget left with each tool result and warned a few turns before the end; when its attempt's budget (or the task's, or the run's) is spent it gets one last turn to report, its work is committed to its branch, and a retry starts with a new attempt budget while the task's holds one. At `run`'s end (in a task, while planning or re-planning, in the resolver of a merge conflict, or in the critic), or a task's at `task` with no room for another attempt, the run keeps every task's work on its branch (other running workers stop at their next turn) and asks: `/crew continue [$N]` (that step goes on, with another `run`, or $N more, from what it spent), `/crew accept` (a pull request with what exists, unjudged; not while planning or merging, where nothing exists to take) or `/crew abort`. At the retrospective, after the run ended, it is skipped with a note that `/crew continue [$N]` replaces with it. Repository budgets per UTC day and month (`day`, `month`) refuse a run that would pass them (docs/costs.md).",
    ),
  limits: z
    .strictObject({
      runs_per_person_per_day: z
        .int()
        .min(1)
        .max(10_000)
        .default(20)
        .describe(
          'Most runs one person may start in a UTC day: `/crew run`, `/crew plan`, follow-ups and label or assignee triggers, counted per login on crew/state (a follow-up for a failed CI run is not counted). Past it, the request is refused with a comment saying why (at most one an hour per person and issue; after that a 👎), and nothing starts.',
        ),
      rate_exempt: z
        .array(z.string().min(1))
        .default([])
        .describe('Logins `runs_per_person_per_day` does not limit (e.g. the maintainers). Repository budgets still apply to them.'),
    })
    .prefault({})
    .describe('How often each person may start runs.'),
  history_context_size: z.int().min(0).max(50).default(5).describe('How many earlier attempts a worker is told about (every failure is always included).'),
  knowledge_context_size: z.int().min(0).max(100).default(10).describe('How many entries of .github/crew/knowledge.jsonl a worker reads.'),
  retrospect: z
    .strictObject({
      enabled: z.boolean().default(true).describe('Post a retrospective after each run.'),
      filter_threshold: z.number().min(0).max(5).default(3.5).describe('Proposals scoring at least this are adopted.'),
      model: Tier.default('sonnet').describe('Model tier of the retrospector.'),
      full_mode: z
        .strictObject({
          max_improvements: z.int().min(0).max(10).default(2),
          max_skills: z.int().min(0).max(10).default(1),
        })
        .prefault({}),
      light_mode: z.strictObject({ max_skills: z.int().min(0).max(10).default(2) }).prefault({}),
    })
    .prefault({})
    .describe('The retrospective (phase 4): light after a clean run, full after a failed, partial or weak one. Proposals are scored and capped per mode.'),
  transcripts: z
    .union(
      [
        z.enum(TRANSCRIPT_LEVELS).transform((keep) => ({ keep, retention_days: DEFAULT_RETENTION_DAYS })),
        z.strictObject({
          keep: z
            .enum(TRANSCRIPT_LEVELS)
            .default('full')
            .describe(
              "`full`: every turn, tool call and result (capped); `summary`: numbers and the tools called with their paths, commands and exit codes, none of the model's words or the output; `none`: no trajectory files or log groups, only the step summary's numbers.",
            ),
          retention_days: z
            .int()
            .min(1)
            .max(400)
            .default(DEFAULT_RETENTION_DAYS)
            .describe("Days GitHub keeps each job's trajectories artifact (the repository's own limit caps it)."),
        }),
      ],
      { error: 'expected `full`, `summary` or `none`, or a mapping with `keep` and `retention_days`' },
    )
    .prefault({})
    .describe(
      'Trajectories, the record of every agent run (docs/trajectories.md): in the job log, the step summary and an artifact per job on GitHub, under .crew/runs/<N>/trajectories locally. `transcripts: none` is short for `transcripts: {keep: none}`.',
    ),
  prompts: z
    .strictObject({
      judgment: z.string().default('').describe("Extra guidance for the critic's judgment, added to what it reads."),
      append_system_prompt: z.string().default('').describe("Text appended to every agent's system prompt."),
    })
    .prefault({})
    .describe('Additions to the prompts.'),
  templates_dir: z
    .string()
    .min(1)
    .default('.github/crew/templates')
    .describe("Folder on the default branch whose <name>.md files replace crew's prompt templates."),
  caps: z
    .strictObject({
      comments_per_run: z
        .int()
        .min(1)
        .max(1000)
        .default(50)
        .describe(
          'Most comments crew posts for one run: the plan comment, questions, requests for decisions, the report and the retrospective (a failure comment is always posted).',
        ),
      pull_requests_per_run: z
        .int()
        .min(1)
        .max(100)
        .default(5)
        .describe("Most pull requests crew opens for one run: its own, and `/crew remember`'s knowledge-base ones."),
      branches_per_run: z
        .int()
        .min(2)
        .max(1000)
        .default(40)
        .describe("Most branches crew creates for one run: one per task (re-planned tasks included), the integration branch, and `/crew remember`'s."),
    })
    .prefault({})
    .describe(
      'Hard limits per run on what crew creates on GitHub, so a run steered by hostile text cannot flood an issue or the repository. When one is reached the run stops with one comment saying which.',
    ),
  cleanup: z
    .strictObject({
      delete_branches: z
        .boolean()
        .default(true)
        .describe(
          "Delete a run's `crew/` branches once it has ended for good: its pull request merged by crew or closed (a person's merge leaves the pull request's branch to GitHub's setting), or it failed or was aborted and `unfinished_days` passed. A branch someone else committed to is never deleted; crew says so on the issue.",
        ),
      unfinished_days: z
        .int()
        .min(1)
        .max(365)
        .default(7)
        .describe(
          'Days a failed or aborted run keeps its branches and its files on crew/state, so `/crew resume` or `/crew retry` can carry it on or a person can take its work over.',
        ),
      keep_runs: z
        .int()
        .min(1)
        .max(100)
        .default(5)
        .describe(
          "Finished runs per issue whose files stay on the crew/state branch (the newest). An older run's folder is pruned in a normal commit, leaving its digest: the figures estimates use, and where its report is.",
        ),
      keep_days: z
        .int()
        .min(1)
        .max(3650)
        .default(30)
        .describe("Days a finished run's files stay on crew/state after it ended; then its folder is pruned, leaving its digest. Open runs are never pruned."),
    })
    .prefault({})
    .describe(
      'What crew keeps after a run ends. crew cleans up in jobs it runs anyway (the end of a run, the merge job, a closed pull request), never in a scheduled workflow.',
    ),
  escalation_limits: z
    .strictObject({
      user: z
        .int()
        .min(0)
        .max(50)
        .default(DEFAULT_ESCALATION_LIMITS.user)
        .describe('Decisions a person is asked for about failed tasks (scope, ambiguity, conflicting requirements, a failing plan). 0: never ask a person.'),
      planner: z
        .int()
        .min(0)
        .max(20)
        .default(DEFAULT_ESCALATION_LIMITS.planner)
        .describe('Re-plans of failed tasks (a task failed 3 times, a dependency problem, half the plan failed). 0: never re-plan.'),
      advisor: z
        .int()
        .min(0)
        .max(20)
        .default(DEFAULT_ESCALATION_LIMITS.advisor)
        .describe('Retries of a task stuck on a technical problem, each on a stronger model tier with the failure notes. 0: never.'),
    })
    .prefault({})
    .describe(
      "How often per run crew's leader hands a failed task to each target of its escalation table. When a target's limit is reached the next target in priority order takes it (person, planner, advisor); when none can, the failure stands and the failure comment names the limit.",
    ),
  bot_login: z.string().min(1).optional().describe("The login crew's comments appear under, when it is not github-actions[bot] (e.g. a GitHub App)."),
  // The workflow's `if:` cannot read this file, so it lets through only labels that start with
  // `crew` and assignees whose login contains `crew`: other label and assignment traffic starts no job.
  trigger_label: z
    .string()
    .min(1)
    .refine((l) => l.toLowerCase().startsWith('crew'), {
      message: 'must start with `crew` (for example `crew` or `crew: run`): the workflow lets only such labels start a job',
    })
    .refine((l) => l.toLowerCase() !== WAITING_LABEL, { message: `cannot be \`${WAITING_LABEL}\`, the label crew adds while it waits for an answer` })
    .optional()
    .describe(
      'A label that starts `/crew run` when a person with write access adds it to an issue (for example `crew`). It must start with `crew`, so the workflow can skip every other label without starting a job. Off by default.',
    ),
  trigger_assignee: z
    .string()
    .min(1)
    .refine((l) => l.toLowerCase().includes('crew'), {
      message: 'must contain `crew` (for example `acme-crew`): the workflow lets only such assignees start a job',
    })
    .optional()
    .describe(
      'A login (for example the account crew runs as, `acme-crew`) whose assignment to an issue by a person with write access starts `/crew run`. It must contain `crew`, so the workflow can skip every other assignment without starting a job. Off by default.',
    ),
  // The workflow cannot read this file either: it starts the route job for every changes-requested
  // review on a `crew/` head, and route skips it (logged) when this is off.
  iterate_on_review: z
    .boolean()
    .default(false)
    .describe(
      "A review that requests changes on crew's own pull request, by a person with write access, starts a follow-up run on the same branch without a `/crew` command, as `/crew fix` with the review's text would. Off by default.",
    ),
  mcp_servers: McpServersSchema.describe(
    'The repository\'s MCP servers, by name: their tools reach the agents as `mcp__<name>__<tool>`. A stdio server (`command`, `args`) runs inside the sandbox as the tool user, with only the `env` variables named for it and network only through the egress allowlist; an HTTP server (`url`) is reached from crew\'s side, only when its host is in `network.allow`. Read from the default branch only; a task cannot add one. docs/SECURITY.md ("MCP servers") says what each may reach.',
  ),
});

type ParsedConfig = z.infer<typeof ConfigSchema>;

/**
 * The configuration as steps see it: the provider in force, every tier's model id (the provider's
 * default where the file sets none), and the fallback provider with its own ids, or null.
 */
export type Config = Omit<ParsedConfig, 'models' | 'fallback_provider' | 'fallback_models'> & {
  provider: Provider;
  models: Record<TierName, string>;
  fallback: { provider: Provider; models: Record<TierName, string> } | null;
};

/** The action's inputs that replace the file's keys when given. */
export interface ConfigInputs {
  provider?: Provider | undefined;
  fallbackProvider?: Provider | undefined;
  /** Where they were given, for messages: the action's inputs (default) or `crew run`'s flags. */
  via?: 'action' | 'cli';
}

const tiersOf = (set: { haiku?: string | undefined; sonnet?: string | undefined; opus?: string | undefined } | undefined, d: Record<TierName, string>) => ({
  haiku: set?.haiku ?? d.haiku,
  sonnet: set?.sonnet ?? d.sonnet,
  opus: set?.opus ?? d.opus,
});

/**
 * Fills each tier the file left out with the provider's default (and the fallback's with the
 * fallback provider's); the action's `provider` and `fallback_provider` inputs replace the file's keys
 * when given. A fallback that is the primary, or fallback ids with no fallback, are refused.
 */
export function resolveProvider(parsed: ParsedConfig, inputs: ConfigInputs = {}, file = CONFIG_PATH): Config {
  const { fallback_provider: fileFallback, fallback_models: fallbackModels, ...rest } = parsed;
  const p = inputs.provider ?? parsed.provider;
  const f = inputs.fallbackProvider ?? fileFallback;
  const from = (input: unknown, key: string) =>
    input ? (inputs.via === 'cli' ? `--${key.replace('_', '-')}` : `the action's \`${key}\` input`) : `\`${key}\``;
  if (f === p)
    throw new ConfigError(
      [
        `${from(inputs.fallbackProvider, 'fallback_provider')} is ${f}, the same as ${from(inputs.provider, 'provider')}: a fallback must be another provider. Name one (anthropic, bedrock or vertex), or remove \`fallback_provider\`.`,
      ],
      file,
    );
  if (fallbackModels && !f)
    throw new ConfigError(['`fallback_models` is set, but `fallback_provider` is not: set `fallback_provider`, or remove `fallback_models`.'], file);
  return {
    ...rest,
    provider: p,
    models: tiersOf(parsed.models, DEFAULT_MODELS[p]),
    fallback: f ? { provider: f, models: tiersOf(fallbackModels, DEFAULT_MODELS[f]) } : null,
  };
}

export const CONFIG_PATH = '.github/crew.yml';

export class ConfigError extends Error {
  constructor(
    readonly problems: string[],
    readonly file = CONFIG_PATH,
  ) {
    super(`${file} is not valid:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
}

/** A YAML mapping from a file's text; an empty or missing file is an empty mapping. */
export function parseYamlMapping(text: string | undefined, file: string): Record<string, unknown> {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      raw = parseYaml(text) ?? {};
    } catch (e) {
      const where = e instanceof YAMLParseError && e.linePos ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
      throw new ConfigError([`the file is not valid YAML${where}: ${(e as Error).message.split('\n')[0]}`], file);
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(['the file must be a mapping of keys to values'], file);
  return raw as Record<string, unknown>;
}

/** Parses and validates the file's text; every problem names the key, the bad value and what is expected. */
export function parseConfig(text: string | undefined, file = CONFIG_PATH, inputs: ConfigInputs = {}): Config {
  return validateConfig(parseYamlMapping(text, file), file, inputs);
}

export function validateConfig(raw: Record<string, unknown>, file = CONFIG_PATH, inputs: ConfigInputs = {}): Config {
  const result = ConfigSchema.safeParse(raw);
  if (result.success) {
    const clashes = sandboxEnvServerProblems(result.data.sandbox_env, result.data.mcp_servers);
    if (clashes.length) throw new ConfigError(clashes, file);
    return resolveProvider(result.data, inputs, file);
  }
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(top level)';
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.length ? `${key}.` : '';
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${at}${k}\``).join(', ')}: remove ${issue.keys.length > 1 ? 'them' : 'it'} or check the spelling`;
    }
    return `\`${key}\`: ${issue.message} (got ${show(valueAt(raw, issue.path))})`;
  });
  throw new ConfigError(problems, file);
}
