export const id = 974;
export const ids = [974];
export const modules = {

/***/ 10974:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  doctor: () => (/* binding */ doctor_doctor)
});

// EXTERNAL MODULE: ./src/domain/doctor.ts
var doctor = __webpack_require__(84441);
// EXTERNAL MODULE: ./src/config/schema.ts
var schema = __webpack_require__(90131);
// EXTERNAL MODULE: ./src/domain/criteria.ts
var criteria = __webpack_require__(83543);
// EXTERNAL MODULE: ./src/domain/toolchain-setup.ts
var toolchain_setup = __webpack_require__(47323);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/domain/setup-caches.ts
var setup_caches = __webpack_require__(59613);
;// CONCATENATED MODULE: ./src/doctor/setup-caches.ts



/** The setup action's cache folders on the default branch (domain/setup-caches.ts); undefined when there is no setup action. */
async function setupCacheFacts(settings) {
    const reads = await Promise.all([toolchain_setup/* SETUP_ACTION_PATH */.BC, '.npmrc', '.yarnrc.yml'].map((f) => settings.defaultBranchFile(f)));
    const refused = reads.find((r) => !r.ok);
    if (refused && !refused.ok)
        return refused;
    const [action, npmrc, yarnrc] = reads.map((r) => (r.ok && r.value !== null ? r.value : undefined));
    if (action === undefined)
        return undefined;
    return (0,doctor.ok)((0,setup_caches/* setupCaches */.dc)(action, { ...(npmrc !== undefined ? { npmrc } : {}), ...(yarnrc !== undefined ? { yarnrc } : {}) }));
}

;// CONCATENATED MODULE: ./src/doctor/gather.ts






