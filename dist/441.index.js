export const id = 441;
export const ids = [441];
export const modules = {

/***/ 84441:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A8: () => (/* binding */ WORKFLOW_PATH),
/* harmony export */   J4: () => (/* binding */ SECRET_NAME),
/* harmony export */   g2: () => (/* binding */ CONFIG_FILE),
/* harmony export */   h4: () => (/* binding */ diagnose),
/* harmony export */   ok: () => (/* binding */ ok),
/* harmony export */   s2: () => (/* binding */ healthy)
/* harmony export */ });
/* unused harmony exports REUSABLE_WORKFLOW, workflowForm */
/* harmony import */ var _text_markdown__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(86590);
/* harmony import */ var _toolchain_check__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(98112);
/* harmony import */ var _setup_caches__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(59613);
/**
 * `crew doctor`'s judgement: what the API told about a repository → one finding per check, each
 * with the page or command that fixes it. Pure; src/doctor/ gathers the facts through the
 * RepositorySettings port, and renders the findings for a comment, a terminal or `--json`.
 */



const ok = (value) => ({ ok: true, value });
const WORKFLOW_PATH = '.github/workflows/crew.yml';
const CONFIG_FILE = '.github/crew.yml';
const SECRET_NAME = 'ANTHROPIC_API_KEY';
/** The reusable workflow a short caller file `uses:` (in crew's own repository). */
const REUSABLE_WORKFLOW = '.github/workflows/crew-jobs.yml';
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
function workflowForm(text) {
    const short = /^\s*uses:\s*['"]?[\w.-]+\/[\w.-]+\/\.github\/workflows\/crew-jobs\.ya?ml@([\w./-]+)/m.exec(text);
    if (short)
        return { form: 'short', ref: short[1] };
    const full = /^\s*-?\s*uses:\s*['"]?(?:[\w.-]+\/crew@([\w./-]+)|(\.\/))['"]?\s*$/m.exec(text);
    if (full)
        return { form: 'full', ref: full[1] ?? full[2] };
    return undefined;
}
/** Whether `ref` names an older release than `version`; false when not comparable (a branch, `v1`, a commit, `./`). */
function olderRelease(ref, version) {
    const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(ref);
    const n = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
    if (!m || !n)
        return false;
    for (let i = 1; i <= 3; i++) {
        if (Number(m[i]) !== Number(n[i]))
            return Number(m[i]) < Number(n[i]);
    }
    return false;
}
/** Why a read gave nothing, and where to look instead. */
function unreadable(check, what, r, facts, page) {
    const who = facts.asking === 'job'
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
function ruleFinding(check, branch, rules, page, deletionMatters) {
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
function settingsPages(webUrl) {
    return {
        actions: `${webUrl}/settings/actions`,
        rules: `${webUrl}/settings/rules`,
        branches: `${webUrl}/settings/branches`,
        secrets: `${webUrl}/settings/secrets/actions`,
    };
}
/** One finding per check, in the order a person fixes them (Actions first). */
function diagnose(facts) {
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
function actionsFinding(facts, pages) {
    if (!facts.actions.ok)
        return unreadable('actions', 'whether GitHub Actions is on', facts.actions, facts, pages.actions);
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
function workflowPermissionFindings(facts, pages) {
    const wp = facts.workflowPermissions;
    if (!wp.ok)
        return [unreadable('pull-requests', 'whether Actions may create pull requests', wp, facts, pages.actions)];
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
function branchRulesFinding(facts, pages) {
    const task = facts.taskBranchRules;
    if (!task.ok)
        return unreadable('branch-rules', "the rules on crew's branches", task, facts, pages.rules);
    return (ruleFinding('branch-rules', 'crew/<issue>/r<run>/…', task.value, pages.rules, true) ?? {
        check: 'branch-rules',
        status: 'ok',
        says: "no ruleset refuses crew's task branches.",
    });
}
/** `crew/state` meets rulesets and classic protection; a refusing ruleset is said first. */
function stateBranchFinding(facts, pages) {
    const stateRules = facts.stateBranchRules;
    const stateRuleFinding = stateRules.ok ? ruleFinding('state-branch', 'crew/state', stateRules.value, pages.rules, false) : undefined;
    const prot = facts.stateBranchProtected;
    if (stateRuleFinding)
        return stateRuleFinding;
    if (prot.ok && (prot.value === true || (prot.value === 'unreadable' && stateRules.ok && !stateRules.value.length)))
        return {
            check: 'state-branch',
            status: 'problem',
            says: 'a branch protection rule covers `crew/state`: crew cannot record its runs there (GH006).',
            fix: `${pages.branches}: remove \`crew/state\` (or a pattern such as \`crew/*\` or \`*\`) from the protection rule`,
        };
    if (!stateRules.ok)
        return unreadable('state-branch', "the rules on crew's state branch", stateRules, facts, pages.rules);
    if (!prot.ok)
        return unreadable('state-branch', "whether a protection rule covers crew's state branch", prot, facts, pages.branches);
    return { check: 'state-branch', status: 'ok', says: 'nothing refuses crew/state, where crew keeps its runs.' };
}
/** A file on the default branch GitHub would not give: its answer, and the file's page. */
function fileUnread(check, path, r, repo) {
    return {
        check,
        // Status 0: GitHub answered, but not with the file (one over 1 MB; the message says which): crew's own jobs
        // read it through the same API (default-branch.ts), so that is a problem, not only doctor's blind spot.
        status: r.status ? 'unknown' : 'problem',
        says: r.status ? `${path}: GitHub answered ${r.status}: ${r.message}.` : `${r.message}.`,
        fix: `${repo.webUrl}/blob/${repo.defaultBranch}/${path}`,
    };
}
function workflowFileFinding(facts) {
    const { repo } = facts;
    const wf = facts.workflowFile;
    if (!wf.ok)
        return fileUnread('workflow-file', WORKFLOW_PATH, wf, repo);
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
            fix: form.form === 'short'
                ? `change the tag after \`crew-jobs.yml@\` to v${facts.crewVersion} (CHANGELOG.md says what changed)`
                : `change each \`crew@${form.ref}\` to \`crew@v${facts.crewVersion}\`, and compare your jobs with the full form in docs/workflow.md`,
        };
    return { check: 'workflow-file', status: 'ok', says: `${WORKFLOW_PATH} is on ${repo.defaultBranch}: the ${form.form} form, at ${form.ref}.` };
}
function configFinding(facts) {
    const { repo } = facts;
    const cfg = facts.config;
    if (!cfg.ok)
        return fileUnread('config', CONFIG_FILE, cfg, repo);
    if (cfg.value === null)
        return { check: 'config', status: 'ok', says: `no ${CONFIG_FILE}: crew uses its defaults.` };
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
function filesUnread(check, what, r, repo) {
    return {
        check,
        status: 'unknown',
        says: `${what} on ${repo.defaultBranch}: ${r.status ? `GitHub answered ${r.status}: ` : ''}${r.message}.`,
        fix: `${repo.webUrl}/tree/${repo.defaultBranch}`,
    };
}
function toolchainCheckFindings(facts) {
    const { repo } = facts;
    const tc = facts.toolchains;
    if (!tc)
        return [];
    if (!tc.ok)
        return [filesUnread('toolchain', 'the toolchain files', tc, repo)];
    return (0,_toolchain_check__WEBPACK_IMPORTED_MODULE_1__/* .toolchainFindings */ .uP)(tc.value, facts.asking).map((f) => ({ check: 'toolchain', ...f }));
}
function setupCacheCheckFindings(facts) {
    const { repo } = facts;
    const caches = facts.setupCaches;
    if (!caches)
        return [];
    if (!caches.ok)
        return [filesUnread('setup-cache', "the setup action's caches", caches, repo)];
    return (0,_setup_caches__WEBPACK_IMPORTED_MODULE_2__/* .cacheFindings */ .X6)(caches.value).map((f) => ({ check: 'setup-cache', ...f }));
}
/** The model's key; another provider signs in with the cloud's credentials, so the secret does not matter. */
function secretFinding(facts, pages) {
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
            says: facts.asking === 'job'
                ? `this job was given no ${SECRET_NAME}: the agents cannot call the model.`
                : `the repository has no ${SECRET_NAME} secret: the agents cannot call the model.`,
            fix: `\`gh secret set ${SECRET_NAME}\` (or ${pages.secrets})${facts.asking === 'job' ? ", and pass it to crew's workflow (secrets: inherit, or anthropic_api_key:)" : ''}`,
        };
    return {
        check: 'secret',
        status: 'ok',
        says: facts.asking === 'job' ? `crew's jobs are given ${SECRET_NAME} (its value is not shown).` : `the ${SECRET_NAME} secret is set (its value is not shown).`,
    };
}
/** Only in a job: the branches are read from crew/state. */
function strayBranchFinding(s, repo) {
    const page = `${repo.webUrl}/branches/all?query=crew%2F`;
    if (!s.ok)
        return { check: 'stray-branches', status: 'unknown', says: `crew's branches could not be listed: ${s.message}.`, fix: page };
    const n = s.value.length;
    if (!n)
        return { check: 'stray-branches', status: 'ok', says: 'every crew/ branch belongs to an open run.' };
    return {
        check: 'stray-branches',
        status: 'note',
        says: `${n} crew/ branch${n === 1 ? '' : 'es'} belong${n === 1 ? 's' : ''} to no open run: ${s.value.slice(0, 10).map(_text_markdown__WEBPACK_IMPORTED_MODULE_0__/* .codeSpan */ .SS).join(', ')}${n > 10 ? ', …' : ''}.`,
        fix: `delete them at ${page}, or \`git push origin --delete <branch>\``,
    };
}
/** Only in a job: the spend is summed from crew/state. */
function spendFinding(s) {
    if (!s.ok)
        return { check: 'spend', status: 'unknown', says: `the repository's spend could not be summed: ${s.message}.`, fix: 'comment `/crew doctor` again' };
    if (!s.value.near)
        return { check: 'spend', status: 'ok', says: s.value.says };
    return { check: 'spend', status: 'note', says: s.value.says, fix: 'raise `budgets.day` or `budgets.month` in `.github/crew.yml`, or wait for the reset' };
}
/** Healthy: nothing to fix (unknowns and notes are said, but are not problems). */
const healthy = (findings) => findings.every((f) => f.status !== 'problem');


/***/ }),

/***/ 59613:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   X6: () => (/* binding */ cacheFindings),
/* harmony export */   cB: () => (/* binding */ HOME_CACHES),
/* harmony export */   dc: () => (/* binding */ setupCaches)
/* harmony export */ });
/* unused harmony export cachePlace */
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(38815);
/* harmony import */ var _toolchain_setup__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(47323);



/**
 * The package managers' own cache folders in a home, as each keeps them by default: what crew's sandboxed
 * setup on a model-written tree starts from, copied from the runner's home where the setup steps restored
 * them (npm, pip, yarn 1, pnpm, Poetry, Go's modules and builds, Cargo's registry and git checkouts).
 */
const HOME_CACHES = [
    '.npm',
    '.cache/pip',
    '.cache/yarn',
    '.local/share/pnpm/store',
    '.cache/pypoetry',
    'go/pkg/mod',
    '.cache/go-build',
    '.cargo/registry',
    '.cargo/git',
];
const setting = (text, key) => text
    ?.split('\n')
    .map((l) => key
    .exec(l.trim())?.[1]
    ?.trim()
    .replace(/^["']|["']$/g, ''))
    .find((v) => v);
/** A setup action's package-manager caches: where each manager keeps its cache, as its own settings say. */
function managerCaches(tool, cache, settings) {
    if (tool === 'node') {
        if (cache === 'npm')
            return [setting(settings.npmrc, /^cache\s*=\s*(.+)$/) ?? '~/.npm'];
        if (cache === 'pnpm')
            return [setting(settings.npmrc, /^store-dir\s*=\s*(.+)$/) ?? '~/.local/share/pnpm/store'];
        if (cache === 'yarn')
            return [setting(settings.yarnrc, /^cacheFolder\s*:\s*(.+)$/) ?? '~/.cache/yarn'];
    }
    if (tool === 'python') {
        if (cache === 'pip')
            return ['~/.cache/pip'];
        if (cache === 'pipenv')
            return ['~/.local/share/virtualenvs'];
        if (cache === 'poetry')
            return ['~/.cache/pypoetry'];
    }
    if (tool === 'go' && cache !== 'false')
        return ['~/go/pkg/mod', '~/.cache/go-build'];
    return [];
}
/** The cache folders a setup action's steps name; none when its text is not YAML with `runs.steps`. */
function setupCaches(actionYml, settings = {}) {
    let doc;
    try {
        doc = (0,yaml__WEBPACK_IMPORTED_MODULE_1__.parse)(actionYml);
    }
    catch {
        return [];
    }
    const steps = doc?.runs?.steps;
    if (!Array.isArray(steps))
        return [];
    const out = [];
    for (const step of steps) {
        const uses = typeof step?.uses === 'string' ? step.uses.split('@')[0].trim() : '';
        const inputs = step?.with ?? {};
        if (/^actions\/cache(\/restore|\/save)?$/.test(uses))
            for (const line of String(inputs.path ?? '').split('\n')) {
                const path = line.trim();
                if (path && !path.startsWith('!'))
                    out.push({ path, by: uses });
            }
        const tool = /^actions\/setup-(node|python|go)$/.exec(uses)?.[1];
        // setup-go caches by default (v4 on); the others only when `cache:` names a manager.
        const cache = inputs.cache === undefined ? (tool === 'go' ? 'true' : '') : String(inputs.cache).trim();
        if (tool && cache)
            for (const path of managerCaches(tool, cache, settings))
                out.push({ path, by: `${uses} (cache: ${cache})` });
    }
    return out;
}
/** Where `path` lies as a step resolves it: `~/…` in the runner's home, a relative path or one under the workspace in the checkout; `elsewhere` otherwise (an absolute path, another variable). */
function cachePlace(path) {
    const p = path.trim();
    if (p === '~' || p.startsWith('~/'))
        return 'home';
    const workspace = /^(\$\{\{\s*github\.workspace\s*\}\}|\$GITHUB_WORKSPACE|\$\{GITHUB_WORKSPACE\})(\/|$)/.exec(p);
    if (!workspace && (p.startsWith('/') || p.startsWith('$')))
        return 'elsewhere';
    const normal = node_path__WEBPACK_IMPORTED_MODULE_0__.posix.normalize((workspace ? p.slice(workspace[0].length) : p) || '.');
    return normal === '..' || normal.startsWith('../') ? 'elsewhere' : 'checkout';
}
/**
 * `crew doctor`'s finding on the setup steps' caches: a folder inside the checkout is a problem. By a job's end
 * model-written code has written in the checkout (node_modules, .venv), and the entry the cache saves then would
 * bring it back in a later job, where setup on the base commit runs it outside the sandbox.
 */
function cacheFindings(caches) {
    if (!caches.length)
        return [];
    const inside = caches.filter((c) => cachePlace(c.path) === 'checkout');
    if (!inside.length)
        return [{ status: 'ok', says: `the setup steps (${_toolchain_setup__WEBPACK_IMPORTED_MODULE_2__/* .SETUP_ACTION_PATH */ .BC}) cache ${caches.map((c) => `\`${c.path}\``).join(', ')}, outside the checkout.` }];
    return inside.map((c) => ({
        status: 'problem',
        says: `${_toolchain_setup__WEBPACK_IMPORTED_MODULE_2__/* .SETUP_ACTION_PATH */ .BC} caches \`${c.path}\` (${c.by}), inside the checkout: by a job's end model-written code has written there, and the entry saved then would bring its files into later jobs, whose setup runs outside the sandbox.`,
        fix: `cache the package manager's own folder, outside the checkout, instead (actions/setup-node's \`cache: npm\` caches ~/.npm; pip's is ~/.cache/pip), and let \`setup:\` install from it: docs/workflow.md#dependency-caches`,
    }));
}


/***/ }),

