import { z } from 'zod';

/**
 * A scenario: a repository, an issue, the people involved, what they comment and
 * when, what the model answers, and what goes wrong. docs/scenarios.md documents
 * every field; keep the two in step.
 */

const Permission = z.enum(['admin', 'maintain', 'write', 'triage', 'read', 'none']);

const Wait = z.union([
  z.literal('idle'),
  /** Until the fake Anthropic API has received this many requests from an agent (e.g. a worker mid-task). */
  z.strictObject({
    model: z.strictObject({ role: z.string(), task: z.string().optional(), requests: z.int().positive() }),
    timeout_ms: z.int().positive().default(120_000),
  }),
  /** Until crew has opened this many pull requests (e.g. its first, while its report is still to come). */
  z.strictObject({ pulls: z.int().positive(), timeout_ms: z.int().positive().default(120_000) }),
  z.strictObject({
    /** A comment on the issue (or, with `on: pr`, on the newest PR) whose body matches this regex. */
    comment: z.string(),
    author: z.string().optional(),
    on: z.enum(['issue', 'pr']).default('issue'),
    timeout_ms: z.int().positive().default(120_000),
  }),
]);

const RepoSettings = z.strictObject({
  /** Private (the default): people with no access cannot even see the issue. Public: anyone can comment. */
  private: z.boolean().optional(),
  allow_merge_commit: z.boolean().optional(),
  allow_squash_merge: z.boolean().optional(),
  allow_rebase_merge: z.boolean().optional(),
  delete_branch_on_merge: z.boolean().optional(),
  actions_can_create_pull_requests: z.boolean().optional(),
  /** Branch-name prefixes (e.g. `crew/`) a repository ruleset with the "Restrict deletions" rule covers. */
  ruleset_deletion_prefixes: z.array(z.string()).optional(),
  /** Branch-name prefixes a ruleset requiring signed commits covers: pushes there are refused (GH013). */
  ruleset_branch_prefixes: z.array(z.string()).optional(),
  /** Branches under a classic protection rule requiring pull requests: pushes there are refused (GH006). */
  protected_branches: z.array(z.string()).optional(),
});