/** A task branch's name as crew makes them (the rules of any `crew/<N>/r<k>/<task>` branch are asked through it). */
const SAMPLE_TASK_BRANCH = 'crew/1/r1/t1';
const STATE_BRANCH = 'crew/state';
/** The toolchain files and the setup action on the default branch; undefined when no file declares a version. */
async function toolchainFacts(settings, opts) {
    const reads = await Promise.all([...toolchain_setup/* TOOLCHAIN_FILES */.MX, toolchain_setup/* SETUP_ACTION_PATH */.BC].map(async (f) => [f, await settings.defaultBranchFile(f)]));
    const refused = reads.find(([, r]) => !r.ok && r.status !== 0)?.[1];
    if (refused && !refused.ok)
        return refused;
    // A file GitHub sends without its content (over 1 MB) is said, and the check goes on with the others.
    const unread = reads.flatMap(([, r]) => (r.ok ? [] : [r.message]));
    const texts = new Map(reads.flatMap(([f, r]) => (r.ok && r.value !== null ? [[f, r.value]] : [])));
    const declared = (0,toolchain_setup/* declaredVersions */.sI)((0,toolchain_setup/* toolchainSetup */.RG)({ names: [...texts.keys()], read: (n) => texts.get(n) }));
    if (!declared.length && !unread.length)
        return undefined;
    const action = texts.get(toolchain_setup/* SETUP_ACTION_PATH */.BC);
    const facts = { declared, setUp: action === undefined ? null : [...(0,toolchain_setup/* toolchainsSetUp */.wU)(action)], ...(unread.length ? { unread } : {}) };
    const uncovered = declared.map((d) => d.tool).filter((t) => !facts.setUp?.includes(t));
    if (opts.runnerToolchains && uncovered.length)
        facts.runner = await opts.runnerToolchains(uncovered);
    return (0,doctor.ok)(facts);
}
/** Everything `diagnose` needs, read at once; a read GitHub refuses is kept as its status, never thrown. */
async function gatherFacts(settings, opts) {
    const repo = await settings.repository();
    const [actions, workflowPermissions, taskBranchRules, stateBranchRules, stateBranchProtected, workflowFile, configText, secret] = await Promise.all([
        settings.actionsPermissions(),
        settings.workflowPermissions(),
        settings.branchRules(SAMPLE_TASK_BRANCH),
        settings.branchRules(STATE_BRANCH),
        settings.branchProtected(STATE_BRANCH),
        settings.defaultBranchFile(doctor/* WORKFLOW_PATH */.A8),
        settings.defaultBranchFile(doctor/* CONFIG_FILE */.g2),
        opts.asking === 'job' ? Promise.resolve((0,doctor.ok)(opts.jobHasKey === true)) : settings.secretExists(doctor/* SECRET_NAME */.J4),
    ]);
    const toolchains = await toolchainFacts(settings, opts);
    const setupCaches = await setupCacheFacts(settings);
    const facts = {
        repo,
        asking: opts.asking,
        actions,
        workflowPermissions,
        taskBranchRules,
        stateBranchRules,
        stateBranchProtected,
        workflowFile,
        config: configOf(configText),
        secret,
        crewVersion: version/* CREW_VERSION */.f,
        ...(toolchains ? { toolchains } : {}),
        ...(setupCaches ? { setupCaches } : {}),
    };
    if (opts.strays) {
        facts.strays = await opts.strays().then((s) => (s === undefined ? undefined : (0,doctor.ok)(s)), (e) => ({ ok: false, status: 0, message: e.message }));
        if (!facts.strays)
            delete facts.strays;
    }
    if (opts.spend)
        facts.spend = await opts.spend().then(doctor.ok, (e) => ({ ok: false, status: 0, message: e.message }));
    return facts;
}
function configOf(text) {
    if (!text.ok)
        return text;
    if (text.value === null)
        return (0,doctor.ok)(null);
    try {
        const config = (0,schema/* parseConfig */.o4)(text.value, doctor/* CONFIG_FILE */.g2);
        // `criteria:` takes commands; one the plan review would refuse stops every run at planning.
        const unrunnable = config.criteria.flatMap((c, i) => {
            const p = (0,criteria/* commandProblem */.RS)(c);
            return p ? [`criteria[${i}] "${c}" is not a command crew can run: ${p}`] : [];
        });
        return (0,doctor.ok)({ provider: config.provider, ...(unrunnable.length ? { error: unrunnable.join('; ') } : {}) });
    }
    catch (e) {
        if (e instanceof schema/* ConfigError */.xL)
            return (0,doctor.ok)({ error: e.problems.join('; '), provider: 'anthropic' });
        throw e;
    }
}

;// CONCATENATED MODULE: ./src/doctor/report.ts

const MARK = { ok: '✅', problem: '❌', unknown: '❔', note: '⚠️' };
const WORD = { ok: 'ok', problem: 'FIX', unknown: '??', note: 'note' };
function summary(findings) {
    const problems = findings.filter((f) => f.status === 'problem').length;
    return (0,doctor/* healthy */.s2)(findings) ? 'crew is set up: nothing to fix.' : `${problems} thing${problems === 1 ? '' : 's'} to fix before crew can run here.`;
}
/** The comment `/crew doctor` posts: a summary line, then one line per check with its fix. */
function doctorComment(facts, findings) {
    const lines = findings.map((f) => `- ${MARK[f.status]} ${f.says}${f.fix ? `<br>Fix: ${f.fix}` : ''}`);
    return [`### crew doctor: ${facts.repo.fullName}`, '', `**${summary(findings)}**`, '', ...lines].join('\n');
}
/** What `crew doctor` prints at a terminal. */
function doctorText(facts, findings) {
    const lines = findings.flatMap((f) => [`  ${WORD[f.status].padEnd(4)}  ${f.says}`, ...(f.fix ? [`        fix: ${f.fix}`] : [])]);
    return [`crew doctor: ${facts.repo.fullName} (default branch ${facts.repo.defaultBranch})`, '', ...lines, '', summary(findings), ''].join('\n');
}
/** `crew doctor --json`: the findings for tools. */
function doctorJson(facts, findings) {
    return `${JSON.stringify({ repository: facts.repo.fullName, defaultBranch: facts.repo.defaultBranch, healthy: healthy(findings), findings }, null, 2)}\n`;
}