/***/ 98112:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  r6: () => (/* binding */ TOOLCHAIN_PROGRAM),
  Lx: () => (/* binding */ VERSION_ARGS),
  uP: () => (/* binding */ toolchainFindings)
});

// EXTERNAL MODULE: ./src/domain/toolchain-setup.ts
var toolchain_setup = __webpack_require__(47323);
;// CONCATENATED MODULE: ./src/domain/version-range.ts
/**
 * Whether a toolchain version found on a runner (`v24.1.0`, `3.12.3`, `go1.22.5`) meets what a
 * repository's file asks for (`18`, `lts/*`, `>=3.12`, `^20.11`, `3.10.x`, `~=3.11`, `>=3.9,<3.13`,
 * `1.22`). Pure. Undefined when the request is not a version crew can compare (`lts/*`, `node`,
 * `stable`, `nightly`): then crew says it cannot tell rather than guessing.
 */
function parse(text) {
    const m = /^\s*v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?/.exec(text);
    if (!m)
        return undefined;
    return [m[1], m[2], m[3]].filter((p) => p !== undefined && /^\d+$/.test(p)).map(Number);
}
function compare(a, b) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
        const d = (a[i] ?? 0) - (b[i] ?? 0);
        if (d)
            return d;
    }
    return 0;
}
/** `found` starts with every part `prefix` gives: 3.12 holds 3.12.3, 18 holds 18.19.0. */
const startsWith = (found, prefix) => prefix.every((p, i) => found[i] === p);
/** One comparison (`>=3.12`, `^20`, `~1.2`, `~=3.11`, `3.10.x`, `18`); undefined when it is not one. */
function meets(found, term) {
    const m = /^(>=|<=|>|<|==|=|~=|\^|~|!=)?\s*(.+)$/.exec(term.trim());
    if (!m)
        return undefined;
    const want = parse(m[2]);
    if (!want || !/^v?\d+(\.(\d+|[xX*]))*(\.\*)?$/.test(m[2].trim()))
        return undefined;
    const c = compare(found, want);
    switch (m[1]) {
        case '>=':
            return c >= 0;
        case '>':
            return c > 0;
        case '<=':
            return c <= 0 || startsWith(found, want);
        case '<':
            return c < 0;
        case '!=':
            return !startsWith(found, want);
        case '^':
            // ^0.x pins the minor too (npm's caret); crew's toolchains are all past 0.
            return c >= 0 && found[0] === want[0];
        case '~':
            // npm: ~1.2.3 and ~1.2 keep the minor, ~1 the major.
            return c >= 0 && startsWith(found, want.slice(0, want.length >= 2 ? 2 : 1));
        case '~=':
            // PEP 440: ~=3.11 is >=3.11, ==3.*; ~=3.11.2 is >=3.11.2, ==3.11.*.
            return c >= 0 && startsWith(found, want.slice(0, Math.max(1, want.length - 1)));
        default:
            return startsWith(found, want);
    }
}
/**
 * Whether `found` meets `requested`; undefined when `requested` (or `found`) is not comparable.
 * `||` separates alternatives (npm); commas or spaces join terms that must all hold (PEP 440, npm).
 */
