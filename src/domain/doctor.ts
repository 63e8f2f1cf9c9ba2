/**
 * `crew doctor`'s judgement: what the API told about a repository → one finding per check, each
 * with the page or command that fixes it. Pure; src/doctor/ gathers the facts through the
 * RepositorySettings port, and renders the findings for a comment, a terminal or `--json`.
 */

import { codeSpan } from '../text/markdown';
import { toolchainFindings, type ToolchainFacts } from './toolchain-check';
import { cacheFindings, type SetupCache } from './setup-caches';

/** What a read gave: the value, or why GitHub would not say (the status, and crew's words for it). */
export type Read<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

export const ok = <T>(value: T): Read<T> => ({ ok: true, value });

export interface DoctorFacts {
  /** `owner/name`, its web address (https://github.com/owner/name) and default branch. */
  repo: { fullName: string; webUrl: string; defaultBranch: string };
  /** Who asks: `job` is /crew doctor in crew's workflow (GITHUB_TOKEN), `token` is `crew doctor` with a person's token. */
  asking: 'job' | 'token';
  actions: Read<{ enabled: boolean }>;
  workflowPermissions: Read<{ defaultPermissions: 'read' | 'write'; canCreatePullRequests: boolean }>;
  /** The rule types a task branch (`crew/1/r1/t1`) and the state branch would meet (rulesets). */
  taskBranchRules: Read<string[]>;
  stateBranchRules: Read<string[]>;
  /** Classic branch protection on `crew/state`: 'absent' before the branch exists; 'unreadable': protected, rule unseen. */
  stateBranchProtected: Read<boolean | 'absent' | 'unreadable'>;
  /** `.github/workflows/crew.yml` on the default branch, or null. */
  workflowFile: Read<string | null>;
  /** `.github/crew.yml` on the default branch: null when absent, else the parse error if any. */
  config: Read<null | { error?: string; provider: string }>;
  /** Whether crew's key is there: in a job, the key the job was given; with a token, the repository secret's name. */
  secret: Read<boolean>;
  /** `crew/` branches that belong to no open run (in a job only: they are read from crew/state). */
  strays?: Read<string[]>;
  /** The repository's spend today and this month (in a job only: it is read from crew/state), and whether a budget is at 80 % or more. */
  spend?: Read<{ says: string; near: boolean }>;
  /** This crew's version (`1.4.0`), to say whether the workflow's tag is older. */
  crewVersion: string;
  /** The toolchain versions the default branch's files declare, what its setup steps set up, and (in a job) the runner's. */
  toolchains?: Read<ToolchainFacts>;
  /** The cache folders the default branch's setup action names (#51); absent without one. */
  setupCaches?: Read<SetupCache[]>;
}

export type CheckId =
  | 'actions'
  | 'pull-requests'
  | 'workflow-permissions'
  | 'branch-rules'
  | 'state-branch'
  | 'workflow-file'
  | 'secret'
  | 'config'
  | 'toolchain'
  | 'setup-cache'
  | 'stray-branches'
  | 'spend';

export type FindingStatus = 'ok' | 'problem' | 'unknown' | 'note';

export interface Finding {
  check: CheckId;
  status: FindingStatus;
  /** One sentence: what crew found. */
  says: string;
  /** The page (a URL) or command that fixes it; every problem, unknown and note has one. */
  fix?: string;
}

export const WORKFLOW_PATH = '.github/workflows/crew.yml';
export const CONFIG_FILE = '.github/crew.yml';
export const SECRET_NAME = 'ANTHROPIC_API_KEY';
/** The reusable workflow a short caller file `uses:` (in crew's own repository). */
export const REUSABLE_WORKFLOW = '.github/workflows/crew-jobs.yml';

/**
 * Rule types (GitHub's names in "Get rules for a branch") that refuse a push crew makes: it creates and
 * updates its branches, with unsigned commits and merge commits, without a pull request or checks.
 */