// EXTERNAL MODULE: ./src/steps/cleanup.ts
var cleanup = __webpack_require__(42179);
// EXTERNAL MODULE: ./src/steps/spend-gate.ts + 1 modules
var spend_gate = __webpack_require__(50746);
// EXTERNAL MODULE: ./src/render/spend.ts
var spend = __webpack_require__(86196);
// EXTERNAL MODULE: ./src/domain/spend.ts
var domain_spend = __webpack_require__(48180);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(57975);
// EXTERNAL MODULE: ./src/domain/toolchain-check.ts + 1 modules
var toolchain_check = __webpack_require__(98112);
;// CONCATENATED MODULE: ./src/doctor/runner-toolchains.ts



const run = (0,external_node_util_.promisify)(external_node_child_process_.execFile);
/** How long a program has to say its version. */
const VERSION_TIMEOUT_MS = 15_000;
/**
 * The versions of the runner's own programs, as a job's shell steps find them on PATH (`/crew doctor`
 * runs in crew's route job, on the same runner image as the work jobs, before any setup steps): the
 * first version-looking word of each one's answer; null when the program is not there or fails;
 * `{ silentForMs }` when it did not answer in time (it is there, so "missing" would mislead).
 */
async function runnerToolchains(tools, timeoutMs = VERSION_TIMEOUT_MS) {
    const found = await Promise.all(tools.map(async (t) => {
        try {
            const { stdout, stderr } = await run(toolchain_check/* TOOLCHAIN_PROGRAM */.r6[t], toolchain_check/* VERSION_ARGS */.Lx[t], { timeout: timeoutMs });
            return [t, /\b(?:go|v)?(\d+\.\d+(?:\.\d+)?)/.exec(`${stdout} ${stderr}`)?.[1] ?? null];
        }
        catch (e) {
            // execFile's timeout kills the program and says so with `killed`.
            return [t, e.killed ? { silentForMs: timeoutMs } : null];
        }
    }));
    return Object.fromEntries(found);
}

;// CONCATENATED MODULE: ./src/steps/commands/doctor.ts








/**
 * `/crew doctor`: the repository's setup as this job's token can see it, one line per check with its
 * fix, in one comment. The job's token cannot read the admin-only settings; those lines say where to
 * look, and that `npx crew doctor` with an admin's token reads them.
 */
async function doctor_doctor(ctx, ev) {
    const issue = ev.issue.number;
    if (!ctx.repositorySettings) {
        await ctx.forge.postComment(issue, 'crew doctor checks a repository on GitHub; in a local run there is nothing of GitHub to check.');
        return;
    }
    const config = await ctx.config().catch(() => undefined);
    const facts = await gatherFacts(ctx.repositorySettings, {
        asking: 'job',
        // The key's presence only: a provider other than anthropic signs in otherwise (diagnose says so).
        jobHasKey: ctx.settings.anthropicApiKey.length > 0,
        strays: async () => (await (0,cleanup.findStrayBranches)(ctx))?.map((b) => b.branch),
        spend: async () => {
            const summary = await (0,spend_gate/* repositorySpend */.r0)(ctx);
            return { says: (0,spend/* spendSentence */.Mu)(summary), near: (0,domain_spend/* budgetVerdict */.lS)(summary, 0).kind !== 'ok' };
        },
        // This job runs on the runner image the work jobs get, before any setup steps: its programs are theirs.
        runnerToolchains: runnerToolchains,
    });
    if (config && facts.config.ok && facts.config.value)
        facts.config.value.provider = config.provider;
    await ctx.forge.postComment(issue, doctorComment(facts, (0,doctor/* diagnose */.h4)(facts)));
}


/***/ }),

/***/ 311:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   f: () => (/* binding */ CREW_VERSION)
/* harmony export */ });
/** crew's version, stamped into the reports it writes (claude-crew's `generated_by`). Keep in step with package.json. */
const CREW_VERSION = '0.1.0';


/***/ })

};