function versionMeets(requested, found) {
    const have = parse(found.replace(/^[a-z]+(?=\d)/i, ''));
    if (!have)
        return undefined;
    const alternatives = requested.split('||').map((a) => a.trim());
    for (const alternative of alternatives) {
        const terms = alternative
            .replace(/(>=|<=|>|<|==|~=|\^|~|!=)\s+/g, '$1')
            .split(/[\s,]+/)
            .filter(Boolean);
        if (!terms.length)
            return undefined;
        const results = terms.map((t) => meets(have, t));
        if (results.some((r) => r === undefined))
            return undefined;
        if (results.every(Boolean))
            return true;
    }
    return false;
}

;// CONCATENATED MODULE: ./src/domain/toolchain-check.ts
/**
 * `crew doctor`'s toolchain check: will crew's jobs build and test with the toolchain versions the
 * repository's files declare? Either its setup steps (.github/actions/crew-setup) set the toolchain
 * up, or the runner's own one meets the version. Pure; src/doctor/ reads the files on the default
 * branch and, in a job, asks the runner's programs for their versions.
 */


const NAME = { node: 'Node', python: 'Python', go: 'Go', rust: 'Rust' };
/** The action that sets each up, for the fix. */
const SETUP_STEP = {
    node: 'actions/setup-node with node-version-file',
    python: 'actions/setup-python with python-version-file',
    go: 'actions/setup-go with go-version-file',
    rust: 'a `rustup toolchain install` step',
};
/** The program crew asks for its version on the runner. */
const TOOLCHAIN_PROGRAM = { node: 'node', python: 'python3', go: 'go', rust: 'rustc' };
/** How crew asks it (`go version` prints `go version go1.22.5 linux/amd64`). */
const VERSION_ARGS = { node: ['--version'], python: ['--version'], go: ['version'], rust: ['--version'] };
/** One finding per declared version; none when the files declare none. */
function toolchainFindings(facts, asking) {
    const unread = (facts.unread ?? []).map((why) => ({
        status: 'unknown',
        says: `${why}: a toolchain version it may declare was not checked.`,
        fix: 'a version file of its own (.nvmrc, .node-version, .python-version) is read before it; or make the file smaller',
    }));
    return [...declaredFindings(facts, asking), ...unread];
}
function declaredFindings(facts, asking) {
    return facts.declared.map((d) => {
        const asks = `\`${d.source}\` asks for ${NAME[d.tool]} ${d.version}`;
        if (facts.setUp?.includes(d.tool))
            return { status: 'ok', says: `${asks}; the setup steps (${toolchain_setup/* SETUP_ACTION_PATH */.BC}) set ${d.tool} up.` };
        const noSteps = facts.setUp === null ? `there is no ${toolchain_setup/* SETUP_ACTION_PATH */.BC} to set it up` : `${toolchain_setup/* SETUP_ACTION_PATH */.BC} does not set ${d.tool} up`;
        const fix = `\`npx crew init\` writes ${toolchain_setup/* SETUP_ACTION_PATH */.BC} with ${SETUP_STEP[d.tool]} (it keeps one you have: add the step yourself, docs/workflow.md)`;
        const program = TOOLCHAIN_PROGRAM[d.tool];
        const found = facts.runner?.[d.tool];
        if (found === undefined)
            return {
                status: 'note',
                says: `${asks}, and ${noSteps}: crew's jobs use the runner's own ${program}, whichever version that is.`,
                fix: `${fix}${asking === 'token' ? "; `/crew doctor` on an issue compares it with the runner's" : ''}`,
            };
        if (found === null)
            return { status: 'problem', says: `${asks}, the runner has no ${program}, and ${noSteps}.`, fix };
        if (typeof found === 'object')
            return {
                status: 'unknown',
                says: `${asks}; the runner's \`${[program, ...VERSION_ARGS[d.tool]].join(' ')}\` did not answer in ${Math.round(found.silentForMs / 1000)} s, so crew cannot tell its version, and ${noSteps}.`,
                fix,
            };
        const meets = versionMeets(d.version, found);
        if (meets === true)
            return { status: 'ok', says: `${asks}; the runner's ${program} is ${found}, which meets it.` };
        if (meets === false)
            return {
                status: 'problem',
                says: `${asks}, but the runner's ${program} is ${found}, and ${noSteps}: crew's jobs would build and test with the wrong version.`,
                fix,
            };
        return { status: 'note', says: `${asks}; the runner's ${program} is ${found}, and crew cannot tell whether that meets it; ${noSteps}.`, fix };
    });
}


/***/ })

};