const Step = z.union([
  z.strictObject({
    comment: z.string(),
    author: z.string(),
    id: z.string().optional(),
    /** Where: the scenario's issue (the default), or the newest pull request's conversation. */
    on: z.enum(['issue', 'pr']).optional(),
    wait: Wait.optional(),
    /** Post only if no comment by crew matches this regex yet (e.g. resume only a run that did not finish). */
    unless_crew_said: z.string().optional(),
  }),
  z.strictObject({ edit: z.string(), body: z.string(), author: z.string().optional() }),
  /** Someone edits the issue itself (e.g. right after the trigger, to check crew uses what the event carried). */
  z.strictObject({ edit_issue: z.strictObject({ title: z.string().optional(), body: z.string().optional() }), author: z.string() }),
  /** Another issue, which crew is not asked about (it gets the next number). */
  z.strictObject({ open_issue: z.strictObject({ title: z.string(), body: z.string().default('') }), author: z.string() }),
  /** Someone adds labels to the issue (an `issues` `labeled` event each). */
  z.strictObject({ label: z.array(z.string()).min(1), author: z.string(), wait: Wait.optional() }),
  /** Someone removes a label from the issue (no event: crew does not act on it). */
  z.strictObject({ unlabel: z.string(), author: z.string() }),
  /** Someone assigns people to the issue (an `issues` `assigned` event each). */
  z.strictObject({ assign: z.array(z.string()).min(1), author: z.string(), wait: Wait.optional() }),
  z.strictObject({ wait: Wait }),
  /**
   * Someone reviews the newest pull request; `comments` are line comments made with the review (each
   * a `pull_request_review_comment` event, then the review's `pull_request_review`).
   */
  z.strictObject({
    review: z.strictObject({
      author: z.string(),
      event: z.enum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT']),
      body: z.string().default(''),
      comments: z.array(z.strictObject({ path: z.string(), line: z.int().positive(), body: z.string().min(1) })).default([]),
    }),
    wait: Wait.optional(),
  }),
  /**
   * Someone comments on a line of the newest pull request (a `pull_request_review_comment` event, and
   * the `pull_request_review` GitHub sends with a single comment), `count` times; `{n}` in the body
   * becomes 1, 2, …
   */
  z.strictObject({
    review_comment: z.strictObject({ author: z.string(), path: z.string(), line: z.int().positive(), body: z.string(), count: z.int().positive().default(1) }),
    wait: Wait.optional(),
  }),
  /** A person resolves the review thread on the newest pull request whose first comment matches `body` (a regex), as in GitHub's UI. */
  z.strictObject({ resolve_thread: z.strictObject({ body: z.string() }) }),
  /**
   * A person opens a pull request from `head` into `base` (default: the default branch). `files` are
   * committed on `head` first (made from `base` if it does not exist). With `fork: true` the branch is
   * in the author's fork of the repository.
   */
  z.strictObject({
    open_pr: z.strictObject({
      head: z.string(),
      base: z.string().optional(),
      title: z.string(),
      body: z.string().default(''),
      files: z.record(z.string(), z.string()).default(() => ({})),
      fork: z.boolean().default(false),
    }),
    author: z.string(),
  }),
  z.strictObject({ check: z.strictObject({ name: z.string(), conclusion: z.enum(['success', 'failure', 'neutral', 'cancelled', 'timed_out']) }) }),
  /** A person merges the newest open pull request (e.g. crew's knowledge-base PR). */
  z.strictObject({ merge_pr: z.strictObject({ author: z.string(), method: z.enum(['merge', 'squash', 'rebase']).default('merge') }) }),
  /** A person closes the newest open pull request without merging it. */
  z.strictObject({ close_pr: z.strictObject({ author: z.string() }) }),
  /** A person deletes a branch through the REST API (`DELETE …/git/refs/heads/<branch>`). */
  z.strictObject({ delete_branch: z.strictObject({ branch: z.string(), author: z.string() }) }),
  /**
   * Someone commits to a branch directly (default: the newest PR's head): `files` as given, or one
   * file at `path` that gets `content`, or whose first `find` becomes `replace` (e.g. a hand edit of crew/state).
   */
  z.strictObject({
    push: z.strictObject({
      author: z.string(),
      branch: z.string().optional(),
      files: z.record(z.string(), z.string()).optional(),
      path: z.string().optional(),
      content: z.string().optional(),
      find: z.string().optional(),
      replace: z.string().optional(),
      message: z.string().optional(),
    }),
  }),
  /** From this step on, the fake GitHub also serves these faults (same shape as `faults.github`). */
  z.strictObject({ github_faults: z.array(z.unknown()) }),
  /** An admin changes repository settings (e.g. lets GitHub Actions open pull requests). */
  z.strictObject({ repo_settings: RepoSettings }),
  /**
   * Queue workflow runs instead of starting them, as if every runner were busy; with `workflow` (a
   * file, `.github/workflows/ci.yml`), only that workflow's runs wait and the others start.
   */
  z.strictObject({ hold_runs: z.union([z.literal(true), z.strictObject({ workflow: z.string() })]) }),
  /** Start the held runs: one after another, in the order their events came, or all at once (`together`). */
  z.strictObject({ release_runs: z.union([z.literal(true), z.literal('together')]) }),
  /**
   * GitHub holds back crew's next request to `route` (a REST operation as GitHub's description spells
   * it, e.g. `POST /repos/{owner}/{repo}/issues/{issue_number}/comments`) whose body matches `body`,
   * until `until` holds: this many workflow runs (of `workflow`, a file, and started by `event`, when
   * given) have completed. Nothing fails; the job just waits there, so other jobs act at that point.
   */
  z.strictObject({
    hold_request: z.strictObject({
      route: z.string(),
      body: z.string().optional(),
      until: z.strictObject({
        runs: z.strictObject({ completed: z.int().positive(), workflow: z.string().optional(), event: z.string().optional() }),
      }),
      timeout_ms: z.int().positive().default(300_000),
    }),
  }),
  /**
   * A person re-runs every job of the newest completed run of a workflow (its `name:` or its file), as
   * GitHub's "Re-run all jobs" does: the same run, the next `run_attempt`.
   */
  z.strictObject({ rerun: z.strictObject({ workflow: z.string(), author: z.string() }) }),
  /**
   * Someone with write access dispatches the workflow by hand: `replay` repeats crew's own
   * latest dispatch byte for byte (its nonce included); otherwise the given tasks and nonce.
   */
  z.strictObject({
    dispatch: z.union([z.literal('replay'), z.strictObject({ tasks: z.array(z.string()), nonce: z.string(), run: z.string().default('1') })]),
    author: z.string(),
  }),
]);

const KillPoint = z.strictObject({
  job: z.string(),
  checkpoint: z.string(),
  matrix: z.record(z.string(), z.string()).optional(),
  /** Only while the job works on this task: a work job that runs a chain goes on to the tasks its records claim for it. */
  task: z.string().optional(),
  mode: z.enum(['cancel', 'lost']).default('cancel'),
  times: z.int().positive().default(1),
  /** The cancellation sequence at this scale instead of the scenario's (1: GitHub's real 7.5 s to SIGTERM, 10 s to the kill). */
  time_scale: z.number().positive().optional(),
});