const REFUSING_RULES = new Set([
  'creation',
  'update',
  'required_signatures',
  'pull_request',
  'required_status_checks',
  'required_linear_history',
  'required_deployments',
  'merge_queue',
]);
/** Rules that refuse some pushes depending on their content or metadata. */
const MAYBE_REFUSING = new Set([
  'commit_message_pattern',
  'commit_author_email_pattern',
  'committer_email_pattern',
  'file_path_restriction',
  'file_extension_restriction',
  'max_file_path_length',
  'max_file_size',
]);

/** The short form's `uses: OWNER/crew/.github/workflows/crew-jobs.yml@REF`, or the full form's `uses: OWNER/crew@REF` (or `./`). */
export function workflowForm(text: string): { form: 'short' | 'full'; ref: string } | undefined {
  const short = /^\s*uses:\s*['"]?[\w.-]+\/[\w.-]+\/\.github\/workflows\/crew-jobs\.ya?ml@([\w./-]+)/m.exec(text);
  if (short) return { form: 'short', ref: short[1]! };
  const full = /^\s*-?\s*uses:\s*['"]?(?:[\w.-]+\/crew@([\w./-]+)|(\.\/))['"]?\s*$/m.exec(text);
  if (full) return { form: 'full', ref: full[1] ?? full[2]! };
  return undefined;
}

/** Whether `ref` names an older release than `version`; false when not comparable (a branch, `v1`, a commit, `./`). */
function olderRelease(ref: string, version: string): boolean {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(ref);
  const n = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m || !n) return false;
  for (let i = 1; i <= 3; i++) {
    if (Number(m[i]) !== Number(n[i])) return Number(m[i]) < Number(n[i]);
  }
  return false;
}

/** Why a read gave nothing, and where to look instead. */
function unreadable(check: CheckId, what: string, r: { status: number; message: string }, facts: DoctorFacts, page: string): Finding {
  const who =
    facts.asking === 'job'
      ? "crew's workflow token cannot read it (GitHub shows it to admins only)"
      : r.status === 403 || r.status === 404
        ? 'your token cannot read it (it needs admin on the repository; a fine-grained token, Administration: read)'
        : `GitHub answered ${r.status}: ${r.message}`;
  return {
    check,
    status: 'unknown',
    says: `${what}: unknown, ${who}.`,
    fix: facts.asking === 'job' ? `${page} (or run \`npx crew doctor\` with an admin's token)` : page,
  };
}

function ruleFinding(check: CheckId, branch: string, rules: string[], page: string, deletionMatters: boolean): Finding | undefined {
  const refusing = rules.filter((r) => REFUSING_RULES.has(r));
  const maybe = rules.filter((r) => MAYBE_REFUSING.has(r));
  const deletion = deletionMatters && rules.includes('deletion');
  if (refusing.length)
    return {
      check,
      status: 'problem',
      says: `a ruleset refuses crew's pushes to \`${branch}\` (${refusing.join(', ')}); crew's runs will stop with GH013.`,
      fix: `${page}: leave \`crew/**\` out of the ruleset's branches, or add crew's token (github-actions[bot], or your app) to its bypass list`,
    };
  if (maybe.length)
    return {
      check,
      status: 'note',
      says: `a ruleset on \`${branch}\` checks pushes' content or metadata (${maybe.join(', ')}); crew's commits may not pass it.`,
      fix: `${page}: leave \`crew/**\` out of the ruleset, or check that crew's commits (author crew, model-written files) pass`,
    };
  if (deletion)
    return {
      check,
      status: 'note',
      says: `a ruleset keeps \`${branch}\` from being deleted, so crew cannot clean up its task branches after a run.`,
      fix: `${page}: leave \`crew/**\` out of the deletion rule, or set cleanup.delete_branches: false in .github/crew.yml`,
    };
  return undefined;
}

/** The settings pages a finding points to. */
interface Pages {
  actions: string;
  rules: string;
  branches: string;
  secrets: string;
}

function settingsPages(webUrl: string): Pages {
  return {
    actions: `${webUrl}/settings/actions`,
    rules: `${webUrl}/settings/rules`,
    branches: `${webUrl}/settings/branches`,
    secrets: `${webUrl}/settings/secrets/actions`,
  };
}

/** One finding per check, in the order a person fixes them (Actions first). */
export function diagnose(facts: DoctorFacts): Finding[] {
  const pages = settingsPages(facts.repo.webUrl);
  return [
    actionsFinding(facts, pages),
    ...workflowPermissionFindings(facts, pages),
    branchRulesFinding(facts, pages),
    stateBranchFinding(facts, pages),
    workflowFileFinding(facts),
    configFinding(facts),
    ...toolchainCheckFindings(facts),
    ...setupCacheCheckFindings(facts),
    secretFinding(facts, pages),
    ...(facts.strays ? [strayBranchFinding(facts.strays, facts.repo)] : []),
    ...(facts.spend ? [spendFinding(facts.spend)] : []),
  ];
}

function actionsFinding(facts: DoctorFacts, pages: Pages): Finding {
  if (!facts.actions.ok) return unreadable('actions', 'whether GitHub Actions is on', facts.actions, facts, pages.actions);
  if (!facts.actions.value.enabled)
    return {
      check: 'actions',
      status: 'problem',
      says: 'GitHub Actions is turned off for this repository: no crew job can run.',
      fix: `${pages.actions}: Actions permissions → "Allow all actions and reusable workflows" (or allow actions/checkout and crew)`,
    };
  return { check: 'actions', status: 'ok', says: 'GitHub Actions is on.' };
}

/** Whether Actions may open pull requests, and the default token permissions (one read gives both). */
function workflowPermissionFindings(facts: DoctorFacts, pages: Pages): Finding[] {
  const wp = facts.workflowPermissions;
  if (!wp.ok) return [unreadable('pull-requests', 'whether Actions may create pull requests', wp, facts, pages.actions)];
  return [
    wp.value.canCreatePullRequests
      ? { check: 'pull-requests', status: 'ok', says: 'GitHub Actions may create pull requests.' }
      : {
          check: 'pull-requests',
          status: 'problem',
          says: 'GitHub Actions may not create pull requests, so crew cannot open its pull request with the workflow token.',
          fix: `${pages.actions}: Workflow permissions → tick "Allow GitHub Actions to create and approve pull requests" (or give crew an app's token as github_token)`,
        },
    {
      check: 'workflow-permissions',
      status: 'ok',
      says: `the default workflow permissions are ${wp.value.defaultPermissions === 'read' ? 'read-only' : 'read and write'}; crew's workflow asks for what each job needs itself.`,
    },
  ];
}

function branchRulesFinding(facts: DoctorFacts, pages: Pages): Finding {
  const task = facts.taskBranchRules;
  if (!task.ok) return unreadable('branch-rules', "the rules on crew's branches", task, facts, pages.rules);
  return (
    ruleFinding('branch-rules', 'crew/<issue>/r<run>/…', task.value, pages.rules, true) ?? {
      check: 'branch-rules',
      status: 'ok',
      says: "no ruleset refuses crew's task branches.",
    }
  );
}

/** `crew/state` meets rulesets and classic protection; a refusing ruleset is said first. */
function stateBranchFinding(facts: DoctorFacts, pages: Pages): Finding {
  const stateRules = facts.stateBranchRules;
  const stateRuleFinding = stateRules.ok ? ruleFinding('state-branch', 'crew/state', stateRules.value, pages.rules, false) : undefined;
  const prot = facts.stateBranchProtected;
  if (stateRuleFinding) return stateRuleFinding;
  if (prot.ok && (prot.value === true || (prot.value === 'unreadable' && stateRules.ok && !stateRules.value.length)))
    return {
      check: 'state-branch',
      status: 'problem',
      says: 'a branch protection rule covers `crew/state`: crew cannot record its runs there (GH006).',
      fix: `${pages.branches}: remove \`crew/state\` (or a pattern such as \`crew/*\` or \`*\`) from the protection rule`,
    };
  if (!stateRules.ok) return unreadable('state-branch', "the rules on crew's state branch", stateRules, facts, pages.rules);
  if (!prot.ok) return unreadable('state-branch', "whether a protection rule covers crew's state branch", prot, facts, pages.branches);
  return { check: 'state-branch', status: 'ok', says: 'nothing refuses crew/state, where crew keeps its runs.' };
}

/** A file on the default branch GitHub would not give: its answer, and the file's page. */
function fileUnread(check: CheckId, path: string, r: { status: number; message: string }, repo: DoctorFacts['repo']): Finding {
  return {
    check,
    // Status 0: GitHub answered, but not with the file (one over 1 MB; the message says which): crew's own jobs
    // read it through the same API (default-branch.ts), so that is a problem, not only doctor's blind spot.
    status: r.status ? 'unknown' : 'problem',
    says: r.status ? `${path}: GitHub answered ${r.status}: ${r.message}.` : `${r.message}.`,
    fix: `${repo.webUrl}/blob/${repo.defaultBranch}/${path}`,
  };
}

function workflowFileFinding(facts: DoctorFacts): Finding {
  const { repo } = facts;
  const wf = facts.workflowFile;
  if (!wf.ok) return fileUnread('workflow-file', WORKFLOW_PATH, wf, repo);
  if (wf.value === null)
    return {
      check: 'workflow-file',
      status: 'problem',
      says: `there is no ${WORKFLOW_PATH} on ${repo.defaultBranch}: GitHub runs crew only from the default branch's workflow.`,
      fix: `\`npx crew init\` in a clone writes it; commit it to ${repo.defaultBranch}`,
    };
  const form = workflowForm(wf.value);
  if (!form)
    return {
      check: 'workflow-file',
      status: 'problem',
      says: `${WORKFLOW_PATH} on ${repo.defaultBranch} runs neither crew's reusable workflow nor crew's action.`,
      fix: `\`npx crew init\` shows the file crew expects (it asks before replacing yours)`,
    };
  if (olderRelease(form.ref, facts.crewVersion))
    return {
      check: 'workflow-file',
      status: 'note',
      says: `${WORKFLOW_PATH} is the ${form.form} form at ${form.ref}, older than crew ${facts.crewVersion}.`,
      fix:
        form.form === 'short'
          ? `change the tag after \`crew-jobs.yml@\` to v${facts.crewVersion} (CHANGELOG.md says what changed)`
          : `change each \`crew@${form.ref}\` to \`crew@v${facts.crewVersion}\`, and compare your jobs with the full form in docs/workflow.md`,
    };
  return { check: 'workflow-file', status: 'ok', says: `${WORKFLOW_PATH} is on ${repo.defaultBranch}: the ${form.form} form, at ${form.ref}.` };
}

function configFinding(facts: DoctorFacts): Finding {
  const { repo } = facts;
  const cfg = facts.config;
  if (!cfg.ok) return fileUnread('config', CONFIG_FILE, cfg, repo);
  if (cfg.value === null) return { check: 'config', status: 'ok', says: `no ${CONFIG_FILE}: crew uses its defaults.` };
  if (cfg.value.error)
    return {
      check: 'config',
      status: 'problem',
      says: `${CONFIG_FILE} is not valid: ${cfg.value.error}`,
      fix: `edit ${repo.webUrl}/edit/${repo.defaultBranch}/${CONFIG_FILE} (schema/crew.schema.json lists every key)`,
    };
  return { check: 'config', status: 'ok', says: `${CONFIG_FILE} is valid.` };
}

/** A check over several default-branch files, one of which GitHub would not send; status 0: it answered without the file's content (one over 1 MB), the message names it (fileUnread). */
function filesUnread(check: CheckId, what: string, r: { status: number; message: string }, repo: DoctorFacts['repo']): Finding {
  return {
    check,
    status: 'unknown',
    says: `${what} on ${repo.defaultBranch}: ${r.status ? `GitHub answered ${r.status}: ` : ''}${r.message}.`,
    fix: `${repo.webUrl}/tree/${repo.defaultBranch}`,
  };
}

function toolchainCheckFindings(facts: DoctorFacts): Finding[] {
  const { repo } = facts;
  const tc = facts.toolchains;
  if (!tc) return [];
  if (!tc.ok) return [filesUnread('toolchain', 'the toolchain files', tc, repo)];
  return toolchainFindings(tc.value, facts.asking).map((f) => ({ check: 'toolchain' as const, ...f }));
}

function setupCacheCheckFindings(facts: DoctorFacts): Finding[] {
  const { repo } = facts;
  const caches = facts.setupCaches;
  if (!caches) return [];
  if (!caches.ok) return [filesUnread('setup-cache', "the setup action's caches", caches, repo)];
  return cacheFindings(caches.value).map((f) => ({ check: 'setup-cache' as const, ...f }));
}

/** The model's key; another provider signs in with the cloud's credentials, so the secret does not matter. */
function secretFinding(facts: DoctorFacts, pages: Pages): Finding {
  const cfg = facts.config;
  const provider = cfg.ok && cfg.value ? cfg.value.provider : 'anthropic';
  const secret = facts.secret;
  if (provider !== 'anthropic')
    return { check: 'secret', status: 'ok', says: `provider: ${provider}: crew signs in with the cloud's credentials, not ${SECRET_NAME}.` };
  if (!secret.ok)
    return {
      check: 'secret',
      status: 'unknown',
      says: `whether the ${SECRET_NAME} secret is set: unknown, ${secret.status === 403 ? 'your token cannot list secrets (it needs write access; a fine-grained token, Secrets: read)' : `GitHub answered ${secret.status}`}.`,
      fix: `\`gh secret list\`, or ${pages.secrets}`,
    };
  if (!secret.value)
    return {
      check: 'secret',
      status: 'problem',
      says:
        facts.asking === 'job'
          ? `this job was given no ${SECRET_NAME}: the agents cannot call the model.`
          : `the repository has no ${SECRET_NAME} secret: the agents cannot call the model.`,
      fix: `\`gh secret set ${SECRET_NAME}\` (or ${pages.secrets})${facts.asking === 'job' ? ", and pass it to crew's workflow (secrets: inherit, or anthropic_api_key:)" : ''}`,
    };
  return {
    check: 'secret',
    status: 'ok',
    says:
      facts.asking === 'job' ? `crew's jobs are given ${SECRET_NAME} (its value is not shown).` : `the ${SECRET_NAME} secret is set (its value is not shown).`,
  };
}

/** Only in a job: the branches are read from crew/state. */
function strayBranchFinding(s: NonNullable<DoctorFacts['strays']>, repo: DoctorFacts['repo']): Finding {
  const page = `${repo.webUrl}/branches/all?query=crew%2F`;
  if (!s.ok) return { check: 'stray-branches', status: 'unknown', says: `crew's branches could not be listed: ${s.message}.`, fix: page };
  const n = s.value.length;
  if (!n) return { check: 'stray-branches', status: 'ok', says: 'every crew/ branch belongs to an open run.' };
  return {
    check: 'stray-branches',
    status: 'note',
    says: `${n} crew/ branch${n === 1 ? '' : 'es'} belong${n === 1 ? 's' : ''} to no open run: ${s.value.slice(0, 10).map(codeSpan).join(', ')}${n > 10 ? ', …' : ''}.`,
    fix: `delete them at ${page}, or \`git push origin --delete <branch>\``,
  };
}

/** Only in a job: the spend is summed from crew/state. */
function spendFinding(s: NonNullable<DoctorFacts['spend']>): Finding {
  if (!s.ok)
    return { check: 'spend', status: 'unknown', says: `the repository's spend could not be summed: ${s.message}.`, fix: 'comment `/crew doctor` again' };
  if (!s.value.near) return { check: 'spend', status: 'ok', says: s.value.says };
  return { check: 'spend', status: 'note', says: s.value.says, fix: 'raise `budgets.day` or `budgets.month` in `.github/crew.yml`, or wait for the reset' };
}

/** Healthy: nothing to fix (unknowns and notes are said, but are not problems). */
export const healthy = (findings: Finding[]): boolean => findings.every((f) => f.status !== 'problem');
