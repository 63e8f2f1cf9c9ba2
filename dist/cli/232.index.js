export const id = 232;
export const ids = [232];
export const modules = {

/***/ 10232:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  doctor: () => (/* binding */ doctor_doctor)
});

// EXTERNAL MODULE: ./src/domain/doctor.ts
var doctor = __webpack_require__(84441);
// EXTERNAL MODULE: ./src/doctor/gather.ts + 1 modules
var gather = __webpack_require__(27095);
// EXTERNAL MODULE: ./src/doctor/report.ts
var report = __webpack_require__(5933);
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
    const facts = await (0,gather/* gatherFacts */.p)(ctx.repositorySettings, {
        asking: 'job',
        // The key's presence only: a provider other than anthropic signs in otherwise (diagnose says so).
        jobHasKey: ctx.settings.anthropicApiKey.length > 0,
        strays: async () => (await (0,cleanup/* findStrayBranches */.hH)(ctx))?.map((b) => b.branch),
        spend: async () => {
            const summary = await (0,spend_gate/* repositorySpend */.r0)(ctx);
            return { says: (0,spend/* spendSentence */.Mu)(summary), near: (0,domain_spend/* budgetVerdict */.lS)(summary, 0).kind !== 'ok' };
        },
        // This job runs on the runner image the work jobs get, before any setup steps: its programs are theirs.
        runnerToolchains: runnerToolchains,
    });
    if (config && facts.config.ok && facts.config.value)
        facts.config.value.provider = config.provider;
    await ctx.forge.postComment(issue, (0,report/* doctorComment */.ve)(facts, (0,doctor/* diagnose */.h4)(facts)));
}


/***/ })

};