export const ScenarioSchema = z.strictObject({
  name: z.string(),
  description: z.string().default(''),
  repo: z
    .strictObject({
      owner: z.string().default('acme'),
      name: z.string().default('widgets'),
      default_branch: z.string().default('main'),
      /** A folder, relative to the scenario file, copied as the first commit. */
      fixture: z.string().optional(),
      /** Files added on top of the fixture (path → content). */
      files: z.record(z.string(), z.string()).default(() => ({})),
      /** Other branches (name → files), each one commit on top of the default branch. */
      branches: z.record(z.string(), z.record(z.string(), z.string())).default(() => ({})),
      settings: RepoSettings.default(() => ({})),
    })
    .default(() => ({ owner: 'acme', name: 'widgets', default_branch: 'main', files: {}, branches: {}, settings: {} })),
  /**
   * Where crew's model calls go. `bedrock` and `vertex` play the README's workflow for that provider
   * (the auth action in each job that calls the model, `id-token: write`, `provider:`), with the fake
   * serving as Amazon Bedrock (us-east-1) or Vertex AI (project acme-crew, us-east5).
   */
  provider: z.enum(['anthropic', 'bedrock', 'vertex']).default('anthropic'),
  /**
   * The README's failover: `fallback_provider:` on crew's steps (with that provider's auth step), and
   * a second fake serving as it, from the same script; `faults.fallback` are its faults.
   */
  fallback_provider: z.enum(['anthropic', 'bedrock', 'vertex']).optional(),
  /**
   * The workflow file the repository holds: `short`, workflow-templates/crew.yml (a job calling crew's
   * reusable workflow, .github/workflows/crew-jobs.yml); `full`, the README's workflow with every job in
   * it. Unset: short, except with a cloud `provider` or a `fallback_provider`, whose auth steps only the
   * full form can add to crew's jobs.
   */
  workflow: z.enum(['short', 'full']).optional(),
  /** `.github/crew.yml` on the default branch, as YAML text. */
  config: z.string().optional(),
  users: z
    .array(z.strictObject({ login: z.string(), permission: Permission.default('read'), type: z.enum(['User', 'Bot']).default('User') }))
    .default(() => []),
  /**
   * The token crew uses instead of the workflow's GITHUB_TOKEN, as the README shows: a
   * personal token of a user (listed in `users`), or a GitHub App's installation token. The
   * workflow passes it as `github_token: ${{ secrets.CREW_GITHUB_TOKEN }}` to every crew step.
   */
  github_token: z.union([z.strictObject({ personal: z.string() }), z.strictObject({ app: z.string() })]).optional(),
  /** Repository secrets; leave ANTHROPIC_API_KEY out to play a repository that never set it. */
  secrets: z.record(z.string(), z.string()).default(() => ({ ANTHROPIC_API_KEY: 'sk-ant-scenario-key-000000' })),
  /**
   * Files the issue's author pastes (#36), by name: `{{attachment:<name>}}` in the issue body or a
   * comment becomes the URL GitHub gives the upload. `png` is a generated image of that size, `jpeg` a
   * JPEG's header of that size (what crew and the fake API read of it), `text`
   * a file of those bytes; `pad_to` appends bytes up to that size (a file over crew's limit).
   */
  attachments: z
    .record(
      z.string(),
      z.union([
        z.strictObject({
          png: z.strictObject({ width: z.int().positive(), height: z.int().positive() }),
          pad_to: z.int().positive().optional(),
          content_type: z.string().default('image/png'),
        }),
        z.strictObject({
          jpeg: z.strictObject({ width: z.int().positive(), height: z.int().positive() }),
          pad_to: z.int().positive().optional(),
          content_type: z.string().default('image/jpeg'),
        }),
        z.strictObject({ text: z.string(), pad_to: z.int().positive().optional(), content_type: z.string().default('application/octet-stream') }),
      ]),
    )
    .default(() => ({})),
  issue: z.strictObject({
    title: z.string(),
    body: z.string().default(''),
    author: z.string(),
    /** Earlier conversation: this many comments by the author, already on the issue. */
    existing_comments: z.int().min(0).max(20_000).default(0),
  }),
  timeline: z.array(Step).min(1),
  /** Scripted model replies, in the fake Anthropic API's script format. */
  model: z.unknown().optional(),
  /** GitHub's latency profile (tests/support/latency.ts): `loopback` (none, the default) or `github-hosted`, scaled like every other wait. */
  profile: z.enum(['loopback', 'github-hosted']).default('loopback'),
  /** Simulated model latency on every reply, in model time (scaled like every other wait). */
  model_latency: z.strictObject({ per_request_ms: z.number().nonnegative().default(0), per_output_token_ms: z.number().nonnegative().default(0) }).optional(),
  faults: z
    .strictObject({
      github: z.array(z.unknown()).default(() => []),
      anthropic: z.array(z.unknown()).default(() => []),
      /** The fallback provider's fake (with `fallback_provider`), same shape as `anthropic`. */
      fallback: z.array(z.unknown()).default(() => []),
    })
    .default(() => ({ github: [], anthropic: [], fallback: [] })),
  kill: z.array(KillPoint).default(() => []),
  /** Scales every platform wait (cancellation, retry-after, backoff). */
  time_scale: z.number().positive().default(0.01),
  /**
   * Scales jobs' `timeout-minutes`, for the runner and for crew (CREW_JOB_TIME_SCALE). Default 1:
   * real minutes, which no scenario reaches. Apart from time_scale because process starts and git
   * do not shrink with it.
   */
  job_time_scale: z.number().positive().default(1),
});

export type Scenario = z.infer<typeof ScenarioSchema>;
export type TimelineStep = z.infer<typeof Step>;
