export const id = 967;
export const ids = [967];
export const modules = {

/***/ 10586:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   M: () => (/* binding */ bounded)
/* harmony export */ });
/* unused harmony export TOOL_RESULT_BYTES */
/* harmony import */ var _domain_kept_output__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(33306);

/**
 * No tool result crew's own tools give is larger than this, answer or error (#48). Each tool keeps
 * to smaller limits of its own and says them; this is the net under all of them, keeping the head
 * and the tail of whatever slipped past.
 */
const TOOL_RESULT_BYTES = 50_000;
const fit = (text) => (0,_domain_kept_output__WEBPACK_IMPORTED_MODULE_0__/* .keepEnds */ .m)(text, TOOL_RESULT_BYTES).text;
/** The same tool, its answers and its errors' messages kept within TOOL_RESULT_BYTES. */
function bounded(tool) {
    return {
        ...tool,
        async run(input, facts) {
            try {
                return fit(await tool.run(input, facts));
            }
            catch (e) {
                if (e instanceof Error && Buffer.byteLength(e.message) > TOOL_RESULT_BYTES)
                    e.message = fit(e.message);
                throw e;
            }
        },
    };
}


/***/ }),

/***/ 34627:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Lx: () => (/* binding */ runCommandTool),
  tD: () => (/* binding */ searchTool)
});

// UNUSED EXPORTS: posixEscapes

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: ./src/domain/command-policy.ts
var command_policy = __webpack_require__(97112);
// EXTERNAL MODULE: ./src/domain/git-hardening.ts
var git_hardening = __webpack_require__(44435);
// EXTERNAL MODULE: ./src/domain/glob.ts
var domain_glob = __webpack_require__(47916);
;// CONCATENATED MODULE: ./src/domain/search-results.ts
/**
 * The search tool's answer: every match counted, the first ones shown, and the totals of what
 * was not shown, so a pattern with thousands of hits says how many there are and where. Pure:
 * the caller streams the matches in.
 */
/** Lines shown at most in `lines` mode, and files in `files` mode. */
const SHOWN_LINES = 100;
const SHOWN_FILES = 200;
/** A matching line longer than this is cut (minified code would fill the answer). */
const LINE_CHARS = 300;
const n = (x) => x.toLocaleString('en-US');
const plural = (x, one, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;
class SearchTally {
    mode;
    maxBytes;
    counts = new Map();
    shown = [];
    shownFiles = new Set();
    shownBytes = 0;
    total = 0;
    constructor(mode, 
    /** Bytes of shown lines at most. */
    maxBytes) {
        this.mode = mode;
        this.maxBytes = maxBytes;
    }
    add(path, line, text) {
        this.total++;
        this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
        if (this.mode !== 'lines' || this.shown.length >= SHOWN_LINES)
            return;
        const cut = text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}… [line cut at ${LINE_CHARS} of ${n(text.length)} characters]` : text;
        const entry = `${path}:${line}:${cut}`;
        const size = Buffer.byteLength(entry) + 1;
        if (this.shownBytes + size > this.maxBytes)
            return;
        this.shown.push(entry);
        this.shownFiles.add(path);
        this.shownBytes += size;
    }
    get matches() {
        return this.total;
    }
    /** The answer: a line of totals, the matches shown, and what was left out with how to narrow it. */
    render(what, stopped) {
        if (!this.total)
            return `no matches for ${what}${stopped ? ` (${stopped})` : ''}`;
        const files = this.counts.size;
        const totals = `${plural(this.total, 'matching line')} in ${plural(files, 'file')} for ${what}${stopped ? ` (${stopped}: the totals count what was searched until then)` : ''}`;
        if (this.mode === 'files') {
            const list = [...this.counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
            const shown = [];
            let bytes = 0;
            for (const [path, count] of list) {
                const entry = `${path}: ${n(count)}`;
                if (shown.length >= SHOWN_FILES || bytes + entry.length + 1 > this.maxBytes)
                    break;
                shown.push(entry);
                bytes += Buffer.byteLength(entry) + 1;
            }
            const rest = list.slice(shown.length);
            const more = rest.length
                ? [
                    `… ${plural(rest.reduce((s, [, c]) => s + c, 0), 'more matching line')} in ${plural(rest.length, 'more file')}: narrow the search with path or glob.`,
                ]
                : [];
            return [`${totals}; files by matches:`, ...shown, ...more].join('\n');
        }
        const left = this.total - this.shown.length;
        const leftFiles = [...this.counts.keys()].filter((p) => !this.shownFiles.has(p)).length;
        const more = left
            ? [
                `… ${plural(left, 'more matching line')} not shown (${plural(leftFiles, 'file')} with none shown). Narrow the search with path or glob, or use mode "files" to see every file with its count.`,
            ]
            : [];
        return [`${totals}${left ? `; the first ${n(this.shown.length)} shown` : ''}:`, ...this.shown, ...more].join('\n');
    }
}

// EXTERNAL MODULE: ./src/agents/bounded-tool.ts
var bounded_tool = __webpack_require__(10586);
// EXTERNAL MODULE: ./src/sandbox/own-programs.ts
var own_programs = __webpack_require__(30021);
;// CONCATENATED MODULE: ./src/agents/command-tools.ts







/** How much output run_command keeps, and how to see what it cut: told to the model in the description and with every cut. */
const NARROWING = "run the command again with a filter in the same call: `… 2>&1 | grep -n -E 'FAIL|Error'`, `… 2>&1 | tail -n 200`, `… 2>&1 | sed -n '2000,2100p'`, or `… > /tmp/out.log 2>&1; grep -n PATTERN /tmp/out.log`";
const thousands = (x) => x.toLocaleString('en-US');
/** run_command: a shell command in the checkout, through the policy and the sandbox. */
function runCommandTool(jail, o) {
    const seconds = Math.round(o.timeoutMs / 1000);
    return (0,bounded_tool/* bounded */.M)({
        spec: {
            name: 'run_command',
            description: [
                `Run a shell command (bash) in the repository root and get back its exit code and its output (stdout and stderr together).`,
                `Use it to reproduce a problem, run the tests, linters and builds, and for what the file tools do not do (git log, git diff, find).`,
                `Prefer read_file, search and edit_file for reading, searching and changing files.`,
                `Network: ${o.network === 'allowlist' ? "only the repository's allowed hosts, through the proxy in HTTP_PROXY/HTTPS_PROXY; others are refused" : 'none'}.`,
                ...(o.reach && o.runner ? [o.reach.told(o.runner.sandboxed)] : []),
                `Limits: killed after ${seconds} s. Output over ${thousands(o.maxOutputBytes)} bytes keeps its first third and its last two thirds, with a note saying exactly how many lines were cut from the middle, so the end (failures, totals) always arrives. To see a part that was cut, ${NARROWING}.`,
                `Each call is a fresh shell: cd and variables do not carry over, and in the sandbox neither does /tmp (each call gets an empty one); files changed in the checkout do, so keep what a later call needs there.`,
            ].join(' '),
            input_schema: {
                type: 'object',
                properties: { command: { type: 'string', description: 'The command line, run by bash in the repository root.' } },
                required: ['command'],
            },
        },
        async run(input, facts) {
            const command = input?.command;
            if (typeof command !== 'string')
                throw new Error("'command' must be a string");
            if (!o.runner)
                throw new Error(`run_command is not available in this run: ${o.unavailable ?? 'no sandbox'}`);
            const verdict = (0,command_policy/* checkCommand */.e)(command, o.policy);
            if (!verdict.ok)
                throw new Error(`refused: ${verdict.reason}`);
            const left = o.until === undefined ? Infinity : o.until - (o.now ?? Date.now)();
            if (left <= 0)
                throw new Error("refused: this job's time is up; crew is saving the work so far");
            const timeoutMs = Math.min(o.timeoutMs, left);
            const r = await o.runner.run(command, { cwd: jail.rootDir, timeoutMs, maxOutputBytes: o.maxOutputBytes });
            if (facts)
                Object.assign(facts, r.timedOut ? { exitCode: null, timedOut: true } : { exitCode: r.exitCode });
            const head = r.timedOut
                ? `timed out after ${Math.round(timeoutMs / 1000)} s (killed)${timeoutMs < o.timeoutMs ? " at the job's time limit" : ''}`
                : `exit code ${r.exitCode}`;
            const cut = !r.truncated
                ? ''
                : r.size
                    ? `; the output had ${thousands(r.size.lines)} lines (${thousands(r.size.bytes)} bytes), over the ${thousands(o.maxOutputBytes)} kept, so its middle was cut (the note below says how much). To see the middle, ${NARROWING}`
                    : ` (output cut; to see all of it, ${NARROWING})`;
            // The line about the runner's variables and services comes last, after the output's kept end.
            const note = r.exitCode !== 0 || r.timedOut ? o.reach?.note(r.output, o.runner.sandboxed) : null;
            return `${head}${cut}\n${r.output}${note ? `${r.output.endsWith('\n') ? '' : '\n'}${note}` : ''}`;
        },
    });
}
const SEARCH_SECONDS = 60;
function searchInput(input) {
    const i = (input ?? {});
    if (typeof i.pattern !== 'string' || !i.pattern)
        throw new Error("'pattern' must be a non-empty string");
    if (i.glob !== undefined && (typeof i.glob !== 'string' || !i.glob))
        throw new Error('\'glob\' must be a non-empty string, such as "*.ts" or "src/**/*.test.js"');
    if (i.case_insensitive !== undefined && typeof i.case_insensitive !== 'boolean')
        throw new Error("'case_insensitive' must be true or false");
    if (i.mode !== undefined && i.mode !== 'lines' && i.mode !== 'files')
        throw new Error('\'mode\' must be "lines" or "files"');
    return {
        pattern: i.pattern,
        path: i.path === undefined ? '.' : i.path,
        ...(typeof i.glob === 'string' ? { glob: i.glob } : {}),
        caseInsensitive: i.case_insensitive === true,
        mode: i.mode ?? 'lines',
    };
}
/** A glob without a slash matches file names in any folder; with one, paths from the repository root. */
function globFilter(glob) {
    if (glob === undefined)
        return () => true;
    return glob.includes('/') ? (p) => (0,domain_glob/* globMatch */.e)(glob, p) : (p) => (0,domain_glob/* globMatch */.e)(glob, p.slice(p.lastIndexOf('/') + 1));
}
/** git without PCRE (USE_LIBPCRE) knows POSIX classes only: the few escapes people write most, spelled for -E. */
const posixEscapes = (pattern) => pattern.replace(/\\([dDsSwW])/g, (_, c) => ({ d: '[0-9]', D: '[^0-9]', s: '[[:space:]]', S: '[^[:space:]]', w: '[[:alnum:]_]', W: '[^[:alnum:]_]' })[c]);
/**
 * One `git grep` run, streamed into the tally: every match counted, the first ones kept. The
 * pattern stays after -e and the path after --, read as literal paths, so neither becomes an
 * option or pathspec magic. Resolves with git's exit code and error text.
 */
function grep(jail, args, where, take) {
    return new Promise((resolve) => {
        const child = (0,external_node_child_process_.spawn)((0,own_programs/* ownGit */.Jc)(), [
            ...git_hardening/* HARDENING */.D.flatMap(([k, v]) => ['-c', `${k}=${v}`]),
            '--literal-pathspecs',
            'grep',
            '--untracked',
            '--no-color',
            '-z',
            '-n',
            '-I',
            ...args,
            '--',
            where,
        ], { cwd: jail.rootDir, env: { PATH: (0,own_programs/* ownPath */.O4)(), HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stopped = false;
        const timer = setTimeout(() => {
            stopped = true;
            child.kill('SIGKILL');
        }, SEARCH_SECONDS * 1000);
        let rest = Buffer.alloc(0);
        child.stdout.on('data', (d) => {
            let buf = rest.length ? Buffer.concat([rest, d]) : d;
            for (let end = buf.indexOf(0x0a); end >= 0; end = buf.indexOf(0x0a)) {
                const record = buf.subarray(0, end);
                buf = buf.subarray(end + 1);
                // path NUL line NUL text
                const a = record.indexOf(0);
                const b = record.indexOf(0, a + 1);
                if (a < 0 || b < 0)
                    continue;
                take(record.subarray(0, a).toString('utf8'), Number(record.subarray(a + 1, b).toString()), record.subarray(b + 1).toString('utf8'));
            }
            rest = Buffer.from(buf);
        });
        let stderr = '';
        child.stderr.on('data', (d) => void (stderr.length < 4000 && (stderr += d.toString())));
        child.on('close', (code) => {
            clearTimeout(timer);
            resolve({ code, stderr, stopped });
        });
        child.on('error', (e) => {
            clearTimeout(timer);
            resolve({ code: null, stderr: e.message, stopped });
        });
    });
}
/** search: `git grep -P` over tracked and untracked files, every match counted; the pattern and path never become git options. */
function searchTool(jail, maxOutputBytes) {
    return (0,bounded_tool/* bounded */.M)({
        spec: {
            name: 'search',
            description: [
                'Search the contents of the repository’s files (tracked and untracked, not ignored ones; binary files skipped) for a regular expression, line by line.',
                'The syntax is JavaScript’s (Perl-compatible): \\d, \\w, \\s, \\b, (?:…), lookarounds; escape ( ) [ ] { } . * + ? | \\ to match them literally.',
                'Use it to find where something is defined or used before reading or changing it; then read_file at the line it gives.',
                `Returns a line of totals (matching lines and files), then path:line:text for the first ${SHOWN_LINES} matching lines (each cut at ${LINE_CHARS} characters), and how many more there are in how many files.`,
                `mode "files" returns every matching file with its count instead (most first, up to ${SHOWN_FILES}).`,
                `Narrow it with path (a folder or file), glob (file names such as "*.py", or paths with a slash such as "src/**/*.test.ts") and case_insensitive. Stops after ${SEARCH_SECONDS} s and says so.`,
            ].join(' '),
            input_schema: {
                type: 'object',
                properties: {
                    pattern: { type: 'string', description: 'A regular expression, JavaScript syntax, matched against each line.' },
                    path: { type: 'string', description: 'Folder or file to search, relative to the repository root; the whole repository by default.' },
                    glob: { type: 'string', description: 'Only files matching this glob: "*.ts" matches file names anywhere, "src/**/*.ts" paths from the root.' },
                    case_insensitive: { type: 'boolean', description: 'Match upper and lower case alike (default false).' },
                    mode: {
                        type: 'string',
                        enum: ['lines', 'files'],
                        description: '"lines" (default): the matching lines; "files": each matching file with its number of matching lines.',
                    },
                },
                required: ['pattern'],
            },
        },
        async run(input) {
            const i = searchInput(input);
            const where = jail.relative(i.path);
            const keep = globFilter(i.glob);
            const what = `/${i.pattern}/${i.caseInsensitive ? 'i' : ''}${where === '.' ? '' : ` in ${where}`}${i.glob ? ` (files matching ${i.glob})` : ''}`;
            const run = async (args) => {
                const tally = new SearchTally(i.mode, maxOutputBytes);
                const r = await grep(jail, [...(i.caseInsensitive ? ['-i'] : []), ...args], where, (path, line, text) => keep(path) && tally.add(path, line, text));
                return { tally, ...r };
            };
            let r = await run(['-P', '-e', i.pattern]);
            let note = '';
            if (r.code !== 0 && r.code !== 1 && /USE_LIBPCRE/.test(r.stderr)) {
                // This git was built without PCRE: POSIX extended syntax, with \d and the like spelled out.
                r = await run(['-E', '-e', posixEscapes(i.pattern)]);
                note =
                    '\n(this git has no Perl-compatible regular expressions: the pattern was read as POSIX extended, with \\d, \\w and \\s spelled out; lookarounds and \\b may not work)';
            }
            if (!r.stopped && r.code !== 0 && r.code !== 1)
                throw new Error(`search failed: ${r.stderr.trim() || `git grep exited with ${r.code}`}`);
            return r.tally.render(what, r.stopped ? `stopped after ${SEARCH_SECONDS} s` : undefined) + note;
        },
    });
}


/***/ }),

/***/ 22576:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   S: () => (/* binding */ PathJail)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _domain_glob__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(47916);



/** More links than this in one path is a loop, as the kernel's ELOOP limit says. */
const MAX_LINKS = 40;
const inGit = (rel) => rel === '.git' || rel.startsWith('.git/');
/**
 * Keeps every file a tool touches inside the checkout. Each component of a path is
 * looked at with lstat, and every symbolic link is followed by hand, so a link cannot
 * lead outside the root, into `.git` or onto a protected path, and a link whose target
 * does not exist is refused (writing through it would create the target, wherever it
 * is). The tool user can plant such links with run_command, and the file tools run as
 * crew's own user, so the checks apply to where a path leads, not to how it was typed.
 */
class PathJail {
    protectedPatterns;
    root;
    constructor(root, protectedPatterns = []) {
        this.protectedPatterns = protectedPatterns;
        this.root = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.realpathSync)(root);
    }
    /** The typed path relative to the root, after checking where it leads; or an error the model can read. */
    relative(input) {
        return this.resolve(input).typed;
    }
    /** Resolves every component of the path; throws when it leaves the root or meets a dangling link or a loop. */
    resolve(input) {
        if (typeof input !== 'string' || input.trim() === '')
            throw new Error('path must be a non-empty string, relative to the repository root');
        if (input.includes('\0'))
            throw new Error('path contains a NUL byte');
        const abs = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute)(input) ? (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(input) : (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(this.root, input);
        const rel = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(this.root, abs);
        if (rel === '..' || rel.startsWith(`..${node_path__WEBPACK_IMPORTED_MODULE_1__.sep}`) || (0,node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute)(rel))
            throw new Error(`'${input}' is outside the repository; use a path relative to its root`);
        const typed = rel === '' ? '.' : rel.split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep).join('/');
        const viaLink = () => new Error(`'${input}' leads outside the repository through a symbolic link`);
        const done = [];
        const queue = rel === '' ? [] : rel.split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep);
        let links = 0;
        while (queue.length) {
            const name = queue.shift();
            if (name === '' || name === '.')
                continue;
            if (name === '..') {
                if (done.length === 0)
                    throw viaLink();
                done.pop();
                continue;
            }
            const here = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(this.root, ...done, name);
            let st;
            try {
                st = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.lstatSync)(here);
            }
            catch {
                // Nothing there yet: this and what follows are new folders or the new file.
                done.push(name);
                continue;
            }
            if (!st.isSymbolicLink()) {
                if (!st.isDirectory() && queue.some((q) => q !== '' && q !== '.'))
                    throw new Error(`'${[...done, name].join('/')}' is a file, not a folder, in '${input}'`);
                done.push(name);
                continue;
            }
            if (++links > MAX_LINKS)
                throw new Error(`'${input}' goes through more than ${MAX_LINKS} symbolic links (a loop?)`);
            try {
                (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.statSync)(here);
            }
            catch {
                throw new Error(`'${[...done, name].join('/')}' is a symbolic link to a path that does not exist; crew does not write or read through it`);
            }
            const target = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readlinkSync)(here);
            if ((0,node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute)(target)) {
                const fromRoot = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(this.root, (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(target));
                if (fromRoot === '..' || fromRoot.startsWith(`..${node_path__WEBPACK_IMPORTED_MODULE_1__.sep}`) || (0,node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute)(fromRoot))
                    throw viaLink();
                done.length = 0;
                queue.unshift(...fromRoot.split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep));
            }
            else {
                queue.unshift(...target.split('/'));
            }
        }
        const real = done.length ? done.join('/') : '.';
        return { typed, real, abs: (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(this.root, ...done) };
    }
    /** For reads: inside the root and, as typed and as resolved, not inside `.git`. Returns the resolved absolute path. */
    forRead(input) {
        return this.checkedRead(input).abs;
    }
    /** For writes: as for reads, and neither the typed nor the resolved path is protected. Returns the resolved absolute path. */
    forWrite(input) {
        const p = this.checkedRead(input);
        for (const rel of new Set([p.typed, p.real])) {
            const hit = this.protectedPatterns.find((pattern) => (0,_domain_glob__WEBPACK_IMPORTED_MODULE_2__/* .isProtectedPath */ .W)([pattern], rel));
            if (hit)
                throw new Error(`'${rel}' is protected (matches '${hit}'); crew does not let agents change it${rel === p.typed ? '' : ` ('${p.typed}' is a link to it)`}`);
        }
        return p.abs;
    }
    get rootDir() {
        return this.root;
    }
    checkedRead(input) {
        const p = this.resolve(input);
        if (inGit(p.typed))
            throw new Error(`'${String(input)}' is inside .git, which tools may not read or change`);
        if (inGit(p.real))
            throw new Error(`'${String(input)}' is a symbolic link into .git, which tools may not read or change`);
        return p;
    }
}


/***/ }),

/***/ 13297:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CL: () => (/* binding */ eyesSection),
/* harmony export */   g0: () => (/* binding */ fileTools),
/* harmony export */   qJ: () => (/* binding */ readOnlyTools)
/* harmony export */ });
/* unused harmony export READ_ONLY_TOOLS */
/* harmony import */ var _command_tools__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(34627);
/* harmony import */ var _workspace_tools__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(82565);


/** The names of the tools that only look: what a role that must not change the checkout may call. */
const READ_ONLY_TOOLS = ['list_files', 'read_file', 'search'];
/**
 * The one place a read-only role (the planning agents, the critic, a reviewer) gets its tools from:
 * the workers' own list, read and search tools, so their improvements reach every role that looks.
 */
function readOnlyTools(jail, maxOutputBytes) {
    return fileTools(jail, maxOutputBytes, false);
}
/** The file and search tools; with `write`, a worker's: write_file and edit_file too, after read_file. */
function fileTools(jail, maxOutputBytes, write) {
    const names = READ_ONLY_TOOLS;
    return [...(0,_workspace_tools__WEBPACK_IMPORTED_MODULE_1__/* .workspaceTools */ .z)(jail, () => undefined), (0,_command_tools__WEBPACK_IMPORTED_MODULE_0__/* .searchTool */ .tD)(jail, maxOutputBytes)].filter((t) => write || names.includes(t.spec.name));
}
/** The map and, with tools, the allowance as the model reads it, for the end of a first message. */
function eyesSection(eyes, answer) {
    if (!eyes)
        return [];
    return [
        '',
        eyes.map,
        ...(eyes.look
            ? [
                '',
                `Before you answer you may look at the repository with ${READ_ONLY_TOOLS.join(', ')}, for at most ${eyes.look.turns} turns (several calls in one turn count once); then call ${answer}. Answer at once when the map and the request already tell you enough.`,
            ]
            : []),
    ];
}


/***/ }),

/***/ 22180:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   D2: () => (/* binding */ NotAccepted),
/* harmony export */   NR: () => (/* binding */ SubmissionRejected),
/* harmony export */   dA: () => (/* binding */ askForSubmission),
/* harmony export */   h2: () => (/* binding */ answerTool)
/* harmony export */ });
/* unused harmony exports REASKS, schemaProblems */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(98439);
/* harmony import */ var _tool_loop__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(34068);


/** The model's submission failed the checks on every try; `errors` is what was wrong the last time. */
class SubmissionRejected extends Error {
    tool;
    errors;
    attempts;
    usage;
    constructor(tool, errors, attempts, usage) {
        super(`the ${tool} submission failed validation ${attempts} time${attempts === 1 ? '' : 's'}`);
        this.tool = tool;
        this.errors = errors;
        this.attempts = attempts;
        this.usage = usage;
    }
}
/** How many times crew asks again after an invalid submission. */
const REASKS = 2;
/** The look tools, refusing once `turns` turns have passed, with a reason that asks for the answer. */
function allowance(look, answer, turnsSoFar) {
    return look.tools.map((t) => ({
        ...t,
        run(input, facts) {
            if (turnsSoFar() > look.turns)
                throw new Error(`Your ${look.turns} turn${look.turns === 1 ? '' : 's'} of looking at the repository ${look.turns === 1 ? 'is' : 'are'} used up; answer now by calling ${answer}.`);
            return t.run(input, facts);
        },
    }));
}
/** A tool input crew does not take: the problems go back to the model as a tool error, with what to do. */
class NotAccepted extends Error {
    problems;
    constructor(problems, tool) {
        super(`Not accepted:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix these and call ${tool} again.`);
        this.problems = problems;
    }
}
/** What is wrong with an input its schema refused, field by field, as the model reads it. */
function schemaProblems(error) {
    return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`);
}
/**
 * The final tool an agent answers through: the model is given its schema as JSON Schema, and
 * its input is checked against it. `accept` gets the parsed input and returns what the model
 * reads; it throws NotAccepted for checks beyond the schema. A refused input (schema or
 * `accept`) goes back to the model as a tool error naming every problem, and `rejected`
 * hears of it first.
 */
function answerTool(tool, accept, opts = {}) {
    return {
        final: true,
        spec: { name: tool.name, description: tool.description, input_schema: zod__WEBPACK_IMPORTED_MODULE_1__/* .toJSONSchema */ .bl(tool.schema, { io: 'input' }) },
        async run(raw) {
            try {
                const parsed = tool.schema.safeParse(raw);
                if (!parsed.success)
                    throw new NotAccepted(schemaProblems(parsed.error), tool.name);
                return await accept(parsed.data);
            }
            catch (e) {
                if (e instanceof NotAccepted)
                    opts.rejected?.(e.problems);
                throw e;
            }
        },
    };
}
/**
 * Asks an agent for one structured answer through a tool. An invalid answer goes
 * back as an `is_error` tool result with the exact problems, at most twice; crew
 * never forces the tool (current models reject forced tool_choice), it nudges.
 */
async function askForSubmission(req) {
    let value;
    let accepted = false;
    let lastErrors = [];
    let attempts = 0;
    let turns = 0;
    const looking = req.look?.turns ?? 0;
    const outcome = await (0,_tool_loop__WEBPACK_IMPORTED_MODULE_0__/* .runToolLoop */ .ko)({
        model: req.model,
        modelId: req.modelId,
        system: req.system,
        log: req.log,
        firstMessage: req.firstMessage,
        ...(req.images?.length ? { images: req.images } : {}),
        maxTurns: looking + 1 + REASKS,
        ...(req.trajectory ? { trajectory: req.trajectory } : {}),
        nudge: `Answer by calling the ${req.tool.name} tool.`,
        ...(req.look ? { onTurn: (turn) => void (turns = turn) } : {}),
        // The look allowance adds turns, not answers: after 1 + REASKS refused answers the agent is not asked again.
        between: async () => (attempts > REASKS ? { stop: 'max_turns' } : {}),
        tools: [
            ...(req.look ? allowance(req.look, req.tool.name, () => turns) : []),
            answerTool(req.tool, (input) => {
                const checked = req.check ? req.check(input) : { ok: true, value: input };
                if (!checked.ok)
                    throw new NotAccepted(checked.errors, req.tool.name);
                attempts++;
                value = checked.value;
                accepted = true;
                return 'Accepted.';
            }, {
                rejected(problems) {
                    attempts++;
                    lastErrors = problems;
                    req.log.info(`${req.tool.name} attempt ${attempts} rejected: ${problems.join('; ')}`);
                },
            }),
        ],
    });
    if (accepted)
        return { value: value, usage: outcome.usage };
    if (attempts === 0)
        lastErrors = [`the model never called ${req.tool.name}`];
    throw new SubmissionRejected(req.tool.name, lastErrors, Math.max(attempts, 1), outcome.usage);
}


/***/ }),

/***/ 31373:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   e: () => (/* binding */ summarize),
/* harmony export */   f: () => (/* binding */ transcript)
/* harmony export */ });
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(65534);

/** Each block of the turns to fold is kept to this many characters for the summary (head and end of the rest are dropped). */
const MAX_BLOCK_CHARS = 8000;
function clip(text, max) {
    return text.length > max ? `${text.slice(0, max)} …[${text.length - max} characters cut]` : text;
}
/**
 * A transcript in plain text: the summarizer reads it as data, not as a conversation to continue.
 * Thinking blocks are left out: they belong to the conversation that produced them.
 */
function transcript(messages, maxBlockChars = MAX_BLOCK_CHARS) {
    const clipped = (text) => clip(text, maxBlockChars);
    return messages
        .map((m) => m.content
        .map((b) => {
        if (b.type === 'text')
            return `${m.role}: ${clipped(b.text)}`;
        if (b.type === 'tool_use')
            return `${m.role} called ${b.name}(${clipped(JSON.stringify(b.input))})`;
        if (b.type === 'tool_result')
            return `tool result${b.is_error ? ' (error)' : ''}: ${clipped(b.content)}`;
        return '';
    })
        .filter(Boolean)
        .join('\n'))
        .join('\n');
}
/** The most room a summary is given when it was cut off at the configured limit. */
const MAX_SUMMARY_TOKENS = 64_000;
/**
 * Compaction's model half (endless8's history summary): older turns become a short
 * account that keeps what matters for the rest of the task — files changed,
 * decisions, and every failed approach, so it is not tried again. A summary cut off at
 * `max_tokens` (thinking counts) is asked again with twice the room; one that still does not
 * fit, or that the model refuses or leaves empty, is an error: the turns it should fold are
 * never dropped in silence.
 */
async function summarize(model, modelId, system, previous, messages, maxTokens = 16_000) {
    const text = [
        previous ? `Summary so far:\n${previous}\n` : '',
        'Turns to fold into the summary:',
        transcript(messages),
        '',
        'Write the updated summary.',
    ].join('\n');
    let usage;
    for (let room = maxTokens;; room = Math.min(MAX_SUMMARY_TOKENS, room * 2)) {
        const reply = await model.complete({ model: modelId, system, tools: [], maxTokens: room, messages: [{ role: 'user', content: [{ type: 'text', text }] }] });
        usage = usage ? (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .addUsage */ .vk)(usage, reply.usage) : reply.usage;
        const summary = reply.content
            .filter((b) => b.type === 'text')
            .map((b) => b.text)
            .join('\n')
            .trim();
        const cut = reply.stopReason === 'max_tokens' || reply.stopReason === 'model_context_window_exceeded';
        if (cut && room < MAX_SUMMARY_TOKENS && reply.stopReason === 'max_tokens')
            continue;
        if (cut)
            throw new Error(`compaction's summary was cut off (stop_reason ${reply.stopReason}) at ${room} output tokens; raise max_output_tokens.summarizer in .github/crew.yml, or lower context_budget so less is summarised at once`);
        if (reply.stopReason === 'refusal')
            throw new Error("compaction's summary was refused by the model (stop_reason refusal); the turns it should fold were kept out of the summary, so the attempt stops here");
        if (!summary)
            throw new Error(`compaction's summary came back empty (stop_reason ${reply.stopReason ?? 'none'}); the attempt stops rather than lose the turns it should fold`);
        return { summary, usage };
    }
}


/***/ }),

/***/ 34068:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  ko: () => (/* binding */ runToolLoop)
});

// UNUSED EXPORTS: COMPACT_AT, DEFAULT_MAX_TOKENS, cutToolResults, estimateTokens

// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/domain/images.ts
var domain_images = __webpack_require__(99696);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
;// CONCATENATED MODULE: ./src/text/log-line.ts
/** How long a reason may be on one line of a job log. */
const LOG_REASON_CHARS = 300;
/**
 * A multi-line message (a refused tool call's "Not accepted:" and its list of problems) as one job
 * log line: list items joined by "; ", cut to `max` characters with "…". Line breaks and other
 * control characters never survive: the text may carry model-written words, and on GitHub a log
 * line that starts with `::` is a workflow command.
 */
function logLine(message, max = LOG_REASON_CHARS) {
    let out = '';
    for (const raw of message.split(/[\r\n\u2028\u2029]+/)) {
        const line = raw
            .replace(/\p{Cc}+/gu, ' ')
            .trim()
            .replace(/^[-*] +/, '');
        if (!line)
            continue;
        out = out ? `${out}${/:$/.test(out) ? ' ' : '; '}${line}` : line;
    }
    return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

;// CONCATENATED MODULE: ./src/agents/limits-notice.ts

/** Turns before the end at which the model is warned to wrap up. */
const WARN_TURNS = 3;
const n = (x) => Math.max(0, Math.round(x)).toLocaleString('en-US');
/** Turns the budget still holds at the recent pace; Infinity without a budget or a pace. */
function turnsTheBudgetHolds(s) {
    if (!s.recent.length)
        return Infinity;
    const pace = (f) => s.recent.reduce((sum, r) => sum + f(r), 0) / s.recent.length;
    const byTokens = s.tokens !== undefined && pace((r) => r.tokens) > 0 ? (s.tokens - (0,run_state/* tokensOf */.k8)(s.usage)) / pace((r) => r.tokens) : Infinity;
    const byCost = s.costUsd !== undefined && pace((r) => r.costUsd) > 0 ? (s.costUsd - s.usage.costUsd) / pace((r) => r.costUsd) : Infinity;
    return Math.floor(Math.min(byTokens, byCost));
}
/**
 * What the model reads with each tool result about its limits: the turns and the budget left, and a
 * few turns before either runs out, to wrap up. Claude Code and mini-swe-agent tell the model nothing
 * and let it run into the wall; a worker told its limits can leave its work in a state the next attempt
 * (or a person) can use.
 */
function limitsNotice(s) {
    const parts = [`crew: turn ${s.turn} of ${s.maxTurns} done (${s.maxTurns - s.turn} left)`];
    const budget = [];
    if (s.tokens !== undefined)
        budget.push(`${n(s.tokens - (0,run_state/* tokensOf */.k8)(s.usage))} of ${n(s.tokens)} budget tokens`);
    if (s.costUsd !== undefined)
        budget.push(`$${Math.max(0, s.costUsd - s.usage.costUsd).toFixed(2)} of $${s.costUsd.toFixed(2)}`);
    if (budget.length)
        parts.push(`this attempt's budget left: ${budget.join(', ')}`);
    const left = Math.min(s.maxTurns - s.turn, turnsTheBudgetHolds(s));
    let text = `${parts.join('; ')}.`;
    if (left <= WARN_TURNS)
        text += ` Only about ${left} turn${left === 1 ? '' : 's'} left before this attempt stops: finish the change you are making, make sure it is written to the files, and call report_result with what is done and what is left. crew commits your changes to your branch either way.`;
    return text;
}
/** The one turn the model gets after a limit is reached: report, nothing else. */
function lastTurnNotice(kind) {
    const what = kind === 'max_turns' ? "this attempt's turns are used up" : "this attempt's budget is spent";
    return `crew: ${what}, so this is your last turn. Call report_result now, and nothing else: what you did, what is left, and what the next attempt should do first (status partial if the task is not done). crew has kept your changes and commits them to your branch. No other tool will run.`;
}
/** What a tool call other than the report gets in the last turn. */
const NOT_IN_LAST_TURN = 'crew did not run this call: this is the last turn of the attempt, in which only report_result runs.';

;// CONCATENATED MODULE: ./src/agents/repeats.ts
/** The same call with the same result this many times: the model is told it is going round in circles. */
const REPEAT_NOTE_AT = 3;
/** This many times: the attempt stops, with the reason (OpenHands' stuck detector stops a repeated action with the same observation). */
const REPEAT_STOP_AT = 5;
/**
 * Counts each tool call by its name, its exact input and its exact result (an error included), over
 * the whole attempt, in any order: a model that edits, reads, and edits the same way again is as stuck
 * as one that repeats itself turn after turn.
 */
class RepeatWatch {
    #seen = new Map();
    record(use, result, isError) {
        const key = JSON.stringify([use.name, use.input, isError, result]);
        const count = (this.#seen.get(key) ?? 0) + 1;
        this.#seen.set(key, count);
        const what = `${use.name} with the same input ${count} times, and it ${isError ? 'failed' : 'answered'} the same way each time`;
        if (count === REPEAT_STOP_AT)
            return { act: 'stop', count, text: `the worker called ${what}` };
        if (count === REPEAT_NOTE_AT)
            return {
                act: 'note',
                count,
                text: `crew notes: you have called ${what}. Repeating it will not change the result: read the error or the output again, look at the file as it is now (read_file), and try a different approach. At ${REPEAT_STOP_AT} identical calls with the same result crew stops this attempt.`,
            };
        return undefined;
    }
}

// EXTERNAL MODULE: ./src/agents/summarizer.ts
var summarizer = __webpack_require__(31373);
;// CONCATENATED MODULE: ./src/agents/tool-loop.ts







/** `max_tokens` of an agent's reply unless its role sets one (the planning agents, the critic, the retrospector). */
const DEFAULT_MAX_TOKENS = 32_000;
/** Share of the context budget past which older turns are summarised. */
const COMPACT_AT = 0.6;
/** `keep` characters of `text`, half from its head and half from its tail, with a note of the cut between. */
function keepEnds(text, keep, note) {
    return `${text.slice(0, Math.ceil(keep / 2))}\n…[${note(text.length - keep)}]…\n${text.slice(-Math.floor(keep / 2))}`;
}
/** The newest messages a fresh conversation repeats word for word (three exchanges of a call and its results). */
const KEEP_MESSAGES = 6;
/** The pre-send guard keeps an estimated prompt under this share of the budget (estimates are rough). */
const SEND_LIMIT = 0.85;
/** Characters per token for the estimate: lower than typical English, so it errs towards too many tokens. */
const CHARS_PER_TOKEN = 3;
/** A rough, deliberately high count of the tokens a request's prompt will take. */
function estimateTokens(system, tools, messages) {
    // An image costs what the API charges for it (at most IMAGE_TOKENS), not its base64's length.
    let images = 0;
    const json = JSON.stringify(messages, (key, value) => {
        if (key === 'source' && typeof value === 'object' && value !== null && value.type === 'base64') {
            images++;
            return null;
        }
        return value;
    });
    return Math.ceil((system.length + JSON.stringify(tools).length + json.length) / CHARS_PER_TOKEN) + images * domain_images/* IMAGE_TOKENS */.dI;
}
/**
 * Cuts the largest tool results in `messages[from..]` (head and tail kept, with a note the model
 * reads) until the estimate has shed `overTokens`. Returns how many it cut; the tool_use pairing is
 * untouched. Only messages not yet sent may change: a thinking block is bound to everything sent
 * before it, so editing history the model has seen makes the API refuse the next request.
 */
function cutToolResults(messages, overTokens, from = 0) {
    let over = overTokens * CHARS_PER_TOKEN;
    let cut = 0;
    const results = messages
        .flatMap((m, i) => (i < from ? [] : m.content.map((b, j) => ({ b, i, j }))))
        .filter((x) => x.b.type === 'tool_result')
        .sort((a, b) => b.b.content.length - a.b.content.length);
    for (const { b, i, j } of results) {
        if (over <= 0)
            break;
        const keep = Math.max(400, b.content.length - over - 400);
        if (keep >= b.content.length)
            break;
        const text = keepEnds(b.content, keep, (removed) => `crew cut ${removed} characters of this tool result to keep the prompt within the context budget; ask for a smaller part, e.g. read_file with start_line and end_line`);
        const content = [...messages[i].content];
        content[j] = { ...b, content: text };
        messages[i] = { ...messages[i], content };
        over -= b.content.length - text.length;
        cut++;
    }
    return cut;
}
/**
 * The agent loop: ask the model, run the tools it calls, send the results back,
 * until a final tool succeeds or a limit is reached. Tool failures go back to the
 * model as errors it can read; they never end the job. The trajectory hears how it ended,
 * however it ended.
 */
async function runToolLoop(o) {
    try {
        const outcome = await loop(o);
        o.trajectory?.end({ stop: outcome.stop, ...(outcome.error ? { error: outcome.error } : {}) });
        return outcome;
    }
    catch (e) {
        o.trajectory?.end({ stop: 'error', error: e instanceof Error ? e.message : String(e) });
        throw e;
    }
}
async function loop(o) {
    return new ToolLoop(o).run();
}
/** One agent run's conversation and counts; `run` asks, runs tools and answers until the loop ends. */
class ToolLoop {
    o;
    summary = '';
    /** What the work has changed, when compacted (git diff --stat). */
    changes = '';
    /** The newest turns before the last compaction, as text: a fresh conversation cannot hold their tool calls. */
    lastStep = '';
    messages;
    /**
     * How many messages the model has seen in this conversation. The history is append-only: the
     * API binds each thinking block to everything before it (system, tools, earlier messages) and
     * refuses a request in which that changed. Only messages from here on may still be edited.
     */
    seen = 0;
    byName;
    toolCalls = {};
    promptTokens = [];
    usage = run_state/* ZERO_USAGE */.fI;
    nudged = false;
    compactions = 0;
    cutResults = 0;
    /** With `tellLimits`, a limit was reached: the next turn is the last, for the report only. */
    lastTurn;
    recent = [];
    repeats = new RepeatWatch();
    hasFinal;
    now;
    specs;
    turnsDone = 0;
    constructor(o) {
        this.o = o;
        this.messages = [this.opening()];
        this.byName = new Map(o.tools.map((t) => [t.spec.name, t]));
        this.hasFinal = o.tools.some((t) => t.final);
        this.now = o.limits?.now ?? Date.now;
        this.specs = o.tools.map((t) => t.spec);
    }
    async run() {
        const o = this.o;
        for (let turn = 1; turn <= o.maxTurns || (this.lastTurn !== undefined && turn === this.turnsDone + 1); turn++) {
            // Tool errors never get here: they went back to the model. This is the model API, compaction or `between`.
            let outcome;
            try {
                outcome = await this.step(turn);
            }
            catch (e) {
                // The job being cancelled is not an error, wherever the loop was (compaction's model call, `between`).
                if (e instanceof ports/* Interrupted */.j$ || o.signal?.aborted)
                    return this.done('interrupted', this.turnsDone);
                if (!o.recover)
                    throw e;
                return this.done('error', this.turnsDone, undefined, e instanceof Error ? e.message : String(e));
            }
            if (outcome)
                return outcome;
        }
        return this.done('max_turns', o.maxTurns);
    }
    opening() {
        const parts = [this.o.firstMessage];
        if (this.summary)
            parts.push(`## Your work so far (summarised)\n${this.summary}`);
        if (this.changes)
            parts.push(`## Files changed so far (git diff --stat)\n${this.changes}`);
        if (this.lastStep)
            parts.push(`## Your latest turns, word for word\n${this.lastStep}\n\nGo on from there.`);
        return { role: 'user', content: [...(this.o.images ?? []), { type: 'text', text: parts.join('\n\n') }] };
    }
    done(stop, turns, finalInput, error) {
        return {
            stop,
            turns,
            usage: this.usage,
            finalInput,
            toolCalls: this.toolCalls,
            messages: this.messages,
            promptTokens: this.promptTokens,
            compactions: this.compactions,
            cutResults: this.cutResults,
            ...(this.lastTurn && stop === 'final' ? { limit: this.lastTurn } : {}),
            ...(error ? { error } : {}),
        };
    }
    spent() {
        const limits = this.o.limits;
        return (limits?.tokens !== undefined && (0,run_state/* tokensOf */.k8)(this.usage) >= limits.tokens) || (limits?.costUsd !== undefined && this.usage.costUsd >= limits.costUsd);
    }
    limitsOf() {
        const limits = this.o.limits;
        return {
            ...(limits?.tokens !== undefined ? { tokens: limits.tokens } : {}),
            ...(limits?.costUsd !== undefined ? { costUsd: limits.costUsd } : {}),
        };
    }
    /**
     * After a turn: the limit reached, if any. With `tellLimits` and a final tool, the first time one is
     * reached the model is told and gets one more turn (undefined: go on); otherwise the loop ends.
     */
    limitReached(turn, notes) {
        const o = this.o;
        const kind = this.spent() ? 'budget' : turn >= o.maxTurns ? 'max_turns' : undefined;
        if (this.lastTurn)
            return this.done(this.lastTurn, turn);
        if (!kind) {
            if (o.tellLimits)
                notes.push(limitsNotice({ turn, maxTurns: o.maxTurns, usage: this.usage, ...this.limitsOf(), recent: this.recent.slice(-3) }));
            return undefined;
        }
        if (!o.tellLimits || !this.hasFinal)
            return kind === 'budget' ? this.done('budget', turn) : undefined;
        this.lastTurn = kind;
        notes.push(lastTurnNotice(kind));
        o.log.info(`${kind === 'budget' ? 'the budget is spent' : 'the turn limit is reached'} after turn ${turn}: one last turn to report`);
        o.trajectory?.note(turn, `${kind}: crew gave the model one last turn to report`);
        return undefined;
    }
    /** Adds text blocks to the newest user message, which the model has not seen yet. */
    appendNotes(notes) {
        if (!notes.length)
            return;
        const last = this.messages.at(-1);
        const blocks = notes.map((text) => ({ type: 'text', text }));
        if (last.role === 'user')
            this.messages[this.messages.length - 1] = { ...last, content: [...last.content, ...blocks] };
        else
            this.messages.push({ role: 'user', content: blocks });
    }
    /**
     * Starts a fresh conversation: an opening with the task, a summary of everything but the newest
     * exchanges, what the work changed (git diff --stat), and those exchanges word for word as text. No
     * thinking block is carried over (each is bound to the conversation that produced it); system and
     * tools stay the same, so their cache holds.
     */
    async compact(why) {
        const o = this.o;
        const messages = this.messages;
        // The newest exchanges that fit in a quarter of the budget, word for word (at least the newest call and
        // its results, their ends kept if they alone are too long).
        const room = Math.floor(o.compaction.budgetTokens * CHARS_PER_TOKEN * 0.25);
        let keep = Math.min(KEEP_MESSAGES, messages.length - 2);
        while (keep > 2 && (0,summarizer/* transcript */.f)(messages.slice(-keep), Infinity).length > room)
            keep = Math.max(2, keep - 2);
        const tail = messages.slice(-keep);
        this.changes =
            (await o.compaction.changes?.().catch((e) => `(crew could not read the changes: ${e instanceof Error ? e.message : String(e)})`)) ?? '';
        // The opening's latest turns are not in the summary yet: they go to the summarizer with the turns after them.
        const before = [
            ...(this.changes
                ? [{ role: 'user', content: [{ type: 'text', text: `(files changed so far, git diff --stat)\n${this.changes}` }] }]
                : []),
            ...(this.lastStep
                ? [{ role: 'user', content: [{ type: 'text', text: `(the latest turns before the previous summary)\n${this.lastStep}` }] }]
                : []),
        ];
        const startedAt = Date.now();
        const s = await o.compaction.summarize(this.summary, [...before, ...messages.slice(1, -keep)]);
        o.trajectory?.compaction(this.turnsDone, { startedAt, durationMs: Date.now() - startedAt, usage: s.usage, summary: s.summary });
        this.usage = (0,run_state/* addUsage */.vk)(this.usage, s.usage);
        this.summary = s.summary;
        const step = (0,summarizer/* transcript */.f)(tail, Infinity);
        this.lastStep = step.length <= room ? step : keepEnds(step, room - 100, (removed) => `crew cut ${removed} characters here`);
        this.messages = [this.opening()];
        this.seen = 0;
        this.compactions++;
        o.log.info(`compacted the conversation ${why}; it goes on as a fresh one`);
    }
    /**
     * A reply cut off mid-way: its tool calls may carry half their input (the SDK drops a field whose
     * JSON was not finished), so none runs. The API still wants a tool_result for each; each says
     * why, and how to fit. A full context window is compacted, or ends the loop when it cannot be.
     */
    async cutOff(turn, stop, uses) {
        const o = this.o;
        const record = o.trajectory;
        const room = o.maxTokens ?? DEFAULT_MAX_TOKENS;
        const why = stop === 'max_tokens'
            ? `Your last reply was cut off: it reached the output limit of ${room} tokens (max_tokens; thinking counts towards it) before it was complete.`
            : "Your last reply was cut off: the conversation reached the model's context window.";
        const parts = this.byName.has('edit_file') && this.byName.has('write_file')
            ? ' Write a large file in parts: write_file with the first part, then edit_file to add each next part after the last lines written. Change an existing file with edit_file instead of rewriting it.'
            : '';
        const advice = `Keep each reply, with each tool call's input, well under ${room} tokens.${parts} Think briefly.`;
        o.log.warn(`turn ${turn} was cut off (stop_reason ${stop}); ${uses.length ? `crew ran none of its ${uses.length} tool call(s) and told the model` : 'crew told the model'}`);
        for (const use of uses)
            this.toolCalls[use.name] = (this.toolCalls[use.name] ?? 0) + 1;
        const results = uses.map((use) => {
            const content = `crew did not run this ${use.name} call: its input may be incomplete. ${why} ${advice}`;
            record?.toolResult(turn, { use, content, isError: true, durationMs: 0 });
            return { type: 'tool_result', tool_use_id: use.id, is_error: true, content };
        });
        record?.note(turn, `cut off (stop_reason ${stop}): crew ran none of its tool calls and told the model`);
        record?.turnDone(turn);
        const note = { type: 'text', text: `${why} ${advice}` };
        const last = this.messages.at(-1);
        if (results.length)
            this.messages.push({ role: 'user', content: results });
        else if (last.role === 'user')
            this.messages[this.messages.length - 1] = { ...last, content: [...last.content, note] };
        else
            this.messages.push({ role: 'user', content: [note] });
        if (stop === 'model_context_window_exceeded') {
            if (!o.compaction || this.messages.length <= 3)
                throw new Error(`the conversation filled the model's context window at turn ${turn} (stop_reason model_context_window_exceeded), and there were no older turns to summarise`);
            await this.compact(`after turn ${turn} filled the context window`);
        }
        const notes = [];
        const ended = this.limitReached(turn, notes);
        this.appendNotes(notes);
        return ended;
    }
    /** Before a turn's request: teammates' notes, and the prompt kept within the context budget. */
    async beforeRequest(turn) {
        const o = this.o;
        if (o.between) {
            const b = await o.between(turn);
            if (b.stop)
                return this.done(b.stop, turn - 1);
            if (b.notes?.length) {
                const last = this.messages.at(-1);
                this.messages[this.messages.length - 1] = { ...last, content: [...last.content, ...b.notes.map((text) => ({ type: 'text', text }))] };
            }
        }
        if (o.compaction) {
            const limit = o.compaction.budgetTokens * SEND_LIMIT;
            const estimate = () => estimateTokens(o.system, this.specs, this.messages);
            if (estimate() > limit && this.messages.length > 3)
                await this.compact(`before turn ${turn} (about ${estimate()} tokens estimated)`);
            if (estimate() > limit) {
                const n = cutToolResults(this.messages, estimate() - limit, this.seen);
                this.cutResults += n;
                if (n)
                    o.trajectory?.note(turn - 1, `crew cut ${n} tool result(s) before turn ${turn} to stay within the context budget`);
                o.log.info(`cut ${n} tool result(s) before turn ${turn} to stay within the context budget`);
            }
        }
        return undefined;
    }
    /** One turn: the outcome when the loop ends with it, undefined to go on. */
    async step(turn) {
        const o = this.o;
        const record = o.trajectory;
        if (o.signal?.aborted)
            return this.done('interrupted', turn - 1);
        if (o.limits?.deadline !== undefined && this.now() >= o.limits.deadline)
            return this.done('wall_clock', turn - 1);
        const early = await this.beforeRequest(turn);
        if (early)
            return early;
        let reply;
        this.seen = this.messages.length;
        const askedAt = Date.now();
        try {
            reply = await o.model.complete({
                model: o.modelId,
                system: o.system,
                tools: this.specs,
                messages: this.messages,
                maxTokens: o.maxTokens ?? DEFAULT_MAX_TOKENS,
                ...(o.signal ? { signal: o.signal } : {}),
            });
        }
        catch (e) {
            if (e instanceof ports/* Interrupted */.j$)
                return this.done('interrupted', turn - 1);
            throw e;
        }
        this.turnsDone = turn;
        record?.reply(turn, { model: o.modelId, startedAt: askedAt, durationMs: Date.now() - askedAt, reply });
        this.usage = (0,run_state/* addUsage */.vk)(this.usage, reply.usage);
        this.recent.push({ tokens: (0,run_state/* tokensOf */.k8)(reply.usage), costUsd: reply.usage.costUsd });
        const sent = reply.usage.inputTokens + reply.usage.cacheReadTokens + reply.usage.cacheWriteTokens;
        this.promptTokens.push(sent);
        o.onTurn?.(turn, this.usage, sent);
        if (reply.stopReason === 'refusal')
            throw new Error(`the model refused to continue (stop_reason refusal) at turn ${turn}; crew ran none of the tool calls in that reply`);
        // Empty text blocks are rejected by the API if sent back.
        const content = reply.content.filter((b) => !(b.type === 'text' && b.text.trim() === ''));
        const uses = content.filter((b) => b.type === 'tool_use');
        if (reply.stopReason === 'pause_turn' && uses.length === 0 && content.length) {
            // The API paused a long turn; sending the reply back unchanged lets the model continue it.
            this.messages.push({ role: 'assistant', content: content });
            record?.turnDone(turn);
            return undefined;
        }
        if (reply.stopReason === 'max_tokens' || reply.stopReason === 'model_context_window_exceeded') {
            if (content.length)
                this.messages.push({ role: 'assistant', content: content });
            return this.cutOff(turn, reply.stopReason, uses);
        }
        if (content.length)
            this.messages.push({ role: 'assistant', content: content });
        if (uses.length === 0) {
            record?.turnDone(turn);
            if (this.lastTurn)
                return this.done(this.lastTurn, turn);
            if (!o.nudge || this.nudged || content.length === 0)
                return this.done('no_final', turn);
            this.nudged = true;
            this.messages.push({ role: 'user', content: [{ type: 'text', text: o.nudge }] });
            return undefined;
        }
        return this.answerCalls(turn, uses, sent);
    }
    /** Runs the tools a reply called, sends their results back, and sees whether a limit or a loop ends the run. */
    async answerCalls(turn, uses, sent) {
        const o = this.o;
        const record = o.trajectory;
        const ran = await this.runCalls(turn, uses);
        if (ran.interrupted)
            return this.done('interrupted', turn);
        const results = ran.results;
        this.messages.push({ role: 'user', content: results });
        record?.turnDone(turn);
        if (ran.finished)
            return this.done('final', turn, ran.finalInput);
        const notes = [];
        if (o.tellLimits) {
            for (const r of results) {
                const use = uses.find((u) => u.id === r.tool_use_id);
                const seen = this.repeats.record(use, r.content, r.is_error === true);
                if (seen?.act === 'stop') {
                    o.log.warn(`turn ${turn}: ${seen.text}; the attempt stops`);
                    record?.note(turn, `${seen.text}; crew stopped the attempt`);
                    return this.done('loop', turn, undefined, seen.text);
                }
                if (seen)
                    notes.push(seen.text);
            }
        }
        const ended = this.limitReached(turn, notes);
        this.appendNotes(notes);
        if (ended)
            return ended;
        if (o.compaction && sent > o.compaction.budgetTokens * COMPACT_AT && this.messages.length > 3)
            await this.compact(`after turn ${turn} (${sent} input tokens)`);
        return undefined;
    }
    /** Each call in turn: refused in the last turn or when unknown, else run; a thrown error goes back to the model. */
    async runCalls(turn, uses) {
        const o = this.o;
        const record = o.trajectory;
        const results = [];
        let finalInput;
        let finished = false;
        for (const use of uses) {
            if (o.signal?.aborted) {
                record?.turnDone(turn);
                return { results, finished, interrupted: true };
            }
            this.toolCalls[use.name] = (this.toolCalls[use.name] ?? 0) + 1;
            const tool = this.byName.get(use.name);
            const ranAt = Date.now();
            if (this.lastTurn && tool && !tool.final) {
                record?.toolResult(turn, { use, content: NOT_IN_LAST_TURN, isError: true, durationMs: 0 });
                results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: NOT_IN_LAST_TURN });
                continue;
            }
            if (!tool) {
                const why = o.refused?.[use.name] ?? `There is no tool named '${use.name}'. Available tools: ${[...this.byName.keys()].join(', ')}.`;
                // The name is the model's own (no such tool here): one line of it, like the reason.
                o.log.info(`tool ${logLine(use.name, 80)} refused: ${logLine(why)}`);
                record?.toolResult(turn, { use, content: why, isError: true, durationMs: 0 });
                results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: why });
                continue;
            }
            const facts = {};
            try {
                const text = (await tool.run(use.input, facts)) || '(no output)';
                record?.toolResult(turn, { use, content: text, isError: false, durationMs: Date.now() - ranAt, facts });
                results.push({ type: 'tool_result', tool_use_id: use.id, content: text });
                if (tool.final) {
                    finished = true;
                    finalInput = use.input;
                }
            }
            catch (e) {
                const message = e instanceof Error ? e.message : String(e);
                o.log.info(`tool ${use.name} failed: ${logLine(message)}`);
                record?.toolResult(turn, { use, content: message, isError: true, durationMs: Date.now() - ranAt, facts });
                results.push({ type: 'tool_result', tool_use_id: use.id, is_error: true, content: message });
            }
        }
        return { results, finished, ...(finished ? { finalInput } : {}) };
    }
}


/***/ }),

/***/ 82565:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  z: () => (/* binding */ workspaceTools)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/domain/file-window.ts + 1 modules
var file_window = __webpack_require__(36447);
;// CONCATENATED MODULE: ./src/domain/edit-answer.ts
/**
 * What edit_file answers: on success the changed region, numbered, with a few lines around it;
 * on a miss, the nearest text in the file (first the same text spaced differently, then the most
 * similar run of lines) with its line numbers; with several matches, the line of each. Pure.
 */

/** Lines of context shown around a change or a near match. */
const CONTEXT = 3;
/** Changed regions shown after a replace_all; the rest are counted. */
const REGIONS = 5;
/** Lines of one region shown at most. */
const REGION_LINES = 60;
/** A run of lines this similar (0..1, by character pairs) is named as the nearest match. */
const SIMILAR = 0.5;
/** Comparisons at most when looking for the nearest match (file lines × lines of old_string). */
const COMPARISONS = 400_000;
const n = (x) => x.toLocaleString('en-US');
/** The 1-based line a character offset is on. */
function lineAt(text, offset) {
    let line = 1;
    for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1))
        line++;
    return line;
}
/** Every offset where `needle` occurs, without overlaps (as a replacement would use them). */
function occurrences(text, needle) {
    const out = [];
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length))
        out.push(at);
    return out;
}
/** Lines from..to (1-based, clamped) of `lines`, numbered as read_file numbers them. */
function numbered(lines, from, to) {
    const a = Math.max(1, from);
    const b = Math.min(lines.length, to);
    const width = String(b).length;
    return Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => `${String(a + i).padStart(width)}\t${shortened(lines[a + i - 1].replace(/\r$/, ''))}`);
}
/** A line of an answer longer than this is cut (a minified file would fill it). */
const SHOWN_LINE_CHARS = 500;
const shortened = (line) => (line.length > SHOWN_LINE_CHARS ? `${line.slice(0, SHOWN_LINE_CHARS)}… [line cut: ${n(line.length)} characters]` : line);
/** A near match shows at most this many of its lines. */
const MATCH_LINES = 30;
/** Lines a..b numbered, at most MATCH_LINES of them, with a count of the rest. */
function excerpt(lines, a, b) {
    const last = Math.min(b, a + MATCH_LINES - 1);
    return [...numbered(lines, a, last), ...(b > last ? [`… (${n(b - last)} more lines; read_file shows them)`] : [])].join('\n');
}
const listLines = (ls) => (ls.length === 1 ? `line ${ls[0]}` : `lines ${ls.slice(0, -1).join(', ')} and ${ls.at(-1)}`);
/** The answer to an edit that matched more than once without replace_all. */
function severalMatches(path, text, at) {
    const ls = at.map((o) => lineAt(text, o));
    const shown = ls.slice(0, 20);
    return `old_string occurs ${at.length} times in ${path}, at ${listLines(shown)}${ls.length > shown.length ? ` (and ${ls.length - shown.length} more)` : ''}. Include more of the surrounding lines in old_string so it matches once, or set replace_all to true to change every one.`;
}
/**
 * The regions a replacement changed, in the new text: for each replaced offset (in the old text),
 * the new lines with CONTEXT lines around, numbered in the new file.
 */
function changedRegions(oldText, at, oldString, newString) {
    const newText = applyAt(oldText, at, oldString, newString);
    const lines = (0,file_window/* linesOf */.Dx)(newText);
    const newLines = newString === '' ? 0 : newString.split('\n').length - (newString.endsWith('\n') ? 1 : 0);
    const regions = [];
    let shift = 0;
    for (const o of at) {
        const first = lineAt(newText, o + shift);
        const last = Math.max(first, first + newLines - 1);
        regions.push([first, last]);
        shift += newString.length - oldString.length;
    }
    // Regions that touch are shown as one.
    const merged = [];
    for (const [a, b] of regions) {
        const prev = merged.at(-1);
        if (prev && a - CONTEXT <= prev[1] + CONTEXT + 1)
            prev[1] = Math.max(prev[1], b);
        else
            merged.push([a, b]);
    }
    const shown = merged.slice(0, REGIONS).map(([a, b]) => {
        const from = a - CONTEXT;
        const to = Math.min(b + CONTEXT, from + REGION_LINES - 1);
        const body = numbered(lines, from, to);
        return `${b + CONTEXT > to ? `${body.join('\n')}\n… (${n(b + CONTEXT - to)} more changed lines; read_file shows them)` : body.join('\n')}`;
    });
    const more = merged.length - shown.length;
    return [
        ...shown.flatMap((s, i) => (i ? ['…', s] : [s])),
        ...(more ? [`… and ${more} more changed region${more === 1 ? '' : 's'} (search for the new text to see them)`] : []),
    ].join('\n');
}
/** `text` with `oldString` at each offset replaced by `newString` (taken literally: no `$&`). */
function applyAt(text, at, oldString, newString) {
    let out = '';
    let from = 0;
    for (const o of at) {
        out += text.slice(from, o) + newString;
        from = o + oldString.length;
    }
    return out + text.slice(from);
}
const squash = (s) => s.replace(/\s+/g, '');
function pairs(s) {
    const m = new Map();
    for (let i = 0; i < s.length - 1; i++) {
        const p = s.slice(i, i + 2);
        m.set(p, (m.get(p) ?? 0) + 1);
    }
    return m;
}
/**
 * Similarity of two texts by their character pairs, spacing ignored: the mean of Sørensen–Dice
 * and the share of the wanted text's pairs the other holds (a short old_string inside a long line).
 */
function similarity(a, aSize, b) {
    const bs = squash(b);
    if (aSize === 0 || bs.length < 2)
        return 0;
    const bp = pairs(bs);
    let common = 0;
    for (const [p, c] of bp)
        common += Math.min(c, a.get(p) ?? 0);
    return ((2 * common) / (aSize + bs.length - 1) + common / aSize) / 2;
}
/** What a miss answers: the same text spaced differently, else the most similar run of lines, else a hint. */
function nearestMatch(path, text, oldString) {
    const lines = (0,file_window/* linesOf */.Dx)(text);
    const want = (0,file_window/* linesOf */.Dx)(oldString).filter((l, i, a) => l.trim() !== '' || (i > 0 && i < a.length - 1));
    const k = Math.max(1, want.length);
    const target = squash(want.join('\n'));
    const miss = `old_string was not found in ${path}.`;
    if (!target)
        return `${miss} It holds only white space; include the text you want to change.`;
    // Spacing aside: where the file without its white space holds the text without its own.
    const squashed = lines.map(squash);
    // ends[i]: where line i+1 ends in the squashed text, to find a character's line by binary search.
    const ends = [];
    for (const sq of squashed)
        ends.push((ends.at(-1) ?? 0) + sq.length);
    const lineOfChar = (at) => {
        let lo = 0;
        let hi = ends.length - 1;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (ends[mid] > at)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo + 1;
    };
    const found = squashed.join('').indexOf(target);
    if (found >= 0) {
        const a = lineOfChar(found);
        const b = lineOfChar(found + target.length - 1);
        return `${miss} The same text, spaced differently (indentation, spaces or line breaks), is at lines ${a}-${b}:\n${excerpt(lines, a, b)}\nCopy old_string from these lines exactly, white space included.`;
    }
    // The most similar run of k lines, within a bounded number of comparisons.
    const tp = pairs(target);
    const step = Math.max(1, Math.ceil((lines.length * k) / COMPARISONS));
    let best = { at: -1, score: 0 };
    for (let i = 0; i + k <= lines.length; i += step) {
        const score = similarity(tp, target.length - 1, lines.slice(i, i + k).join('\n'));
        if (score > best.score)
            best = { at: i, score };
    }
    if (best.at < 0 || best.score < SIMILAR)
        return `${miss} No part of the file is close to it: read the file (read_file) and copy the text exactly.`;
    return `${miss} The closest text (${Math.round(best.score * 100)}% alike) is at lines ${best.at + 1}-${best.at + k}:\n${excerpt(lines, best.at + 1 - (k === 1 ? 1 : 0), best.at + k + (k === 1 ? 1 : 0))}\nIf that is the place, copy old_string from it exactly, white space included.`;
}

// EXTERNAL MODULE: ./src/agents/bounded-tool.ts
var bounded_tool = __webpack_require__(10586);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __webpack_require__(38815);
// EXTERNAL MODULE: ./src/sandbox/own-programs.ts
var own_programs = __webpack_require__(30021);
;// CONCATENATED MODULE: ./src/agents/syntax-check.ts




const CHECK_MS = 10_000;
function runChecker(cmd, args, text) {
    return new Promise((resolve) => {
        if (!cmd)
            return resolve(undefined);
        const child = (0,external_node_child_process_.spawn)(cmd, args, { cwd: (0,external_node_os_.tmpdir)(), env: { PATH: (0,own_programs/* ownPath */.O4)() }, stdio: ['pipe', 'pipe', 'ignore'] });
        let out = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), CHECK_MS);
        child.stdout.on('data', (d) => void (out.length < 10_000 && (out += d.toString())));
        child.on('error', () => (clearTimeout(timer), resolve(undefined)));
        child.on('close', (code) => (clearTimeout(timer), resolve(code === 0 ? out : undefined)));
        child.stdin.on('error', () => undefined);
        child.stdin.end(text);
    });
}
function parsed(out) {
    if (out === undefined)
        return undefined;
    try {
        const r = JSON.parse(out);
        if (r.skip)
            return undefined;
        if (r.message === undefined)
            return { ok: true };
        return { ok: false, message: r.message, ...(typeof r.line === 'number' && r.line > 0 ? { line: r.line } : {}) };
    }
    catch {
        return undefined;
    }
}
/**
 * Run by crew's node with the text on stdin. A module first, then CommonJS (a function body, so a
 * top-level return parses): a file parses if either does; the module's error is the one told.
 * TypeScript has its types stripped first (the positions stay).
 */
const NODE_CHECK = String.raw `
const vm = require('node:vm');
const mod = require('node:module');
const kind = process.argv[1];
let src = require('node:fs').readFileSync(0, 'utf8');
const lineOf = (e) => { const m = /^[^\n]*?:(\d+)\r?\n/.exec(String(e && e.stack)); return m ? Number(m[1]) : null; };
const say = (o) => { process.stdout.write(JSON.stringify(o)); process.exit(0); };
if (kind === 'ts') {
  if (typeof mod.stripTypeScriptTypes !== 'function') say({ skip: true });
  try { src = mod.stripTypeScriptTypes(src); }
  catch (e) {
    if (e && e.code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX') { try { src = mod.stripTypeScriptTypes(src, { mode: 'transform' }); } catch (e2) { say({ line: lineOf(e2), message: String(e2.message) }); } }
    else say({ line: lineOf(e), message: String(e && e.message) });
  }
}
// A module first (node --check reads stdin and names the line), then CommonJS, wrapped in a function as node does.
const asModule = require('node:child_process').spawnSync(process.execPath, ['--no-warnings', '--check', '--input-type=module', '-'], { input: src, encoding: 'utf8', env: {}, timeout: 8000 });
if (kind !== 'cjs' && asModule.status === 0) say({});
try {
  new vm.Script('(function (exports, require, module, __filename, __dirname) {' + src + '\n})', { filename: 'file' });
  say({});
} catch (e) {
  if (kind === 'cjs') say({ line: lineOf(e), message: e.name + ': ' + e.message });
}
const err = String(asModule.stderr || '');
const line = /\[stdin\]:(\d+)/.exec(err);
const message = /^\w*Error: .*$/m.exec(err);
say({ line: line ? Number(line[1]) : null, message: message ? message[0] : err.trim().split('\n')[0] || 'does not parse' });
`;
const PYTHON_CHECK = [
    'import ast, json, sys',
    'try:',
    '    ast.parse(sys.stdin.buffer.read())',
    '    print("{}")',
    'except SyntaxError as e:',
    '    print(json.dumps({"line": e.lineno, "message": "%s: %s" % (type(e).__name__, e.msg)}))',
    'except (ValueError, RecursionError, MemoryError) as e:',
    '    print(json.dumps({"message": "%s: %s" % (type(e).__name__, e)}))',
].join('\n');
function nodeCheck(kind) {
    return async (text) => parsed(await runChecker(process.execPath, ['--no-warnings', '-e', NODE_CHECK, kind], text));
}
const json = {
    language: 'JSON',
    async check(text) {
        try {
            JSON.parse(text);
            return { ok: true };
        }
        catch (e) {
            const message = e.message;
            const at = /position (\d+)/.exec(message);
            const line = /line (\d+)/.exec(message)?.[1] ?? (at ? String(text.slice(0, Number(at[1])).split('\n').length) : undefined);
            return { ok: false, message: `SyntaxError: ${message}`, ...(line ? { line: Number(line) } : {}) };
        }
    },
};
const yaml = {
    language: 'YAML',
    async check(text) {
        const error = (0,dist.parseAllDocuments)(text)
            .flatMap((d) => ('errors' in d ? d.errors : []))
            .at(0);
        if (!error)
            return { ok: true };
        const line = error.linePos?.[0]?.line;
        return { ok: false, message: `${error.code}: ${error.message.split('\n')[0]}`, ...(line ? { line } : {}) };
    },
};
/** The check for a path's language, if crew has one. */
function syntaxCheckFor(path) {
    const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    if (path.lastIndexOf('.') < 0)
        return undefined;
    switch (ext) {
        case 'js':
        case 'mjs':
            return { language: 'JavaScript', check: nodeCheck('js') };
        case 'cjs':
            return { language: 'JavaScript', check: nodeCheck('cjs') };
        case 'ts':
        case 'mts':
        case 'cts':
            return { language: 'TypeScript', check: nodeCheck('ts') };
        case 'py':
        case 'pyi':
            return { language: 'Python', check: async (text) => parsed(await runChecker((0,own_programs/* ownProgram */.DX)('python3'), ['-I', '-S', '-c', PYTHON_CHECK], text)) };
        case 'json':
            return json;
        case 'yml':
        case 'yaml':
            return yaml;
        default:
            return undefined;
    }
}

;// CONCATENATED MODULE: ./src/agents/workspace-tools.ts







/** read_file reads files up to this size (it shows a window of them); a larger one is read with run_command. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const MAX_LIST = 500;
/** list_files answers with at most this many bytes of paths. */
const MAX_LIST_BYTES = 30_000;
const thousands = (x) => x.toLocaleString('en-US');
/**
 * Opens the file itself, never a link in its place (O_NOFOLLOW), and refuses a file with
 * other hard links: the path jail resolved every link already, so either would mean the
 * checkout changed under it.
 */
async function openNoFollow(file, flags) {
    const fh = await (0,promises_.open)(file, flags | external_node_fs_.constants.O_NOFOLLOW, 0o666).catch((e) => {
        if (e.code === 'ELOOP')
            throw new Error(`'${file}' became a symbolic link; crew does not follow it`);
        throw e;
    });
    const s = await fh.stat();
    if (!s.isFile() || s.nlink > 1) {
        await fh.close();
        throw new Error(s.isFile() ? `'${file}' has other hard links; crew does not change a file that is also elsewhere` : `'${file}' is not a regular file`);
    }
    return fh;
}
const readText = async (file) => (await readBytes(file)).toString('utf8');
/**
 * As root, crew writes for the sandbox's tool user too: run_command runs as that user, and
 * the workspace is opened to it at job start (sandbox/command-runner.ts). Files and folders
 * crew creates later get the same access, or the agent could not change them with a command.
 */
const forToolUser = () => process.getuid?.() === 0;
async function writeText(file, content) {
    const created = await (0,promises_.stat)(file).then(() => false, () => true);
    const fh = await openNoFollow(file, external_node_fs_.constants.O_WRONLY | external_node_fs_.constants.O_CREAT);
    try {
        await fh.truncate(0);
        await fh.writeFile(content);
        if (created && forToolUser())
            await fh.chmod(0o666);
    }
    finally {
        await fh.close();
    }
}
/** Creates the folders of a path; as root, new ones are opened to the tool user like the rest of the workspace. */
async function makeFolders(dir) {
    const first = await (0,promises_.mkdir)(dir, { recursive: true });
    if (!first || !forToolUser())
        return;
    for (let d = dir;; d = (0,external_node_path_.dirname)(d)) {
        await (0,promises_.chmod)(d, 0o777);
        if (d === first || d === (0,external_node_path_.dirname)(d))
            break;
    }
}
function obj(input) {
    if (typeof input !== 'object' || input === null || Array.isArray(input))
        throw new Error('the tool input must be a JSON object');
    return input;
}
function str(input, key) {
    const v = input[key];
    if (typeof v !== 'string')
        throw new Error(`'${key}' must be a string`);
    return v;
}
/** The file tools every worker gets: list, read, write and edit, all inside the path jail. */
function workspaceTools(jail, onWrite) {
    return [listFilesTool(jail), readFileTool(jail), writeFileTool(jail, onWrite), editFileTool(jail, onWrite)].map(bounded_tool/* bounded */.M);
}
/** list_files: the paths under a folder, sorted, within a count and a size. */
function listFilesTool(jail) {
    return {
        spec: {
            name: 'list_files',
            description: `List the files under a folder of the repository, recursively, one path a line (from the repository root, sorted), skipping .git and node_modules. Use it to find your way around; use search to find files by their contents. Stops at ${MAX_LIST} files or ${thousands(MAX_LIST_BYTES)} bytes and says so: then list a sub-folder.`,
            input_schema: {
                type: 'object',
                properties: { path: { type: 'string', description: "Folder relative to the repository root; '.' (the default) for all" } },
            },
        },
        async run(input) {
            const i = obj(input ?? {});
            const dir = jail.forRead(i.path ?? '.');
            const out = [];
            let bytes = 0;
            let full = false;
            const walk = async (d) => {
                for (const e of (await (0,promises_.readdir)(d, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
                    if (full || out.length >= MAX_LIST)
                        return;
                    if (e.name === '.git' || e.name === 'node_modules')
                        continue;
                    const at = (0,external_node_path_.join)(d, e.name);
                    if (e.isDirectory())
                        await walk(at);
                    else {
                        const path = (0,external_node_path_.relative)(jail.rootDir, at);
                        if (bytes + Buffer.byteLength(path) + 1 > MAX_LIST_BYTES)
                            full = true;
                        else
                            (out.push(path), (bytes += Buffer.byteLength(path) + 1));
                    }
                }
            };
            const s = await (0,promises_.stat)(dir).catch(() => undefined);
            if (!s)
                throw new Error(`'${String(i.path ?? '.')}' does not exist`);
            if (!s.isDirectory())
                return (0,external_node_path_.relative)(jail.rootDir, dir);
            await walk(dir);
            return full || out.length >= MAX_LIST
                ? `${out.join('\n')}\n(listing stopped at ${out.length} files, the limit of ${MAX_LIST} files or ${thousands(MAX_LIST_BYTES)} bytes; list a sub-folder)`
                : out.join('\n') || '(empty folder)';
        },
    };
}
/** read_file: a numbered window of a text file, with an outline of a large source file. */
function readFileTool(jail) {
    return {
        spec: {
            name: 'read_file',
            description: [
                'Read a text file of the repository. Returns a header "<path>: lines a-b of N" and the lines, each numbered (the number, a tab, the line); the numbers are the file\'s own, 1-based, as `path:line` citations count them.',
                `A window holds at most ${thousands(file_window/* WINDOW_LINES */.n3)} lines or ${thousands(file_window/* WINDOW_BYTES */.pe)} bytes, whichever comes first; the header says where to start_line next to read on. Lines over ${thousands(file_window/* LINE_CHARS */.Dl)} characters are cut, with a note.`,
                'The first read of a source file too large for one window (TypeScript/JavaScript, Python, Go, Rust, Ruby, Java/Kotlin/C#; Markdown by its headings) also shows an outline of its definitions with their line numbers: page to the part you need with start_line and limit.',
                'Use it to read before you edit, and to see the lines a search found (start_line a little above them).',
            ].join(' '),
            input_schema: {
                type: 'object',
                properties: {
                    path: { type: 'string', description: 'File path relative to the repository root.' },
                    start_line: { type: 'integer', minimum: 1, description: 'First line to show (1-based); 1 by default.' },
                    limit: { type: 'integer', minimum: 1, description: `How many lines to show; ${thousands(file_window/* WINDOW_LINES */.n3)} (the most) by default.` },
                    end_line: { type: 'integer', minimum: 1, description: 'Last line to show (inclusive), instead of limit.' },
                },
                required: ['path'],
            },
        },
        async run(input) {
            const i = obj(input);
            const path = str(i, 'path');
            const file = jail.forRead(path);
            const s = await (0,promises_.stat)(file).catch(() => undefined);
            if (!s)
                throw new Error(`'${path}' does not exist`);
            if (s.isDirectory())
                throw new Error(`'${path}' is a folder; use list_files`);
            const start = optionalLine(i, 'start_line');
            const end = optionalLine(i, 'end_line');
            const limit = optionalLine(i, 'limit');
            if (s.size > MAX_FILE_BYTES)
                throw new Error(`'${path}' is ${thousands(s.size)} bytes, over the ${thousands(MAX_FILE_BYTES)} read_file reads; look at parts of it with run_command (grep -n, sed -n 'A,Bp')`);
            const buf = await readBytes(file);
            if (buf.subarray(0, 8000).includes(0))
                return `${path} is a binary file (${thousands(buf.length)} bytes); read_file shows text files only`;
            if (end !== undefined && end < (start ?? 1))
                throw new Error(`end_line ${end} is before start_line ${start ?? 1}`);
            const count = limit ?? (end !== undefined ? end - (start ?? 1) + 1 : undefined);
            return (0,file_window/* fileWindow */.n2)((0,external_node_path_.relative)(jail.rootDir, file), buf.toString('utf8'), {
                ...(start !== undefined ? { start } : {}),
                ...(count !== undefined ? { limit: count } : {}),
            });
        },
    };
}
/** write_file: a new or replaced file, with a syntax check of what it brought. */
function writeFileTool(jail, onWrite) {
    return {
        spec: {
            name: 'write_file',
            description: 'Create a file, or replace a whole file, with the given content; folders are made as needed. Use it for new files; change an existing file with edit_file, which keeps the rest of it. Returns the number of lines written, and for JavaScript, TypeScript, Python, JSON and YAML a syntax error the new content brought (one the file had before is not reported).',
            input_schema: {
                type: 'object',
                properties: {
                    path: { type: 'string', description: 'File path relative to the repository root.' },
                    content: { type: 'string', description: 'The whole new content.' },
                },
                required: ['path', 'content'],
            },
        },
        async run(input) {
            const i = obj(input);
            const file = jail.forWrite(str(i, 'path'));
            const content = str(i, 'content');
            const before = await readText(file).catch(() => undefined);
            await makeFolders((0,external_node_path_.dirname)(file));
            await writeText(file, content);
            const path = (0,external_node_path_.relative)(jail.rootDir, file);
            onWrite(path);
            return `wrote ${path} (${lineCount((0,file_window/* linesOf */.Dx)(content).length)})${await syntaxNote(path, before, content)}`;
        },
    };
}
/** edit_file: one (or every) occurrence replaced, answered with the changed lines or the nearest match. */
function editFileTool(jail, onWrite) {
    return {
        spec: {
            name: 'edit_file',
            description: [
                'Change an existing file: replace old_string, which must occur exactly once (white space included), with new_string; or every occurrence with replace_all. Use it for every change to a file that exists; write_file is for new files.',
                'Copy old_string from what read_file showed, without the line numbers, with enough lines around the change to be unique.',
                'Returns the changed lines, numbered, with 3 lines around them. When old_string is not found, the answer shows the nearest text in the file (the same text spaced differently, or the most similar lines) with its line numbers; when it occurs more than once, the line of each.',
                'For JavaScript, TypeScript, Python, JSON and YAML files the answer also says whether the edit broke the syntax (only errors the edit brought; the edit is kept, so fix it with another edit).',
            ].join(' '),
            input_schema: {
                type: 'object',
                properties: {
                    path: { type: 'string', description: 'File path relative to the repository root.' },
                    old_string: { type: 'string', description: 'The exact text to replace.' },
                    new_string: { type: 'string', description: 'The text to put in its place.' },
                    replace_all: { type: 'boolean', description: 'Replace every occurrence of old_string (default false: it must occur once).' },
                },
                required: ['path', 'old_string', 'new_string'],
            },
        },
        async run(input) {
            const i = obj(input);
            const file = jail.forWrite(str(i, 'path'));
            const oldString = str(i, 'old_string');
            const newString = str(i, 'new_string');
            if (i.replace_all !== undefined && typeof i.replace_all !== 'boolean')
                throw new Error("'replace_all' must be true or false");
            if (oldString === '')
                throw new Error('old_string is empty; use write_file to create a file');
            const text = await readText(file).catch((e) => {
                throw e.code === 'ENOENT' ? new Error(`'${str(i, 'path')}' does not exist; use write_file to create it`) : e;
            });
            const path = (0,external_node_path_.relative)(jail.rootDir, file);
            const at = occurrences(text, oldString);
            if (at.length === 0)
                throw new Error(nearestMatch(path, text, oldString));
            if (at.length > 1 && i.replace_all !== true)
                throw new Error(severalMatches(path, text, at));
            if (oldString === newString)
                throw new Error('old_string and new_string are the same; nothing to change');
            const edited = applyAt(text, at, oldString, newString);
            await writeText(file, edited);
            onWrite(path);
            const what = at.length === 1 ? 'replaced 1 occurrence' : `replaced all ${at.length} occurrences`;
            return `edited ${path}: ${what}; it has ${lineCount((0,file_window/* linesOf */.Dx)(edited).length)} now. The changed lines:\n${changedRegions(text, at, oldString, newString)}${await syntaxNote(path, text, edited)}`;
        },
    };
}
/** An optional positive line number of the input, or a message naming the field. */
function optionalLine(input, key) {
    const v = input[key];
    if (v === undefined)
        return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
        throw new Error(`'${key}' must be a whole number from 1`);
    return v;
}
async function readBytes(file) {
    const fh = await openNoFollow(file, external_node_fs_.constants.O_RDONLY);
    try {
        return await fh.readFile();
    }
    finally {
        await fh.close();
    }
}
/**
 * The syntax check after a write: a note when the new text does not parse and the old one did
 * (or there was none), so only errors the change brought are told; '' otherwise.
 */
async function syntaxNote(path, before, after) {
    const check = syntaxCheckFor(path);
    if (!check)
        return '';
    const now = await check.check(after);
    if (!now || now.ok)
        return '';
    const was = before === undefined ? undefined : await check.check(before);
    if (was && !was.ok)
        return '';
    const message = now.message.split('\n')[0].slice(0, 300);
    const at = now.line ? `line ${now.line}: ` : '';
    const shown = now.line ? `\n${numbered((0,file_window/* linesOf */.Dx)(after), now.line - 1, now.line + 1).join('\n')}` : '';
    return `\n\nSyntax check (${check.language}): the file no longer parses after this change: ${at}${message}${shown}\nThe change was kept; fix it with another edit.`;
}
/** "1 line", "12 lines". */
function lineCount(n) {
    return `${n} ${n === 1 ? 'line' : 'lines'}`;
}


/***/ }),

/***/ 97112:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   e: () => (/* binding */ checkCommand)
/* harmony export */ });
/* unused harmony export commandSegments */
/**
 * The allow and deny lists for run_command. A seatbelt, not a boundary: a script the
 * model writes and then runs (`npm test`) gets past any list, which is why commands
 * also run in the sandbox. Pure.
 */
/** The simple commands inside a shell line: split on ; && || | & newlines and command substitution. */
function commandSegments(command) {
    return command
        .replace(/\$\(|`|\)/g, ';')
        .split(/;|&&|\|\||\||&|\n/)
        .map((s) => s.trim().replace(/\s+/g, ' '))
        .map((s) => s.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, '')) // leading VAR=value assignments
        .map((s) => s.replace(/^(?:exec|command|nohup|time|env)\s+/, ''))
        .filter(Boolean);
}
function startsWithWord(segment, prefix) {
    const p = prefix.trim().replace(/\s+/g, ' ');
    return segment === p || segment.startsWith(`${p} `) || segment.startsWith(`${p}/`) || segment.endsWith(`/${p}`) || segment.includes(`/${p} `);
}
function checkCommand(command, policy) {
    if (!command.trim())
        return { ok: false, reason: 'the command is empty' };
    const segments = commandSegments(command);
    for (const seg of segments) {
        const denied = policy.deny.find((d) => startsWithWord(seg, d));
        if (denied)
            return { ok: false, reason: `'${seg}' is denied by the command policy (matches '${denied}')` };
    }
    if (policy.allow.length) {
        const stray = segments.find((seg) => !policy.allow.some((a) => startsWithWord(seg, a)));
        if (stray)
            return { ok: false, reason: `'${stray}' is not on the allowed list (${policy.allow.join(', ')})` };
    }
    return { ok: true };
}


/***/ }),

/***/ 32822:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   kw: () => (/* binding */ definitionLanguage),
/* harmony export */   rY: () => (/* binding */ definitionIn)
/* harmony export */ });
/* unused harmony export DEFINITION_LANGUAGES */
const JS_NAME = '([A-Za-z_$][\\w$]*)';
const DEFINITION_LANGUAGES = [
    {
        language: 'TypeScript/JavaScript',
        extensions: ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'],
        patterns: [
            new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:async\\s+)?function\\s*\\*?\\s*${JS_NAME}`),
            new RegExp(`^\\s*(?:export\\s+)?(?:default\\s+)?(?:declare\\s+)?(?:abstract\\s+)?class\\s+${JS_NAME}`),
            new RegExp(`^\\s*(?:export\\s+)?(?:declare\\s+)?(?:const\\s+)?(?:interface|type|enum|namespace)\\s+${JS_NAME}`),
            new RegExp(`^\\s*export\\s+(?:declare\\s+)?(?:const|let|var)\\s+${JS_NAME}`),
            new RegExp(`^(?:const|let|var)\\s+${JS_NAME}\\s*(?::[^=]+)?=\\s*(?:async\\s+)?(?:function\\b|\\([^)]*\\)\\s*(?::[^=]+)?=>|[A-Za-z_$][\\w$]*\\s*=>)`),
            /^(?:const|let|var)\s+([A-Z][\w$]*)\s*(?::[^=]+)?=/,
            // A method in a class body: indented name, parameters, an opening brace; not a keyword.
            /^\s+(?:(?:public|private|protected|static|readonly|override|abstract|async|get|set)\s+)*(?!(?:if|for|while|switch|catch|return|function|else|do|try|with)\b)([\w$]+)\s*(?:<[^>]*>)?\([^;]*\)\s*(?::\s*[^={;]+)?\{\s*$/,
        ],
    },
    {
        language: 'Python',
        extensions: ['py', 'pyi'],
        patterns: [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/, /^\s*class\s+([A-Za-z_]\w*)/, /^([A-Z][A-Z0-9_]+)\s*(?::[^=]+)?=/],
    },
    {
        language: 'Go',
        extensions: ['go'],
        patterns: [
            /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
            /^type\s+([A-Za-z_]\w*)/,
            /^\s+([A-Z]\w*)\s+(?:struct|interface)\b/,
            /^(?:var|const)\s+([A-Za-z_]\w*)/,
        ],
    },
    {
        language: 'Rust',
        extensions: ['rs'],
        patterns: [
            /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_]\w*)/,
            /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait|union|type|mod)\s+([A-Za-z_]\w*)/,
            /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+([A-Z_][A-Z0-9_]*)/,
            /^\s*macro_rules!\s*([A-Za-z_]\w*)/,
            /^\s*(?:unsafe\s+)?impl\b/,
        ],
    },
    {
        language: 'Ruby',
        extensions: ['rb'],
        patterns: [/^\s*def\s+(?:self\.)?([\w.?!=]+)/, /^\s*(?:class|module)\s+([A-Z]\w*)/],
    },
    {
        language: 'Java/Kotlin/C#',
        extensions: ['java', 'kt', 'kts', 'cs'],
        patterns: [
            /^\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|data|partial)\s+)*(?:class|interface|enum|record|object|struct)\s+(\w+)/,
            /^\s*(?:(?:public|private|protected|internal|static|final|abstract|override|suspend|async|virtual|synchronized)\s+)+[\w<>[\],.? ]*?\s*(\w+)\s*\([^;]*$/,
            /^\s*(?:(?:private|public|internal|override|suspend)\s+)*fun\s+(?:<[^(]*>\s*)?([\w.]+)/,
        ],
    },
    {
        language: 'Markdown',
        extensions: ['md', 'markdown', 'mdx'],
        patterns: [/^#{1,6}\s+(\S.*)/],
        headings: true,
    },
];
/** The table's entry for a path, by its extension; undefined for a language crew does not read. */
function definitionLanguage(path) {
    const base = path.slice(path.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    if (dot < 0)
        return undefined;
    const ext = base.slice(dot + 1).toLowerCase();
    return DEFINITION_LANGUAGES.find((d) => d.extensions.includes(ext));
}
/** Whether a line defines something, and the name it defines when it names one (the first pattern that matches decides). */
function definitionIn(language, line) {
    for (const p of language.patterns) {
        const m = p.exec(line);
        if (m)
            return m[1] ? { name: m[1] } : {};
    }
    return undefined;
}


/***/ }),

/***/ 36447:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Dl: () => (/* binding */ LINE_CHARS),
  pe: () => (/* binding */ WINDOW_BYTES),
  n3: () => (/* binding */ WINDOW_LINES),
  n2: () => (/* binding */ fileWindow),
  Dx: () => (/* binding */ linesOf)
});

// EXTERNAL MODULE: ./src/domain/definitions.ts
var definitions = __webpack_require__(32822);
;// CONCATENATED MODULE: ./src/domain/outline.ts

/**
 * An outline of a source file: its definitions (functions, classes, types, methods) with their
 * line numbers, found by the patterns per language of definitions.ts. read_file shows it with the first
 * window of a file too large to show whole, so the model can page to what it needs. Not a
 * parser: a definition written unusually may be missed, and that costs only a page turn.
 */
/** Definitions shown at most, and bytes. */
const OUTLINE_ENTRIES = 200;
const OUTLINE_BYTES = 8000;
const ENTRY_CHARS = 120;
/** The outline of a file as lines `  <line>: <the definition line>`, capped; undefined for a language crew does not know. */
function outline(path, lines) {
    const defs = (0,definitions/* definitionLanguage */.kw)(path);
    if (!defs)
        return undefined;
    const { language } = defs;
    const width = String(lines.length).length;
    const entries = [];
    let found = 0;
    let bytes = 0;
    // A `# comment` inside a fenced code block of a Markdown file is not a heading.
    let fenced = false;
    for (const [i, line] of lines.entries()) {
        if (defs.headings && /^\s*(?:```|~~~)/.test(line))
            fenced = !fenced;
        if (fenced || line.length > 1000 || !(0,definitions/* definitionIn */.rY)(defs, line))
            continue;
        found++;
        const indent = Math.min(line.length - line.trimStart().length, 8);
        const text = line.trim();
        const entry = `${String(i + 1).padStart(width)}: ${' '.repeat(indent)}${text.length > ENTRY_CHARS ? `${text.slice(0, ENTRY_CHARS)}…` : text}`;
        if (entries.length < OUTLINE_ENTRIES && bytes + entry.length + 1 <= OUTLINE_BYTES) {
            entries.push(entry);
            bytes += Buffer.byteLength(entry) + 1;
        }
    }
    if (!found)
        return undefined;
    const more = found - entries.length;
    return [
        `Outline of the file (${defs.headings ? `${language} headings` : `${language} definitions found by pattern`}, line: text):`,
        ...entries,
        ...(more ? [`… ${more} more definitions; search for a name to find its line.`] : []),
    ].join('\n');
}

;// CONCATENATED MODULE: ./src/domain/file-window.ts
/**
 * A window of a text file as read_file shows it: numbered lines (1-based, as the critic's
 * citations count them in domain/citations.ts), a header saying "lines a-b of N" and how to read
 * on, long lines cut with a note, and for a file too large to show whole, an outline of its
 * definitions with the first window. Pure.
 */

/** A window holds at most this many lines, and this many bytes of numbered text, whichever comes first. */
const WINDOW_LINES = 2000;
const WINDOW_BYTES = 25_000;
/** A longer line is cut, with a note. */
const LINE_CHARS = 2000;
const n = (x) => x.toLocaleString('en-US');
/** The lines of a text as the citations count them: a final newline ends the last line, it does not start another. */
function linesOf(text) {
    if (text === '')
        return [];
    return text.replace(/\r?\n$/, '').split('\n');
}
/** The numbered window of `text` the request asks for, with its header; an error message (thrown) for a start past the end. */
function fileWindow(path, text, req = {}) {
    const lines = linesOf(text);
    const total = lines.length;
    if (!total)
        return `${path}: the file is empty`;
    const start = req.start ?? 1;
    if (start > total)
        throw new Error(`start_line ${start} is past the end: ${path} has ${n(total)} line${total === 1 ? '' : 's'}`);
    const want = Math.min(req.limit ?? WINDOW_LINES, WINDOW_LINES);
    const last = Math.min(total, start + want - 1);
    const width = String(last).length;
    const shown = [];
    let bytes = 0;
    let cutLines = 0;
    for (let i = start; i <= last; i++) {
        let line = lines[i - 1].replace(/\r$/, '');
        if (line.length > LINE_CHARS) {
            line = `${line.slice(0, LINE_CHARS)}… [line cut: ${n(LINE_CHARS)} of ${n(line.length)} characters shown]`;
            cutLines++;
        }
        const entry = `${String(i).padStart(width)}\t${line}`;
        const size = Buffer.byteLength(entry) + 1;
        if (shown.length && bytes + size > WINDOW_BYTES)
            break;
        shown.push(entry);
        bytes += size;
    }
    const end = start + shown.length - 1;
    const whole = start === 1 && end === total;
    const stoppedByBytes = end < last;
    const header = whole
        ? `${path}: lines 1-${n(total)} of ${n(total)} (the whole file)`
        : `${path}: lines ${start}-${end} of ${n(total)}${stoppedByBytes ? ` (the window stops at ${n(WINDOW_BYTES)} bytes)` : ''}.${end < total ? ` To read on, call read_file with start_line ${end + 1}.` : ''}`;
    const notes = cutLines
        ? [
            `(${cutLines} line${cutLines === 1 ? ' was' : 's were'} longer than ${n(LINE_CHARS)} characters and cut: use run_command with cut or sed to see the rest)`,
        ]
        : [];
    // The outline comes with a first look at a file that does not fit, so the model can page to what it needs.
    const map = !whole && req.start === undefined ? outline(path, lines) : undefined;
    return [header, ...(map ? [map, ''] : []), ...shown, ...notes].join('\n');
}


/***/ }),

/***/ 33306:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   a: () => (/* binding */ OutputKeeper),
/* harmony export */   m: () => (/* binding */ keepEnds)
/* harmony export */ });
/**
 * Long output kept as its head and its tail, streamed: a bounded head, a ring of the latest
 * chunks for the tail, and a count of everything in between. A test run's failures and totals
 * come last, its command line and set-up first; the middle is what can go. Pure: the caller
 * feeds the chunks.
 */
/** Of a cap, the share kept from the head; the tail gets the rest (it holds the verdict). */
const HEAD_SHARE = 1 / 3;
const NEWLINE = 0x0a;
function countLines(buf) {
    let n = 0;
    for (let at = buf.indexOf(NEWLINE); at >= 0; at = buf.indexOf(NEWLINE, at + 1))
        n++;
    return n;
}
/** Lines of a text as people count them: a last line without a newline counts too. */
const linesOf = (bytes, newlines, endsWithNewline) => (bytes === 0 ? 0 : newlines + (endsWithNewline ? 0 : 1));
class OutputKeeper {
    headMax;
    tailMax;
    head = [];
    headSize = 0;
    tail = [];
    tailSize = 0;
    bytes = 0;
    newlines = 0;
    last = 0;
    /** `max`: bytes of output kept in all, a third from the head and the rest from the tail. */
    constructor(max) {
        this.headMax = Math.floor(max * HEAD_SHARE);
        this.tailMax = max - this.headMax;
    }
    push(chunk) {
        let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        if (!buf.length)
            return;
        this.bytes += buf.length;
        this.newlines += countLines(buf);
        this.last = buf[buf.length - 1];
        if (this.headSize < this.headMax) {
            const take = buf.subarray(0, this.headMax - this.headSize);
            this.head.push(take);
            this.headSize += take.length;
            buf = buf.subarray(take.length);
            if (!buf.length)
                return;
        }
        this.tail.push(buf);
        this.tailSize += buf.length;
        // Drop whole chunks from the front while what stays still covers the tail.
        while (this.tail.length > 1 && this.tailSize - this.tail[0].length >= this.tailMax)
            this.tailSize -= this.tail.shift().length;
    }
    /** Everything kept, with one note where the middle was cut, saying exactly how much. */
    result() {
        const head = Buffer.concat(this.head);
        let tail = Buffer.concat(this.tail);
        const lines = linesOf(this.bytes, this.newlines, this.last === NEWLINE);
        if (this.bytes <= this.headMax + this.tailMax)
            return { text: Buffer.concat([head, tail]).toString('utf8'), bytes: this.bytes, lines };
        tail = tail.subarray(Math.max(0, tail.length - this.tailMax));
        // Cut at line ends, so no line (and no UTF-8 character) is shown in part.
        const headEnd = head.lastIndexOf(NEWLINE);
        const keptHead = headEnd >= 0 ? head.subarray(0, headEnd + 1) : head;
        const tailStart = tail.indexOf(NEWLINE);
        const keptTail = tailStart >= 0 && tailStart < tail.length - 1 ? tail.subarray(tailStart + 1) : tail;
        const cutBytes = this.bytes - keptHead.length - keptTail.length;
        const cutLines = this.newlines - countLines(keptHead) - countLines(keptTail);
        const shownHead = countLines(keptHead);
        const shownTail = lines - shownHead - cutLines;
        const note = `…[${cutLines.toLocaleString('en-US')} lines (${cutBytes.toLocaleString('en-US')} bytes) cut from the middle: ` +
            `the output had ${lines.toLocaleString('en-US')} lines (${this.bytes.toLocaleString('en-US')} bytes); ` +
            `shown are the first ${shownHead.toLocaleString('en-US')} and the last ${shownTail.toLocaleString('en-US')}]…\n`;
        return {
            text: `${keptHead.toString('utf8')}${keptHead.length && !keptHead.toString('utf8').endsWith('\n') ? '\n' : ''}${note}${keptTail.toString('utf8')}`,
            bytes: this.bytes,
            lines,
            cut: { bytes: cutBytes, lines: cutLines },
        };
    }
}
/** A whole text kept the same way: its head and its tail within `max` bytes. */
function keepEnds(text, max) {
    const k = new OutputKeeper(max);
    k.push(text);
    return k.result();
}


/***/ }),

/***/ 76872:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   F: () => (/* binding */ KNOWLEDGE_TYPES)
/* harmony export */ });
/** The knowledge base's entries (endless8's knowledge types): what a run learned, for later workers. */
const KNOWLEDGE_TYPES = ['discovery', 'lesson', 'pattern', 'constraint', 'codebase'];


/***/ }),

/***/ 93581:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Sc: () => (/* binding */ parseKnowledge),
/* harmony export */   a7: () => (/* binding */ knowledgeLines),
/* harmony export */   jC: () => (/* binding */ KNOWLEDGE_PATH)
/* harmony export */ });
/* harmony import */ var _domain_knowledge__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(76872);
/**
 * The knowledge base: `.github/crew/knowledge.jsonl` on the default branch, one entry
 * a line (endless8's knowledge types). Workers read the newest entries at the start of
 * every task. A malformed line is skipped and reported, never fatal.
 */


const KNOWLEDGE_PATH = '.github/crew/knowledge.jsonl';
function parseKnowledge(text) {
    const entries = [];
    const problems = [];
    for (const [i, line] of (text ?? '').split('\n').entries()) {
        if (!line.trim())
            continue;
        try {
            const e = JSON.parse(line);
            if (!_domain_knowledge__WEBPACK_IMPORTED_MODULE_0__/* .KNOWLEDGE_TYPES */ .F.includes(e.type) || typeof e.content !== 'string' || !e.content.trim())
                throw new Error('needs a known type and a content string');
            entries.push({
                type: e.type,
                content: e.content,
                source: String(e.source ?? ''),
                confidence: Number(e.confidence ?? 0.5),
                created_at: String(e.created_at ?? ''),
            });
        }
        catch (err) {
            problems.push(`${KNOWLEDGE_PATH} line ${i + 1}: ${err.message}; skipped`);
        }
    }
    return { entries, problems };
}
/** The newest `limit` entries, as one line each for a prompt. */
function knowledgeLines(entries, limit) {
    return [...entries]
        .sort((a, b) => b.created_at.localeCompare(a.created_at))
        .slice(0, limit)
        .map((e) => `[${e.type}] ${e.content}`);
}


/***/ }),

/***/ 82649:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   M: () => (/* binding */ claimReadyTasks)
/* harmony export */ });
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(65534);
/* harmony import */ var _domain_attempts__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(26296);
/* harmony import */ var _run_files__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(24742);



/**
 * Claims the tasks that may start now, up to `maxParallel` running at once, and
 * marks tasks whose dependencies failed as blocked. Runs inside a state update, so
 * two jobs can never claim the same task.
 */
function claimReadyTasks(tx, issue, run, maxParallel, claim, now = claim.at) {
    const view = (0,_run_files__WEBPACK_IMPORTED_MODULE_1__/* .readView */ .Ml)(tx, issue, run);
    if (!view || view.run.phase !== 'EXECUTING')
        return [];
    for (const id of (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .blockedTasks */ .vM)(view)) {
        const rec = view.tasks.get(id);
        (0,_run_files__WEBPACK_IMPORTED_MODULE_1__/* .writeTask */ .bN)(tx, issue, run, { ...rec, status: 'blocked', finishedAt: now, error: 'a task it depends on did not succeed' });
    }
    let slots = Math.max(0, maxParallel - (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .runningCount */ .t5)(view));
    const claimed = [];
    for (const id of (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .readyTasks */ .aZ)(view)) {
        const rec = view.tasks.get(id);
        // Parallel attempts recorded under its claim (#50), every one (the judging stopped: one leg judges them) or some (a
        // cancel or a budget's stop came between: the legs still missing run): kept, under the same attempt number, as
        // no worker started for it (a retry of a failed judging included). A leg still to run takes a slot.
        if ((0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .keepsCandidates */ .V1)(rec)) {
            // (max_parallel lowered since: never more than it allows, or the task could never start.)
            const legs = Math.min((0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .attemptsToRun */ .LU)(rec).length, maxParallel);
            if (legs > slots)
                break;
            slots -= legs;
            claimed.push(id);
            (0,_run_files__WEBPACK_IMPORTED_MODULE_1__/* .writeTask */ .bN)(tx, issue, run, { ...rec, status: 'running', claim, startedAt: now });
            continue;
        }
        // Each parallel attempt (#50) is a leg of its own and takes a slot; a task waits for all of its slots.
        const task = view.plan?.tasks.find((t) => t.id === id);
        const legs = (0,_domain_attempts__WEBPACK_IMPORTED_MODULE_2__/* .attemptsFor */ .mh)(view.run.attempts, task, rec.selection !== undefined, maxParallel);
        // What was asked for, max_parallel aside: said in the plan comment when it is more than can run at once.
        const asked = (0,_domain_attempts__WEBPACK_IMPORTED_MODULE_2__/* .attemptsFor */ .mh)(view.run.attempts, task, rec.selection !== undefined, _domain_attempts__WEBPACK_IMPORTED_MODULE_2__/* .MAX_PARALLEL_ATTEMPTS */ .w3);
        if (legs > slots)
            break;
        slots -= legs;
        claimed.push(id);
        // Started from pending: a new allowance of attempts, with the task budgets whole again.
        (0,_run_files__WEBPACK_IMPORTED_MODULE_1__/* .writeTask */ .bN)(tx, issue, run, {
            ...rec,
            candidates: undefined,
            status: 'running',
            attempts: rec.attempts + 1,
            claim,
            startedAt: now,
            spent: _domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .NOTHING_SPENT */ .zx,
            ...(legs > 1 ? { parallel: legs } : { parallel: undefined }),
            attemptsAsked: asked > legs ? asked : undefined,
        });
    }
    if (claimed.length || (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_0__/* .blockedTasks */ .vM)(view).length) {
        (0,_run_files__WEBPACK_IMPORTED_MODULE_1__/* .writeRun */ .bp)(tx, view.run, now);
        (0,_run_files__WEBPACK_IMPORTED_MODULE_1__/* .refreshExecutionLog */ .qm)(tx, issue, run);
    }
    return claimed;
}


/***/ }),

/***/ 88098:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  U: () => (/* binding */ promptWithInstructions)
});

;// CONCATENATED MODULE: ./src/domain/agent-instructions.ts
/**
 * The repository's own instructions for agents (CLAUDE.md, AGENTS.md, GitHub Copilot's
 * instructions file), read from the run's base commit and added to the planner's, the
 * workers' and the critic's system prompts (#19 §5). Which files, in which order, and how
 * much of them: pure, so the reading stays in steps/.
 */
/** Files an agent convention may live in, in any folder. */
const INSTRUCTION_NAMES = ['CLAUDE.md', 'AGENTS.md'];
/** Only at the root: GitHub Copilot's repository instructions. */
const ROOT_ONLY = ['.github/copilot-instructions.md'];
/** All the files together get at most this many characters; each file at most half of it. */
const INSTRUCTIONS_CHARS = 16_000;
/** The root files, in the order they are shown. */
function rootInstructionPaths() {
    return [...INSTRUCTION_NAMES, ...ROOT_ONLY];
}
/**
 * For each path a task plans to touch, the folders above it, nearest first and the root left
 * out (the root files are always read). A planned path may be a folder or a glob: only the part
 * before the first wildcard counts.
 */
function foldersAbove(planned) {
    const literal = planned.split(/[*?[{]/)[0].replace(/\\/g, '/');
    const parts = literal.split('/').filter((p) => p && p !== '.');
    // A path ending in "/" (or a glob's folder) names a folder; otherwise the last part is a file.
    const dirs = literal.endsWith('/') || planned !== literal ? parts : parts.slice(0, -1);
    const out = [];
    for (let i = dirs.length; i > 0; i--)
        out.push(dirs.slice(0, i).join('/'));
    return out;
}
/**
 * The instruction files to read for a task: the root ones, then for each planned path the
 * nearest folder above it that holds one (both names, when both are there). `exists` answers
 * for a path at the base commit.
 */
async function instructionPaths(planned, exists) {
    const chosen = [];
    for (const p of rootInstructionPaths())
        if (await exists(p))
            chosen.push(p);
    const seenFolders = new Set();
    for (const path of planned) {
        for (const folder of foldersAbove(path)) {
            if (seenFolders.has(folder))
                break;
            seenFolders.add(folder);
            const here = [];
            for (const name of INSTRUCTION_NAMES)
                if (await exists(`${folder}/${name}`))
                    here.push(`${folder}/${name}`);
            if (here.length) {
                chosen.push(...here.filter((h) => !chosen.includes(h)));
                break;
            }
        }
    }
    return chosen;
}
/**
 * The system prompt's section: each file under its path, already sanitised by the caller, cut
 * to the budget with a note that says so, so the agent knows it did not see everything.
 */
function instructionsSection(files, maxChars = INSTRUCTIONS_CHARS) {
    const kept = files.filter((f) => f.text.trim());
    if (!kept.length)
        return '';
    const perFile = Math.floor(maxChars / 2);
    let left = maxChars;
    const parts = [
        "## The repository's instructions for agents",
        'The maintainers keep these files for coding agents. Follow them where they do not conflict with your task or with crew’s rules above.',
    ];
    for (const f of kept) {
        const room = Math.min(perFile, left);
        if (room <= 0) {
            parts.push(`\n### ${f.path}\n[left out: the instructions above used the ${maxChars.toLocaleString('en-US')} characters crew gives them]`);
            continue;
        }
        const text = f.text.length > room
            ? `${f.text.slice(0, room)}\n[cut: ${f.path} has ${f.text.length.toLocaleString('en-US')} characters; the first ${room.toLocaleString('en-US')} are shown]`
            : f.text;
        left -= Math.min(f.text.length, room);
        parts.push(`\n### ${f.path}\n${text}`);
    }
    return parts.join('\n');
}

// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
;// CONCATENATED MODULE: ./src/steps/agent-instructions.ts


/**
 * A template with the repository's agent instructions appended: the root files, and for
 * `planned` paths the nearest CLAUDE.md or AGENTS.md above each, as they are at `base` (the
 * run's base commit: a task branch holds a model's edits to them). Sanitised like the issue.
 * It goes in the system prompt, the prefix prompt caching keeps.
 */
async function promptWithInstructions(ctx, template, base, planned = []) {
    const system = await ctx.template(template);
    const read = new Map();
    const at = async (path) => {
        if (!read.has(path))
            read.set(path, await readAtBase(ctx, base, path));
        return read.get(path);
    };
    const chosen = await instructionPaths(planned, async (p) => (await at(p)) !== undefined);
    const files = chosen.map((path) => ({ path, text: (0,sanitize/* sanitize */.a)(read.get(path) ?? '', 50_000) }));
    const section = instructionsSection(files);
    if (chosen.length)
        ctx.log.info(`agent instructions for ${template}: ${chosen.join(', ')}`);
    return section ? `${system.trimEnd()}\n\n${section}\n` : system;
}
async function readAtBase(ctx, base, path) {
    try {
        return await ctx.repo.readFileAt(base, path);
    }
    catch (e) {
        // The base commit may not be in a shallow checkout yet.
        ctx.log.info(`fetching the base commit to read ${path} (${e instanceof Error ? e.message : String(e)})`);
        await ctx.remote.fetchCommit(base);
        return ctx.repo.readFileAt(base, path);
    }
}


/***/ }),

/***/ 8811:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Hn: () => (/* binding */ repositoryStop),
/* harmony export */   Mm: () => (/* binding */ ownBudgetStop),
/* harmony export */   OH: () => (/* binding */ askAtBudget),
/* harmony export */   Zf: () => (/* binding */ budgetStopBefore),
/* harmony export */   cg: () => (/* binding */ runStop),
/* harmony export */   eO: () => (/* binding */ periodStop),
/* harmony export */   j8: () => (/* binding */ stopStepAtBudget),
/* harmony export */   kQ: () => (/* binding */ stopRunAtBudget),
/* harmony export */   lB: () => (/* binding */ runStopRequest),
/* harmony export */   v7: () => (/* binding */ runWideStop)
/* harmony export */ });
/* unused harmony export replanJoiningStop */
/* harmony import */ var _domain_budgets__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(69158);
/* harmony import */ var _domain_labels__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(85745);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(65534);
/* harmony import */ var _render_budget_stop__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(35720);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24742);
/* harmony import */ var _caps__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(75498);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(33732);
/* harmony import */ var _spend_gate__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(50746);








/**
 * The run's own budgets, when one is spent: `budgets.run` as this run stands (a person's `/crew continue`
 * may have raised it), then the task's `budgets.task` (what its current allowance of attempts spent).
 */
function ownBudgetStop(config, view, runSpent, task) {
    const budgets = (0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .runBudgets */ .Cc)(config.budgets, view.run);
    if ((0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .runBudgetSpent */ .X5)(budgets.run, runSpent))
        return runStop(budgets.run, runSpent);
    if (task && (0,_domain_budgets__WEBPACK_IMPORTED_MODULE_0__/* .taskBudgetSpent */ .V3)(budgets.task, task.spent))
        return {
            kind: 'budget',
            limit: 'task',
            task: task.id,
            spentUsd: task.spent.costUsd,
            budgetUsd: budgets.task.cost_usd,
            tokens: { spent: task.spent.tokens, budget: budgets.task.tokens },
        };
    return undefined;
}
function periodStop(p) {
    return { kind: 'budget', limit: p.period, spentUsd: p.spentUsd, budgetUsd: p.budgetUsd, resetsAt: p.resetsAt };
}
/** `budgets.run` (as the run stands) spent: by a worker's attempt, or as the model met it in another step (agents/run-budget.ts). */
function runStop(budget, runSpent) {
    return {
        kind: 'budget',
        limit: 'run',
        spentUsd: runSpent.costUsd,
        budgetUsd: budget.cost_usd,
        tokens: { spent: (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .tokensOf */ .k8)(runSpent), budget: budget.tokens },
    };
}
const STEP = {
    planning: { phase: 'PLANNING', where: 'while planning', waits: 'in planning' },
    review: { phase: 'REVIEWING', where: 'in the critic', waits: "before the critic's verdict" },
    replan: { phase: 'EXECUTING', where: 'while re-planning', waits: 'before re-planning' },
    integration: { phase: 'INTEGRATING', where: 'in the resolver', waits: 'before the conflict is merged' },
};
/**
 * `budgets.run` reached while planning, re-planning, in the resolver or in the critic: the run waits and asks as at a
 * worker's budget end rather than failing. In one write: what the step's model calls cost (the call refused included
 * none), what `keep` keeps for the step's next try (planning: intake's reading, a person's `/crew revise` feedback;
 * re-planning: which tasks, with what feedback; the resolver: which merge), and the wait; then crew asks.
 * Re-planning that meets the budget while the run already waits at one (another task's) joins that wait: the question
 * is asked once. `/crew continue` goes back to the step (commands/continue.ts). Returns whether the run now waits.
 */
async function stopStepAtBudget(ctx, issue, run, at, e, keep) {
    const { files, ...kept } = keep ?? {};
    const stop = { ...runStop(e.budget, e.spent), at, ...kept, ...(at === 'planning' ? { intakeKept: !!files } : {}) };
    const { phase, where, waits } = STEP[at];
    const stopped = await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .updateRun */ .PF)(ctx, issue, run, `stopped at the run's budget ${where}`, (rec, tx) => {
        const usage = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_1__/* .addUsage */ .vk)(rec.usage, e.sinceStart);
        const joined = stop.replan && replanJoiningStop(rec, stop.replan);
        if (at === 'replan' && joined) {
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...rec, usage, waiting: joined }, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx));
            return 'joined';
        }
        if (rec.phase !== phase || (at === 'replan' && rec.waiting))
            return false;
        files?.(tx);
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...rec, usage, phase: 'ESCALATING', finalizer: null, waiting: { ...stop, commentId: 0 } }, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx));
        (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .refreshExecutionLog */ .qm)(tx, issue, run);
        return true;
    });
    if (stopped === 'joined') {
        ctx.log.info(`${(0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_2__/* .budgetSpentText */ .tB)(stop)} ${where}; the run already waits at a budget, and going on re-plans these tasks too`);
        return true;
    }
    if (!stopped) {
        ctx.log.info(`run ${run} left ${phase}, or waits on another question, before its budget stop ${where} was recorded; nothing to ask`);
        return false;
    }
    ctx.log.info(`${(0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_2__/* .budgetSpentText */ .tB)(stop)}; the run waits ${waits}`);
    await askAtBudget(ctx, issue, run);
    return true;
}
/**
 * Re-planning that meets `budgets.run` while the run already waits at a budget its tasks met (no other step's, no
 * re-planning of its own yet): the wait it joins, so that going on re-plans these tasks too. Otherwise none: a run
 * waiting on another question, or at another step, lets the failure stand.
 */
function replanJoiningStop(rec, replan) {
    const w = rec.waiting;
    if (rec.phase !== 'ESCALATING' || w?.kind !== 'budget' || w.at || w.replan)
        return undefined;
    return { ...w, replan };
}
/** The budget the run waits at, when it stopped at its own or the repository's (not a task's `budgets.task`). */
function runWideStop(rec) {
    const w = rec?.phase === 'ESCALATING' ? rec.waiting : undefined;
    if (w?.kind !== 'budget' || w.limit === 'task')
        return undefined;
    const { commentId: _, ...stop } = w;
    return stop;
}
/**
 * What a running worker finds in its inbox once the run stopped at its or the repository's budget: a shutdown
 * request, so it ends its attempt at the end of its turn instead of spending the rest of it; crew then holds
 * its task with its work pushed, as the task that met the budget (work.ts). Not stored: after `/crew continue`
 * the run no longer waits, and nothing stops the task again.
 */
function runStopRequest(rec, taskId) {
    const stop = runWideStop(rec);
    if (!stop || !rec)
        return undefined;
    return {
        id: `budget-stop-${rec.updatedAt}`,
        from: 'leader',
        to: taskId,
        type: 'shutdown_request',
        text: `The run stopped at a budget: ${(0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_2__/* .budgetSpentText */ .tB)(stop)}. Stop now; your work so far is kept.`,
        at: rec.updatedAt,
    };
}
/** Before a step that spends (a worker's attempt): the run's and the task's budgets, then the repository's. */
async function budgetStopBefore(ctx, config, view, runSpent, task) {
    return ownBudgetStop(config, view, runSpent, task) ?? (await repositoryStop(ctx));
}
/** The repository's `budgets.day` / `budgets.month`, when reached (counting what this job spent that crew/state does not hold yet). */
async function repositoryStop(ctx, unrecordedUsd = 0) {
    const period = await (0,_spend_gate__WEBPACK_IMPORTED_MODULE_6__/* .repositoryBudgetReached */ .A6)(ctx, unrecordedUsd);
    return period ? periodStop(period) : undefined;
}
/**
 * Inside the write that holds a task: the run stops and waits at the budget (comment id 0 until
 * `askAtBudget` posts the question). A run already waiting (on this budget or another question) is
 * left as it is: the held task is pending, and starts again, or stops again, when the run goes on.
 * Returns whether the question is this job's to ask.
 */
function stopRunAtBudget(tx, issue, run, stop, now) {
    const view = (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .viewIn */ .zc)(tx, issue, run);
    if (view.run.phase !== 'EXECUTING' || view.run.waiting)
        return false;
    (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...view.run, phase: 'ESCALATING', waiting: { ...stop, commentId: 0 } }, now);
    return true;
}
/** Posts the budget question a run records but has not asked yet, and labels the issue as waiting. */
async function askAtBudget(ctx, issue, run) {
    const view = await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .loadView */ .QJ)(ctx, issue, run);
    const w = view.run.waiting;
    if (view.run.phase !== 'ESCALATING' || w?.kind !== 'budget' || w.commentId !== 0)
        return;
    const s = ctx.surface;
    const body = (0,_render_budget_stop__WEBPACK_IMPORTED_MODULE_2__/* .budgetQuestion */ .SG)(view, w, s, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .planLinks */ .FR)(ctx).branch, s.marker('budget', { issue, run, nonce: (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nonce */ .KU)() }));
    await (0,_caps__WEBPACK_IMPORTED_MODULE_4__/* .spend */ .Rf)(ctx, issue, run, { comments: 1 });
    const posted = await ctx.forge.postComment(issue, body);
    await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .updateRun */ .PF)(ctx, issue, run, `asked at the budget`, (rec, tx) => {
        if (rec.waiting?.kind === 'budget' && rec.waiting.commentId === 0)
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...rec, waiting: { ...rec.waiting, commentId: posted.id } }, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx));
    });
    await ctx.forge.addLabel(issue, _domain_labels__WEBPACK_IMPORTED_MODULE_7__/* .WAITING_LABEL */ .J);
    ctx.log.checkpoint('budget-asked');
    await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .syncPlanComment */ .Of)(ctx, issue, run);
}


/***/ }),

/***/ 99691:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  _: () => (/* binding */ lookAtCiWhenRunEnds),
  D: () => (/* binding */ routeCiRun)
});

;// CONCATENATED MODULE: ./src/domain/ci-status.ts
/**
 * The CI on the head of crew's pull request, as one reading of its checks tells it: which runs of
 * the workflows `fix_ci` is named for have failed there (the ones a follow-up may fix), and which
 * are still going (left to their own `workflow_run` event). The merge gate reads the same checks,
 * so what fix_ci does and what the gate says come from one reading. Pure.
 */
const same = (a, b) => (a ?? '').toLowerCase() === b.toLowerCase();
/** The distinct workflow runs behind a head's checks that fix_ci is named for, oldest first. */
function ciRuns(checks, head) {
    const runs = new Map();
    for (const c of checks) {
        const r = c.run;
        if (!r || !head.workflows.includes(r.workflow))
            continue;
        if (r.headSha !== head.headSha || r.headBranch !== head.headBranch || !same(r.headRepo, head.repo))
            continue;
        runs.set(r.id, r);
    }
    return [...runs.values()].sort((a, b) => a.id - b.id);
}
/** The runs that ended in failure: each is what its `workflow_run` event would have brought to fix_ci. */
function failedCiRuns(checks, head) {
    return ciRuns(checks, head).filter((r) => r.status === 'completed' && r.conclusion === 'failure');
}
/** The runs still going: their own `workflow_run` event comes when they complete. */
function runningCiRuns(checks, head) {
    return ciRuns(checks, head).filter((r) => r.status !== 'completed');
}

// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/text/redact.ts
var redact = __webpack_require__(53326);
// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
;// CONCATENATED MODULE: ./src/domain/ci-log.ts



/**
 * A failed CI job's log, cut down to what a follow-up run needs: the end of the failed step's
 * output, without timestamps, colour codes or runner bookkeeping, with secrets redacted and
 * anything a reader of the rendered text would not see removed. The log is untrusted text (a
 * test can print anything, and the branch holds model-written code), so it is handled like an
 * issue body. Pure.
 */
/** How much of a log's end a follow-up run is given: enough for a stack trace and the test summary. */
const LOG_TAIL_LINES = 80;
const LOG_TAIL_CHARS = 6_000;
/** GitHub prefixes every job log line with an ISO-8601 timestamp and a space (`2026-11-27T10:00:01.1234567Z `). */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
/** ANSI escape sequences: colours (CSI … m), cursor moves and OSC titles. */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
/** The runner's own lines around steps: group markers and the cleanup that follows the failed step. */
const GROUP = /^##\[(?:group|endgroup)\]/;
/** The runner's line that ends a failed `run:` step (docs: workflow commands; the runner writes it as an error annotation). */
const STEP_FAILED = /^##\[error\]Process completed with exit code \d+\.?$/;
/** Where the runner's own post-job work starts: nothing after it is the step's output. */
const POST_JOB = /^(?:Post job cleanup\.|Cleaning up orphan processes)$/;
/** One log line as a person reads it in the Actions UI: no timestamp, no colours. */
function cleanLogLine(line) {
    return line.replace(TIMESTAMP, '').replace(ANSI, '').replace(/\r$/, '');
}
/**
 * The end of the failed step's output: the log up to the runner's "Process completed with exit
 * code" line (the last one; the whole log when there is none), without group markers and
 * post-job cleanup, then its last `maxLines` lines and at most `maxChars` characters.
 */
function logTail(raw, maxLines = LOG_TAIL_LINES, maxChars = LOG_TAIL_CHARS) {
    let lines = raw.split('\n').map(cleanLogLine);
    while (lines.length && lines.at(-1).trim() === '')
        lines.pop();
    const failedAt = lines.findLastIndex((l) => STEP_FAILED.test(l));
    if (failedAt >= 0)
        lines = lines.slice(0, failedAt + 1);
    else {
        const post = lines.findIndex((l) => POST_JOB.test(l));
        if (post >= 0)
            lines = lines.slice(0, post);
    }
    lines = lines.filter((l) => !GROUP.test(l));
    const total = lines.length;
    let body = lines.slice(-maxLines).join('\n');
    // Characters, from the end: the first line kept may be cut at its start.
    if (body.length > maxChars)
        body = `…${body.slice(-(maxChars - 1))}`;
    const omittedLines = total - (body ? body.split('\n').length : 0);
    // Redacted before sanitising (sanitising could join the halves of a token split by an invisible
    // character), and sanitised inside a fence, where it keeps the text literal: a log's `<div>` or
    // `[x]: y` is output to read, not markup to drop, while comments, hidden elements and invisible
    // characters still go.
    const fenced = (0,sanitize/* sanitize */.a)((0,markdown/* fence */.EU)((0,redact/* redact */.E$)(body)), maxChars * 2).split('\n');
    const text = fenced.slice(1, -1).join('\n').trimEnd();
    return { text, omittedLines };
}
/** The done criterion a follow-up run adds: named after the failed check, which is what the pull request's checks list shows. */
function ciCriterion(f) {
    return `the ${(0,markdown/* codeSpan */.SS)(f.job)} check of the ${(0,markdown/* codeSpan */.SS)(f.workflow)} workflow passes`;
}
/**
 * The feedback a follow-up run's intake reads: which check failed where, and the log tail in a
 * fence (sanitize keeps a fence's text literal). Names from the workflow file are shown as code,
 * so they format nothing.
 */
function ciFeedback(f) {
    const where = `${(0,markdown/* codeSpan */.SS)(f.job)}${f.step ? `, step ${(0,markdown/* codeSpan */.SS)(f.step)}` : ''}`;
    const lines = [`The ${(0,markdown/* codeSpan */.SS)(f.workflow)} workflow failed on this pull request's head ${f.headSha.slice(0, 7)}: job ${where}.`, `Job log: ${f.jobUrl}`, ''];
    if (!f.log)
        lines.push('GitHub had no log for this job (it may have expired, or the job never started); look at the job page.');
    else {
        const cut = f.log.omittedLines ? ` (the last lines; ${f.log.omittedLines} earlier lines left out)` : '';
        lines.push(`The end of the failed step's output${cut}:`, '', (0,markdown/* fence */.EU)(f.log.text));
    }
    lines.push('', `Fix the cause on this branch so that ${ciCriterion(f)}. Do not skip, delete or weaken the check or its tests.`);
    return lines.join('\n');
}

// EXTERNAL MODULE: ./src/domain/fix-ci.ts
var fix_ci = __webpack_require__(628);
// EXTERNAL MODULE: ./src/render/fix-ci.ts
var render_fix_ci = __webpack_require__(9844);
// EXTERNAL MODULE: ./src/steps/follow-up.ts
var follow_up = __webpack_require__(25442);
;// CONCATENATED MODULE: ./src/steps/fix-ci.ts









/**
 * `fix_ci` (#19 §2): a CI workflow run failed on the head of crew's own pull request. It comes from
 * the route job (its `workflow_run` event, steps/ci-status.ts), or from the end of a run that looks
 * at the head's CI itself (a failure that came while the run was still working). Either way crew
 * counts the attempt in the record of the run whose branch the pull request is (domain/fix-ci.ts),
 * reads the failed jobs' log tails, and hands a follow-up request to `startCiFollowUp`.
 */
/** How many failed jobs of one CI run crew reads, and turns into criteria. */
const MAX_FAILED_JOBS = 3;
/**
 * fix_ci's answer to one failed CI run on the head of crew's pull request: the attempt decided and
 * counted in the record of the run whose branch the pull request is (a compare-and-swap, after a
 * read that spares a repeat the log downloads), then the follow-up started from the failed jobs'
 * log tails, the attempts said to be used up (once per head), or nothing. `beforeStart` runs once
 * an attempt is counted and before the follow-up plans (the merge gate's words); `dispatch` sends
 * the follow-up's tasks to new workflow runs (a job with no `work` job after it).
 */
async function fixCiFailure(ctx, f, opts = {}, round = 1) {
    const { ci, target, pull, max } = f;
    const prefix = `${(0,refs/* runFolder */.kQ)(target.issue, target.run)}/`;
    const peeked = (0,run_files/* readRun */.cI)(await ctx.state.load(prefix), target.issue, target.run);
    if (!peeked) {
        ctx.log.info(`fix_ci: run ${target.run} of issue #${target.issue} is not on crew/state; nothing to do`);
        return { kind: 'nothing' };
    }
    // The failed jobs name the checks; their logs are read only for an attempt that starts.
    const jobs = (await ctx.forge.failedJobs?.(ci.runId, MAX_FAILED_JOBS)) ?? [];
    const seen = seenOf(ci, jobs[0]?.name ?? ci.workflow, jobs[0]?.url ?? ci.url);
    const first = (0,fix_ci/* decideFixCi */._u)(peeked.fixCi, seen, pull.headSha, max);
    const failures = [];
    if (first.kind === 'start')
        for (const j of jobs.length ? jobs : [undefined])
            failures.push(failureOf(ci, j, j ? ((await ctx.forge.jobLog?.(j.id)) ?? null) : null));
    const at = (0,context/* nowIso */.kF)(ctx);
    const { decision, by, changed } = await (0,context/* updateRun */.PF)(ctx, target.issue, target.run, 'fix_ci: count the attempt', (rec, tx) => {
        const d = (0,fix_ci/* decideFixCi */._u)(rec.fixCi, seen, pull.headSha, max);
        let fixCi = (0,fix_ci/* recordFixCi */.$e)(rec.fixCi, { ...seen, check: { ...seen.check, at } }, d, at);
        // The other failed jobs of the same run join the attempt, so the plan comment and the report list them.
        if (d.kind === 'start')
            for (const j of jobs.slice(1))
                fixCi = (0,fix_ci/* recordFixCi */.$e)(fixCi, seenOf(ci, j.name, j.url, at), { kind: 'same-head', n: d.n }, at);
        const changed = fixCi !== rec.fixCi;
        if (changed)
            (0,run_files/* writeRun */.bp)(tx, { ...rec, fixCi: { ...fixCi, limit: max } }, at);
        return { decision: d, by: rec.requestedBy, changed };
    });
    // The plan comment lists the attempts; the state write above is what it renders.
    if (changed)
        await ctx.planComment.syncHolder(target.issue, target.run);
    // (A decision that changed between the peek and the write only ever changes away from starting.)
    if (decision.kind === 'start' && !failures.length)
        failures.push(...(jobs.length ? jobs : [undefined]).map((j) => failureOf(ci, j, null)));
    const on = `${ci.workflow} run ${ci.runId} on ${ci.headSha.slice(0, 7)} (#${pull.number})`;
    switch (decision.kind) {
        case 'duplicate':
            ctx.log.info(`fix_ci: ${on} is already counted in attempt ${decision.n}; nothing to do`);
            return { kind: 'nothing' };
        case 'same-head':
            ctx.log.info(`fix_ci: ${on} failed on the head attempt ${decision.n} already covers; listed with it, nothing new starts`);
            return { kind: 'nothing' };
        case 'stale':
            ctx.log.info(`fix_ci: ${on} is for an older head (the pull request is at ${decision.pullHead.slice(0, 7)}); its CI decides`);
            return { kind: 'nothing' };
        case 'exhausted':
            if (!decision.say)
                ctx.log.info(`fix_ci: ${on} failed with no attempts left; crew said so on this head already`);
            else {
                ctx.log.info(`fix_ci: ${on} failed with all ${decision.max} attempts used; saying so`);
                await ctx.forge.postComment(pull.number, (0,render_fix_ci/* fixCiExhaustedComment */.c)({ ...seen.check, at }, seen.headSha, decision.max, ctx.surface));
            }
            return { kind: 'used-up', max: decision.max };
        case 'start':
            break;
    }
    ctx.log.info(`fix_ci: ${on} failed; attempt ${decision.n} of ${max}`);
    await opts.beforeStart?.({ kind: 'fixing', attempt: decision.n, max });
    const started = await startCiFollowUp(ctx, {
        issue: target.issue,
        run: target.run,
        pull,
        by,
        attempt: { n: decision.n, max },
        feedback: failures.map(ciFeedback).join('\n\n'),
        criteria: failures.map(ciCriterion),
        source: 'ci',
        trigger: { workflowRunId: ci.runId, workflow: ci.workflow, url: ci.url, at },
        ...(opts.dispatch ? { dispatch: true } : {}),
    });
    if (started.started)
        return { kind: 'started', attempt: decision.n, max };
    if (started.busy === undefined)
        return { kind: 'refused' };
    // Whoever writes last looks last: the run that was working may have ended, and looked at CI, before
    // the attempt above was marked not started; then that look saw it counted, and this job tries again.
    const busy = (0,run_files/* readRun */.cI)(await ctx.state.load(`${(0,refs/* runFolder */.kQ)(target.issue, started.busy)}/`), target.issue, started.busy);
    if (round < 2 && busy && (0,run_state/* isTerminal */.Hd)(busy.phase)) {
        ctx.log.info(`fix_ci: run ${started.busy} ended while the attempt was being put off; trying again`);
        return fixCiFailure(ctx, f, opts, round + 1);
    }
    return { kind: 'deferred', busy: started.busy };
}
function seenOf(ci, job, url, at = '') {
    const check = { workflow: ci.workflow, job, runId: ci.runId, url, at };
    return { headSha: ci.headSha, check };
}
function failureOf(ci, job, log) {
    return {
        workflow: ci.workflow,
        runId: ci.runId,
        runUrl: ci.url,
        // A run that failed before any job (an invalid workflow file) is named after the workflow.
        job: job?.name ?? ci.workflow,
        jobUrl: job?.url ?? ci.url,
        step: job?.step ?? null,
        headSha: ci.headSha,
        log: log ? logTail(log) : null,
    };
}
/**
 * The one place a CI failure becomes a follow-up run: the failed checks become criteria and their
 * log tails the feedback. When the follow-up cannot start (a run of the issue is still working, the
 * pull request closed), startFollowUp has said why on the pull request, and the attempt is marked
 * not started: it pushed nothing, so it does not count. A refusal because a run was working names
 * that run (`lookAfter`): when it ends, crew looks at this pull request's CI again.
 */
async function startCiFollowUp(ctx, req) {
    const s = ctx.surface;
    const started = await (0,follow_up/* startFollowUp */.R)(ctx, {
        pull: req.pull.number,
        by: req.by,
        feedback: req.feedback,
        criteria: req.criteria,
        source: 'ci',
        trigger: { commentId: 0, createdAt: req.trigger.at, workflowRunId: ctx.runId, how: 'ci', ciRunId: req.trigger.workflowRunId },
        why: `CI failed on ${req.pull.headSha.slice(0, 7)}: the ${(0,markdown/* codeSpan */.SS)(req.trigger.workflow)} workflow (${s.link('run', req.trigger.url)}); with \`fix_ci\` on, this is attempt ${req.attempt.n} of ${req.attempt.max} (\`fix_ci_attempts\`).`,
        ...(req.dispatch ? { dispatch: true } : {}),
    });
    if (started.started)
        return started;
    ctx.log.info(`fix_ci: attempt ${req.attempt.n} did not start${started.busy ? `; crew looks again when run ${started.busy} ends` : ''}`);
    await (0,context/* updateRun */.PF)(ctx, req.issue, req.run, `fix_ci attempt ${req.attempt.n} not started`, (rec, tx) => {
        (0,run_files/* writeRun */.bp)(tx, { ...rec, fixCi: (0,fix_ci/* attemptNotStarted */.Q5)(rec.fixCi, req.attempt.n, started.busy ?? null) }, (0,context/* nowIso */.kF)(ctx));
    });
    await ctx.planComment.syncHolder(req.issue, req.run);
    return started;
}

// EXTERNAL MODULE: ./src/steps/merge.ts + 1 modules
var merge = __webpack_require__(70921);
;// CONCATENATED MODULE: ./src/steps/ci-status.ts









/**
 * CI on the head of crew's pull request, wherever crew learns of it: GitHub's `workflow_run` event
 * for a failed CI run (the route job), or crew's own look at the head when a run of the issue ends
 * (a failure that came while the run was still working is not lost: GitHub sends the event once).
 * Either way fix_ci decides first (domain/fix-ci.ts, steps/fix-ci.ts), and then the merge gate says
 * in the report's Merge section and the plan comment why the pull request is not merged (which check
 * of which workflow failed on which head, with a link, and what a person can do), from the same
 * reading of the head's checks where crew made one.
 */
/**
 * The route job's part: a CI workflow run on a `crew/…/integration` branch completed in failure (the
 * workflow's `if:` let through only those, from a workflow other than crew's; checked again here, since
 * a copied workflow may have lost a condition). fix_ci acts when it is on; the merge gate speaks either way.
 */
async function routeCiRun(ctx, ev, ci) {
    const skip = (why) => ctx.log.info(`CI: ${why}; nothing to do`);
    if (ci.conclusion !== 'failure')
        return skip(`the ${ci.workflow} run ${ci.runId} ended ${ci.conclusion ?? 'without a conclusion'}, not in failure`);
    const repo = `${ctx.forge.repo.owner}/${ctx.forge.repo.name}`.toLowerCase();
    // A fork can name its branch crew/1/r1/integration: only a head in this repository is crew's.
    if (!ci.headRepo || ci.headRepo.toLowerCase() !== repo)
        return skip(`the ${ci.workflow} run ${ci.runId} is on ${ci.headRepo ?? 'an unknown repository'}, not ${repo}`);
    const target = ci.headBranch ? (0,refs/* runOfIntegrationBranch */.$o)(ci.headBranch) : undefined;
    if (!target || !ci.headBranch)
        return skip(`the ${ci.workflow} run ${ci.runId} is on ${ci.headBranch ?? 'no branch'}, not one of crew's pull request branches`);
    // The run's record names its pull request; the event's list of pull requests may be empty, so it is only checked against.
    const owner = (0,run_files/* readRun */.cI)(await ctx.state.load(`issue-${target.issue}/`), target.issue, target.run);
    if (!owner)
        return skip(`run ${target.run} of issue #${target.issue} is not on crew/state`);
    if (!owner.pr) {
        // CI on the integration branch can fail before the critic opens the pull request: the run's end looks at it.
        if (!(0,run_state/* isTerminal */.Hd)(owner.phase))
            return skip(`run ${target.run} of issue #${target.issue} has no pull request yet; crew looks at its CI when the run ends`);
        return skip(`run ${target.run} of issue #${target.issue} has no pull request`);
    }
    const number = owner.pr.number;
    const listed = ev.pulls.find((p) => p.headRef === ci.headBranch);
    if (listed && listed.number !== number)
        ctx.log.warn(`CI: GitHub lists pull request #${listed.number} for ${ci.headBranch}; the run's is #${number}`);
    const pull = await ctx.forge.getPull(number);
    if (pull.state !== 'open' || pull.fromFork || pull.headRef !== ci.headBranch)
        return skip(`pull request #${number} is not crew's open pull request from ${ci.headBranch}`);
    const config = await ctx.config();
    let note;
    if (config.fix_ci) {
        const out = await fixCiFailure(ctx, { target, pull: { number, headRef: ci.headBranch, headSha: pull.headSha }, ci, max: config.fix_ci_attempts }, { beforeStart: (n) => gateAfterCi(ctx, target.issue, number, { fixCi: n }) });
        note = noteOf(out);
    }
    else {
        // Off means off for fixing: no comment about it. The merge gate still says why the pull request is not merged.
        ctx.log.info(`fix_ci: fix_ci is off in .github/crew.yml (CI failed on ${ci.headBranch}); crew does not fix it`);
    }
    await gateAfterCi(ctx, target.issue, number, note ? { fixCi: note } : {});
}
/**
 * When a run of the issue ends, whatever ended it (the critic's PASS, its tasks failing, `/crew
 * abort`), crew looks once at the CI of the pull request it worked on, and of any pull request whose
 * CI failed while it worked (`fixCi.lookAfter`): a failed run of a workflow fix_ci is named for, with
 * no attempt covering that head, gets its follow-up now, as if its `workflow_run` event had come now
 * (an aborted CI follow-up's own head is covered by its attempt, so it does not start again); a run
 * still going is left to its own event. Then the merge gate reads the same checks. A failure here is
 * said on the pull request and never undoes the run's ending.
 */
async function lookAtCiWhenRunEnds(ctx, issue, run) {
    // Where there is no workflow (local mode) there is no CI to look at.
    if (!ctx.ciWorkflows)
        return;
    let said;
    try {
        // Neither fixes CI nor merges: nothing to look at, and nothing read (the usual configuration costs no round trip).
        const config = await ctx.config();
        if (!config.fix_ci && !config.auto_merge)
            return;
        // Called as the run ends, right after its last write in this job.
        const snap = await ctx.state.load(`issue-${issue}/`, ports/* SEEN */.GL);
        const ending = (0,run_files/* readRun */.cI)(snap, issue, run);
        if (!ending || !(0,run_state/* isTerminal */.Hd)(ending.phase))
            return;
        const pulls = new Set();
        if (ending.pr)
            pulls.add(ending.pr.number);
        for (const k of (0,run_files/* runNumbers */.Sm)(snap, issue)) {
            const rec = (0,run_files/* readRun */.cI)(snap, issue, k);
            if (rec?.pr && rec.fixCi.lookAfter === run)
                pulls.add(rec.pr.number);
        }
        said = ending.pr?.number;
        for (const n of pulls) {
            said = n;
            await lookAtPull(ctx, snap, issue, n);
        }
    }
    catch (e) {
        // A follow-up this look started failed while planning: that is the follow-up's own failure (main.ts reports it).
        if (ctx.working && (ctx.working.issue !== issue || ctx.working.run !== run))
            throw e;
        const why = e instanceof Error ? e.message : String(e);
        ctx.log.warn(`crew could not look at CI after run ${run} of issue #${issue} ended: ${why}`);
        await ctx.forge
            .postComment(said ?? issue, `crew could not look at this pull request's CI after run ${ctx.surface.runNumber(issue, run)} of #${issue} ended: ${(0,sanitize/* sanitize */.a)(why, 500)}. If CI failed on its head, re-run the failed jobs: crew acts on the failure when it arrives.`)
            .catch((post) => ctx.log.warn(`the comment saying so could not be posted either (${post instanceof Error ? post.message : String(post)})`));
    }
}
async function lookAtPull(ctx, snap, issue, number) {
    const skip = (why) => ctx.log.info(`CI on #${number}: ${why}; nothing to do`);
    const newest = newestOfPull(snap, issue, number);
    if (newest && !(0,run_state/* isTerminal */.Hd)(newest.phase))
        return skip(`run ${newest.run} is working on it; crew looks when that run ends`);
    const config = await ctx.config();
    // Without fix_ci only the merge gate may have something new to say, and it reads what it needs itself.
    if (!config.fix_ci)
        return config.auto_merge ? gateAfterCi(ctx, issue, number, {}) : skip('fix_ci and auto_merge are off');
    const pull = await ctx.forge.getPull(number);
    if (pull.state !== 'open' || pull.fromFork)
        return skip(`the pull request is ${pull.merged ? 'merged' : pull.state}`);
    const target = (0,refs/* runOfIntegrationBranch */.$o)(pull.headRef);
    if (!target || target.issue !== issue)
        return skip(`${pull.headRef} is not one of issue #${issue}'s pull request branches`);
    const read = await ctx.ciWorkflows();
    if ('unreadable' in read)
        ctx.log.warn(`CI on #${number}: crew cannot tell which workflows fix_ci is named for (${read.unreadable}), so it looks at none`);
    const workflows = 'names' in read ? read.names : [];
    const repo = `${ctx.forge.repo.owner}/${ctx.forge.repo.name}`;
    // One reading of the head's checks: fix_ci acts on it, and the merge gate decides on it.
    const checks = (await ctx.forge.checksOn?.(pull.headSha)) ?? [];
    const head = { workflows, headSha: pull.headSha, headBranch: pull.headRef, repo };
    for (const r of runningCiRuns(checks, head))
        ctx.log.info(`CI on #${number}: ${r.workflow} run ${r.id} is still ${r.status}; its own workflow_run event decides`);
    let note;
    for (const r of failedCiRuns(checks, head)) {
        const out = await fixCiFailure(ctx, { target, pull: { number, headRef: pull.headRef, headSha: pull.headSha }, ci: ciRunOf(r, repo), max: config.fix_ci_attempts }, { dispatch: true, beforeStart: (n) => gateAfterCi(ctx, issue, number, { checks, fixCi: n }) });
        note = noteOf(out) ?? note;
    }
    await gateAfterCi(ctx, issue, number, { checks, ...(note ? { fixCi: note } : {}) });
}
/**
 * The merge gate once CI has spoken: for the newest run of the issue with this pull request, when it
 * is completed and not merged, the gate decides again and its word replaces the Merge section of the
 * report and the plan comment's line (edited in place; nothing when nothing changed). A run still
 * working says its own word when it finishes.
 */
async function gateAfterCi(ctx, issue, number, read) {
    const newest = newestOfPull(await ctx.state.load(`issue-${issue}/`, ports/* SEEN */.GL), issue, number);
    if (!newest)
        return ctx.log.info(`auto-merge: no run of issue #${issue} has pull request #${number}`);
    if (newest.phase !== 'COMPLETED')
        return ctx.log.info(`auto-merge: run ${newest.run} of issue #${issue} is ${newest.phase.toLowerCase()}; it speaks for #${number} when it ends`);
    if (newest.merge?.state === 'merged')
        return;
    const view = await (0,context/* loadView */.QJ)(ctx, issue, newest.run, ports/* SEEN */.GL);
    await (0,merge.recordMerge)(ctx, view, await (0,merge.decideMerge)(ctx, view, number, read));
}
/** The newest run of the issue whose record names this pull request (follow-ups update the one pull request). */
function newestOfPull(snap, issue, number) {
    for (const k of [...(0,run_files/* runNumbers */.Sm)(snap, issue)].reverse()) {
        const rec = (0,run_files/* readRun */.cI)(snap, issue, k);
        if (rec?.pr?.number === number)
            return rec;
    }
    return undefined;
}
/** What the merge gate says of fix_ci after its answer: a follow-up fixing it, or no attempts left. */
function noteOf(out) {
    if (out.kind === 'started')
        return { kind: 'fixing', attempt: out.attempt, max: out.max };
    if (out.kind === 'used-up')
        return { kind: 'used-up', max: out.max };
    return undefined;
}
/** A failed run crew found on the head, as its `workflow_run` event would have carried it. */
function ciRunOf(r, repo) {
    return {
        runId: r.id,
        workflow: r.workflow,
        path: r.path,
        conclusion: r.conclusion,
        headBranch: r.headBranch,
        headSha: r.headSha,
        headRepo: r.headRepo,
        repo,
        url: r.url,
    };
}


/***/ }),

/***/ 83405:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   hH: () => (/* binding */ latestRun),
/* harmony export */   n0: () => (/* binding */ setOutputs),
/* harmony export */   xu: () => (/* binding */ REPLY_CHARS)
/* harmony export */ });
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(65534);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(24742);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(33732);



/** What every command handler shares: the route job's outputs, the newest run, the reply length. */
/** A maintainer's answer or feedback reaches prompts like the issue does: sanitised, and at most this long. */
const REPLY_CHARS = 10_000;
/**
 * The matrix for the work job. With nothing to start the work job is skipped, and so is
 * advance unless `advance` asks for it (a run whose remaining step is to finish).
 */
async function setOutputs(ctx, issue, run, tasks, advance = false) {
    const go = tasks.length > 0 || advance;
    if (go && issue !== '' && run !== '')
        (0,_context__WEBPACK_IMPORTED_MODULE_2__/* .handedOn */ .Uz)(ctx, issue, run);
    ctx.output('issue', go ? String(issue) : '');
    ctx.output('run', go ? String(run) : '');
    // Each parallel attempt of a task (#50) is a leg of the matrix.
    ctx.output('tasks', JSON.stringify(issue !== '' && run !== '' ? await (0,_context__WEBPACK_IMPORTED_MODULE_2__/* .workLegs */ .V8)(ctx, issue, run, tasks) : tasks));
}
async function latestRun(ctx, issue) {
    const snap = await ctx.state.load(`issue-${issue}/`);
    const last = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .runNumbers */ .Sm)(snap, issue).at(-1);
    return last === undefined ? undefined : (0,_state_run_files__WEBPACK_IMPORTED_MODULE_1__/* .readRun */ .cI)(snap, issue, last);
}


/***/ }),

/***/ 4419:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  z6: () => (/* binding */ REPOSITORY_BUDGET),
  sv: () => (/* binding */ hasWriteAccess),
  TR: () => (/* binding */ refuse)
});

// EXTERNAL MODULE: ./src/render/messages.ts
var messages = __webpack_require__(93050);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
;// CONCATENATED MODULE: ./src/domain/refusals.ts
/**
 * How often crew tells one person, on one issue, that it will not act for them. Anyone can
 * comment on a public repository, and each refusal is a comment that notifies everyone
 * watching the issue; without a limit, a stranger's comments would make crew spam it. Pure.
 */
/** One refusal comment per person per issue in this window; refusals inside it get a 👎 reaction instead. */
const REFUSAL_WINDOW_MS = 60 * 60_000;
/** Whether a refusal may be a comment, given when the person's last refusal comment on the issue was posted. */
function refusalCommentDue(lastCommentAt, now) {
    if (lastCommentAt === undefined)
        return true;
    return now.getTime() - Date.parse(lastCommentAt) >= REFUSAL_WINDOW_MS;
}
/**
 * The file name for a login: GitHub logins are letters, digits and hyphens, compared
 * without case. Any other character is spelled as `_<hex>`, so a name is never a path.
 */
function refusalKey(login) {
    return login
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, (c) => `_${c.codePointAt(0).toString(16)}`)
        .slice(0, 200);
}

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/iso.js
var iso = __webpack_require__(64377);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
;// CONCATENATED MODULE: ./src/state/refusals.ts



/** When crew last posted a refusal to a person on an issue: `issue-<N>/refusals/<login>.json` on crew/state. */
const RefusalSchema = schemas/* looseObject */._H3({
    login: schemas/* string */.YjP(),
    lastCommentAt: iso/* datetime */.w$({ message: 'expected a time such as 2026-01-31T12:00:00Z' }),
});
const refusalsFolder = (issue) => `issue-${issue}/refusals/`;
const refusalPath = (issue, login) => `${refusalsFolder(issue)}${refusalKey(login)}.json`;
function readRefusal(r, issue, login) {
    return (0,run_files/* readChecked */.Yi)(r, refusalPath(issue, login), RefusalSchema);
}
function writeRefusal(tx, issue, rec) {
    tx.write(refusalPath(issue, rec.login), `${JSON.stringify(rec, null, 2)}\n`);
}

// EXTERNAL MODULE: ./src/clock.ts
var clock = __webpack_require__(99373);
;// CONCATENATED MODULE: ./src/steps/commands/permission.ts





/** The refusal window of a repository budget: not a login (GitHub logins have no `:`), so it never meets a person's. */
const REPOSITORY_BUDGET = ':repository-budget';
function askerOf(ev) {
    return 'comment' in ev ? { issue: ev.issue.number, login: ev.comment.author.login, commentId: ev.comment.id } : ev;
}
/** Write or admin, checked with the collaborator-permission API; anything else (or an API failure) is a no. */
async function hasWriteAccess(ctx, ev, sayWhy) {
    const who = askerOf(ev);
    let permission;
    try {
        permission = await ctx.forge.permissionOf(who.login);
    }
    catch (e) {
        throw new context/* CrewError */.uH('the permission check', `GitHub did not answer the permission check for @${who.login} (${e.message}), so crew did not act.`, who.commentId ? 'Comment the command again in a minute.' : 'Remove the label or the assignment and add it again in a minute, or comment `/crew run`.');
    }
    if (permission === 'admin' || permission === 'write')
        return true;
    if (sayWhy)
        await refuse(ctx, who, (0,messages/* refusalComment */.kT)(who.login, permission));
    else
        ctx.log.info(`ignoring a reply from @${who.login}, who has ${permission} access`);
    return false;
}
/**
 * Tells someone crew will not act for them: as a comment at most once per person per issue
 * an hour, remembered on crew/state (each comment is a new job); inside the hour, a 👎
 * reaction on their comment instead (or only the log, when a label or an assignment asked).
 * One state read; a write only when a comment is due.
 */
async function refuse(ctx, who, body) {
    const { issue, login } = who;
    const key = who.window ?? login;
    const now = ctx.clock.now();
    const { value: due } = await ctx.state.update(refusalsFolder(issue), `issue #${issue}: refused @${login}`, (tx) => {
        if (!refusalCommentDue(readRefusal(tx, issue, key)?.lastCommentAt, now))
            return false;
        writeRefusal(tx, issue, { login: key, lastCommentAt: (0,clock/* isoSeconds */.nE)(now) });
        return true;
    });
    if (due) {
        await ctx.forge.postComment(issue, body);
        return;
    }
    ctx.log.info(who.window
        ? `#${issue} was already told within the hour that the repository budget is spent`
        : `@${login} was already told on #${issue} within the hour that crew does not act for them`);
    if (who.commentId !== undefined)
        await ctx.forge.react?.(who.commentId, '-1');
}


/***/ }),

/***/ 52478:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   AD: () => (/* binding */ startRun),
/* harmony export */   Pr: () => (/* binding */ ensurePlanComment),
/* harmony export */   bu: () => (/* binding */ commentRequest)
/* harmony export */ });
/* harmony import */ var _config_schema__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(90131);
/* harmony import */ var _domain_attempts__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(26296);
/* harmony import */ var _domain_surface__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(45759);
/* harmony import */ var _domain_run_state__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(65534);
/* harmony import */ var _render_plan_comment__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24013);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(24742);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(33732);
/* harmony import */ var _plan_run__WEBPACK_IMPORTED_MODULE_10__ = __webpack_require__(60016);
/* harmony import */ var _common__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(83405);
/* harmony import */ var _permission__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(4419);
/* harmony import */ var _spend_gate__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(50746);











function commentRequest(ctx, ev) {
    return {
        issue: ev.issue,
        by: ev.comment.author.login,
        trigger: { commentId: ev.comment.id, createdAt: ev.comment.createdAt, workflowRunId: ctx.runId },
        comment: ev.comment.body,
    };
}
/**
 * The same request again: the same comment, or (for a label or an assignment) the same workflow run
 * re-run; for a failed CI run, the same job on the same CI run (one job may end a run and start a
 * follow-up for CI, in the workflow run that started the run it ends).
 */
function sameRequest(a, b) {
    // A review's id and a comment's may be equal numbers: the kind of text counts too.
    if (b.commentId)
        return a.commentId === b.commentId && a.how === b.how;
    return !a.commentId && a.how === b.how && a.workflowRunId !== undefined && a.workflowRunId === b.workflowRunId && a.ciRunId === b.ciRunId;
}
/** The run's parallel attempts (#50): what the request asked for, within `attempts.max`, else `attempts.parallel`. */
function runAttempts(ctx, config, asked) {
    if (asked === undefined)
        return { parallel: config.parallel, max: config.max };
    const ok = (0,_domain_attempts__WEBPACK_IMPORTED_MODULE_9__/* .checkAttemptsRequest */ .On)(asked, config.max);
    if (!ok.ok)
        throw new _context__WEBPACK_IMPORTED_MODULE_5__/* .CrewError */ .uH('starting the run', `${ok.why}. The run did not start.`, `${(0,_domain_surface__WEBPACK_IMPORTED_MODULE_1__/* .sentence */ .em)(ctx.surface.give('run'))} with \`--attempts\` from 1 to ${config.max}.`);
    return { parallel: asked, max: Math.max(config.max, asked) };
}
/** Starts a run of the issue (or continues this job's earlier attempt's), and plans it; when it cannot, says why where it was asked. */
async function startRun(ctx, ev, mode) {
    const issue = ev.issue.number;
    const before = await checksBeforeRun(ctx, ev);
    const outcome = await writeStart(ctx, ev, mode, before);
    if (outcome.kind === 'refused') {
        await sayRefused(ctx, ev, outcome.admit);
        return { started: false };
    }
    if (outcome.kind === 'busy') {
        await sayBusy(ctx, ev, outcome.record);
        return { started: false, busy: outcome.record.run };
    }
    const run = outcome.record.run;
    ctx.log.checkpoint('run-created');
    ctx.working = { issue, run };
    await ensurePlanComment(ctx, issue, run, outcome.kind === 'existing');
    // A follow-up's comment still shows the run it took it over from: show the follow-up at once.
    if (outcome.kind === 'created' && ev.followUp)
        await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .syncPlanComment */ .Of)(ctx, issue, run);
    if (outcome.kind === 'created')
        await ev.onCreated?.(run);
    if (outcome.kind === 'existing' && outcome.record.phase === 'EXECUTING') {
        // Already planned by an earlier attempt of this job: hand on whatever is claimed for this workflow run.
        const view = await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .loadView */ .QJ)(ctx, issue, run);
        if (!ev.dispatch)
            await (0,_common__WEBPACK_IMPORTED_MODULE_6__/* .setOutputs */ .n0)(ctx, issue, run, [...view.tasks.values()].filter((t) => t.status === 'running' && t.claim?.runId === ctx.runId).map((t) => t.id));
        return { started: true, run };
    }
    const tasks = await (0,_plan_run__WEBPACK_IMPORTED_MODULE_10__/* .planRun */ .n)(ctx, issue, run, undefined, ev.dispatch ? 'dispatch' : 'this-run');
    if (!ev.dispatch)
        await (0,_common__WEBPACK_IMPORTED_MODULE_6__/* .setOutputs */ .n0)(ctx, issue, run, tasks);
    await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .syncPlanComment */ .Of)(ctx, issue, run);
    return { started: true, run };
}
/** What a run needs before its start is written: a readable configuration, a model, the attempts asked for, the base, whether the last planner died, and admission. */
async function checksBeforeRun(ctx, ev) {
    const issue = ev.issue.number;
    try {
        await ctx.config();
    }
    catch (e) {
        if (e instanceof _config_schema__WEBPACK_IMPORTED_MODULE_0__/* .ConfigError */ .xL)
            throw new _context__WEBPACK_IMPORTED_MODULE_5__/* .CrewError */ .uH('reading the configuration', `${e.message}\n\nThe run did not start.`, `Fix \`.github/crew.yml\` on the default branch, then ${ctx.surface.give('run')} again.`);
        throw e;
    }
    ctx.model(); // fails now, with a clear message, if no key was given
    const config = await ctx.config();
    const attempts = runAttempts(ctx, config.attempts, ev.attempts);
    const baseBranch = ev.base?.branch ?? config.base_branch ?? (await ctx.forge.defaultBranch());
    // The base branch's head comes in the same answer as the state's first read (#31 §4).
    if (!ev.base?.sha)
        ctx.remote.expectHead?.(baseBranch);
    // Whether the run a PLANNING record belongs to has ended without planning: asked before the state write, outside it.
    const deadPlanners = new Set();
    const previous = await (0,_common__WEBPACK_IMPORTED_MODULE_6__/* .latestRun */ .hH)(ctx, issue);
    const baseSha = ev.base?.sha ?? (await ctx.remote.head(baseBranch));
    if (previous?.phase === 'PLANNING' && previous.trigger.workflowRunId && (await ctx.forge.workflowRunActive(previous.trigger.workflowRunId)) === false)
        deadPlanners.add(`${previous.run}`);
    const stalePlanning = (r) => r.phase === 'PLANNING' && deadPlanners.has(`${r.run}`);
    if (!baseSha)
        throw new _context__WEBPACK_IMPORTED_MODULE_5__/* .CrewError */ .uH('starting the run', `the base branch '${baseBranch}' does not exist or has no commits.`, `Push a first commit (or fix \`base_branch\` in \`.github/crew.yml\`), then ${ctx.surface.give('run')}.`);
    const now = (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx);
    // After the state's first read, from the same tip: the budgets and the rate cost no request (#52).
    const admit = await (0,_spend_gate__WEBPACK_IMPORTED_MODULE_8__/* .admission */ .at)(ctx, { by: ev.by, automatic: ev.trigger.how === 'ci' });
    return { attempts, baseBranch, baseSha, stalePlanning, now, admit };
}
/** The write that starts the run: this job's earlier run again, the issue's run still working, a refusal, or a new run with its request. */
async function writeStart(ctx, ev, mode, { attempts, baseBranch, baseSha, stalePlanning, now, admit }) {
    const issue = ev.issue.number;
    const { value: outcome } = await ctx.state.update(`issue-${issue}/`, `issue #${issue}: start a run`, (tx) => {
        const last = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .runNumbers */ .Sm)(tx, issue).at(-1);
        const lastRec = last !== undefined ? (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .readRun */ .cI)(tx, issue, last) : undefined;
        // The same comment again (a re-run of this job) continues its own run.
        if (lastRec && sameRequest(lastRec.trigger, ev.trigger))
            return { kind: 'existing', record: lastRec };
        if (lastRec && !(0,_domain_run_state__WEBPACK_IMPORTED_MODULE_2__/* .isTerminal */ .Hd)(lastRec.phase) && !stalePlanning(lastRec))
            return { kind: 'busy', record: lastRec };
        // A run whose planner died (its workflow run is over) is taken over, not refused.
        if (lastRec && stalePlanning(lastRec))
            return { kind: 'existing', record: lastRec };
        if (admit.kind === 'refused')
            return { kind: 'refused', admit };
        const k = (last ?? 0) + 1;
        const record = (0,_domain_run_state__WEBPACK_IMPORTED_MODULE_2__/* .newRunRecord */ .pB)({
            issue,
            run: k,
            mode,
            title: ev.issue.title,
            requestedBy: ev.by,
            trigger: ev.trigger,
            base: { branch: baseBranch, sha: baseSha, ...(ev.base?.pull ? { pull: ev.base.pull } : {}) },
            now,
            host: ctx.job ? 'actions' : 'local',
            attempts,
            ...(ev.followUp ? { followUp: { record: ev.followUp.record, pr: ev.followUp.pr } } : {}),
        });
        if (admit.kind === 'admit' && admit.warning)
            record.spendWarning = admit.warning;
        if (ev.followUp)
            tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.followUp(issue, k), `${JSON.stringify(ev.followUp.material, null, 2)}\n`);
        // The issue keeps one live plan comment: a follow-up takes over the comment of the run whose pull
        // request it continues, in this same write, so from here on only the newer run renders into it.
        const from = ev.followUp ? (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .readRun */ .cI)(tx, issue, ev.followUp.record.fromRun) : undefined;
        if (from && from.planCommentId !== null) {
            record.planCommentId = from.planCommentId;
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...from, planCommentPassedTo: k }, now);
        }
        // The request is taken from the event payload: what the issue said when the maintainer asked.
        tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.request(issue, k), `# ${ev.issue.title}\n\n${ev.issue.body}\n`);
        tx.write(_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .paths */ .f0.requestJson(issue, k), `${JSON.stringify({ title: ev.issue.title, body: ev.issue.body, ...(ev.comment ? { comment: ev.comment } : {}) }, null, 2)}\n`);
        return { kind: 'created', record: (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, record, now) };
    });
    return outcome;
}
/** "crew is already working on this issue", said where the run was asked. */
async function sayBusy(ctx, ev, r) {
    const issue = ev.issue.number;
    const what = r.phase === 'ESCALATING'
        ? 'waiting for answers to its questions'
        : r.phase === 'AWAITING_APPROVAL'
            ? `waiting for ${ctx.surface.command('approve')} or ${ctx.surface.command('revise')}`
            : r.phase.toLowerCase();
    const where = r.planCommentId ? ctx.surface.commentLink('the plan comment', ctx.forge.commentLink(issue, r.planCommentId)) : 'the plan comment';
    await ctx.forge.postComment(ev.replyOn ?? issue, ev.followUp?.record.source === 'ci'
        ? `CI failed on ${ev.base?.sha.slice(0, 7) ?? 'this pull request'} while crew is still working on issue #${issue} (run ${ctx.surface.runNumber(issue, r.run)}, ${what}). crew will look at this pull request's CI again when that run ends, and starts the fix (\`fix_ci\`) then if CI still fails; nothing is counted until it starts. Follow it in ${where}.`
        : ev.followUp
            ? `crew is still working on issue #${issue} (run ${ctx.surface.runNumber(issue, r.run)}, ${what}), so this follow-up did not start: two runs on one branch would push over each other. Follow it in ${where}, then ask again once it has finished; your review comments stay unresolved, so the next follow-up reads them.`
            : `crew is already working on this issue (run ${ctx.surface.runNumber(issue, r.run)}, ${what}). Follow it in ${where}; a new run can start once it has finished.`);
}
/** A run past a repository budget or the person's rate: one comment where it was asked, once an hour (the rate per person and issue, a budget per issue), then a 👎. */
async function sayRefused(ctx, ev, admit) {
    const on = ev.replyOn ?? ev.issue.number;
    ctx.log.info(`the run did not start: ${admit.why === 'budget' ? 'a repository budget is spent' : `@${ev.by} is past limits.runs_per_person_per_day`}`);
    // A review's id is not a comment's: only a comment in the conversation gets the 👎.
    const commentId = ev.trigger.commentId && !ev.trigger.how ? { commentId: ev.trigger.commentId } : {};
    // A budget's refusal is the repository's, not the person's: once an hour on the issue, whoever asks (#52).
    if (admit.why === 'budget')
        return (0,_permission__WEBPACK_IMPORTED_MODULE_7__/* .refuse */ .TR)(ctx, { issue: on, login: ev.by, window: _permission__WEBPACK_IMPORTED_MODULE_7__/* .REPOSITORY_BUDGET */ .z6, ...commentId }, admit.text);
    await (0,_permission__WEBPACK_IMPORTED_MODULE_7__/* .refuse */ .TR)(ctx, { issue: on, login: admit.login, ...commentId }, admit.text);
}
/**
 * Posts the run's plan comment once and has its id recorded. When this job is a repeat
 * (an earlier attempt may have posted before recording the id), it first looks for
 * the comment by marker and author. The id rides in the job's next write of the run
 * (state/pending-plan-comment.ts): every read shows it from here on, and the job's end
 * records it if no write came (recordHeldPlanComments).
 */
async function ensurePlanComment(ctx, issue, run, repeat) {
    // Right after the run's start was written.
    const view = await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .loadView */ .QJ)(ctx, issue, run, _context__WEBPACK_IMPORTED_MODULE_5__/* .SEEN */ .GL);
    if (view.run.planCommentId !== null)
        return;
    const found = repeat ? await ctx.forge.findComment(issue, (0,_render_plan_comment__WEBPACK_IMPORTED_MODULE_3__/* .planMarker */ .YH)(issue, run), await ctx.forge.botLogin()) : undefined;
    const ref = found ?? (await ctx.forge.postComment(issue, (0,_render_plan_comment__WEBPACK_IMPORTED_MODULE_3__/* .renderPlanComment */ .zk)(view, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .planLinks */ .FR)(ctx), ctx.surface)));
    // Posted but not yet recorded: a job that dies here leaves a comment only a search can find.
    if (!found)
        ctx.log.checkpoint('plan-comment-sent');
    if (ctx.planCommentIds)
        ctx.planCommentIds.hold(issue, run, ref.id);
    else
        await (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .updateRun */ .PF)(ctx, issue, run, `plan comment ${ref.id}`, (rec, tx) => {
            if (rec.planCommentId === null)
                (0,_state_run_files__WEBPACK_IMPORTED_MODULE_4__/* .writeRun */ .bp)(tx, { ...rec, planCommentId: ref.id }, (0,_context__WEBPACK_IMPORTED_MODULE_5__/* .nowIso */ .kF)(ctx));
        });
    ctx.log.checkpoint('plan-comment-posted');
}


/***/ }),

/***/ 76347:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  O9: () => (/* binding */ finish),
  a4: () => (/* binding */ recordJudgment),
  u1: () => (/* binding */ reportEndedRun)
});

// EXTERNAL MODULE: ./src/domain/judgment.ts
var domain_judgment = __webpack_require__(7882);
// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/render/report.ts
var render_report = __webpack_require__(56076);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
// EXTERNAL MODULE: ./src/domain/caps.ts
var caps = __webpack_require__(40095);
// EXTERNAL MODULE: ./src/steps/caps.ts
var steps_caps = __webpack_require__(75498);
// EXTERNAL MODULE: ./src/steps/merge.ts + 1 modules
var merge = __webpack_require__(70921);
// EXTERNAL MODULE: ./src/steps/ci-status.ts + 3 modules
var ci_status = __webpack_require__(99691);
// EXTERNAL MODULE: ./src/steps/cleanup.ts
var cleanup = __webpack_require__(42179);
;// CONCATENATED MODULE: ./src/steps/run-end.ts


/**
 * What follows every run's ending, in one order, whatever ended it (the critic's PASS in finish, its
 * tasks failing in advance, `/crew abort`): first the look at CI on its pull requests, then cleanup.
 * The look can merge a pull request (the merge gate reads the checks it found) or start fix_ci's
 * follow-up on its branch; cleanup run after it sees that: a pull request merged just now loses its
 * branches in this job, and a follow-up just started keeps its pull request's branches.
 */
async function afterRunEnded(ctx, issue, run) {
    // CI that completed while the run worked sent its event once, and found the run busy: crew looks now.
    await (0,ci_status/* lookAtCiWhenRunEnds */._)(ctx, issue, run);
    // Any run that ended for good since crew last looked (this one included, when the look merged it).
    await (0,cleanup.tidyUp)(ctx, issue);
}

// EXTERNAL MODULE: ./src/steps/retrospect.ts + 2 modules
var retrospect = __webpack_require__(12451);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/steps/plan-comment/sync.ts + 2 modules
var sync = __webpack_require__(28545);
// EXTERNAL MODULE: ./src/steps/follow-up.ts
var follow_up = __webpack_require__(25442);
// EXTERNAL MODULE: ./src/state/judgments.ts
var judgments = __webpack_require__(67164);
// EXTERNAL MODULE: ./src/domain/surface.ts
var surface = __webpack_require__(45759);
;// CONCATENATED MODULE: ./src/steps/finish.ts



















/** The worker's own text from a result file: the body between the title and the completion marker. */
function resultText(view, read) {
    const out = new Map();
    for (const t of (0,run_files/* planOf */.XC)(view).tasks) {
        const rec = view.tasks.get(t.id);
        const file = read(run_files/* paths */.f0.result(view.run.issue, view.run.run, t.id)) ?? '';
        const body = file
            .replace(/^---[\s\S]*?\n---\n/, '')
            .replace(/^\s*# Result of \S+\s*/, '')
            .replace(/<!-- COMPLETE -->\s*$/, '')
            .trim();
        const summary = rec?.summary ?? '';
        out.set(t.id, { id: t.id, summary, details: body.startsWith(summary) ? body.slice(summary.length).trim() : body });
    }
    return out;
}
/** report.md and report_summary.md on the state branch, with the run record's own changes, in one write. */
async function recordReport(ctx, view, report, judgment, startedAt, mutate) {
    const { issue, run } = view.run;
    const now = (0,context/* nowIso */.kF)(ctx);
    const outcome = (0,domain_judgment/* runOutcome */.CL)(view, judgment, view.run.review?.acceptedBy != null);
    const summary = (0,render_report/* renderReportSummary */.ZM)(view, outcome, judgment, { generatedBy: `crew v${version/* CREW_VERSION */.f}`, date: now.slice(0, 10) });
    await (0,context/* updateRun */.PF)(ctx, issue, run, `report (${outcome.status})`, (rec, tx) => {
        tx.write(run_files/* paths */.f0.report(issue, run), `${report}\n`);
        tx.write(run_files/* paths */.f0.reportSummary(issue, run), `${summary}\n`);
        (0,run_files/* writeRun */.bp)(tx, (0,run_state/* logPhase */.MH)(mutate(rec), 'aggregator', { model: null, started: startedAt, finished: now, status: 'success', retries: 0, error: null }), now);
        (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
}
/** The retrospective after a run ends; one that cannot be written must not undo the ending. */
async function retrospectAfter(ctx, issue, run, target) {
    try {
        await (0,retrospect/* retrospect */.o)(ctx, issue, run, false);
    }
    catch (e) {
        ctx.log.warn(`the retrospective failed: ${e.message}`);
        const again = ctx.surface.give('retro');
        await ctx.forge
            .postComment(target, `crew could not post the retrospective of run ${ctx.surface.runNumber(issue, run)}: ${(0,sanitize/* sanitize */.a)(e.message, 500)}. The run itself is not affected.${again ? ` ${(0,surface/* sentence */.em)(again)} on #${issue} to try again.` : ''}`)
            .catch((post) => ctx.log.warn(`the comment saying so could not be posted either (${post.message}); comment \`/crew retro\` on #${issue} to try again`));
    }
}
/** A judgment in a write of its own: a FAIL, or a PASS no pull request follows (a re-run must not judge again). */
async function recordJudgment(ctx, issue, run, j) {
    await (0,context/* updateRun */.PF)(ctx, issue, run, j.what, (rec, tx) => {
        j.files(tx);
        (0,run_files/* writeRun */.bp)(tx, j.run(rec), (0,context/* nowIso */.kF)(ctx));
        (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
    ctx.log.checkpoint('judged');
}
/**
 * After the critic's PASS (or a person's `/crew accept`): the pull request, created or
 * updated idempotently by its head branch, its labels, the report as its first comment,
 * report.md and report_summary.md on the state branch, the job summary, the plan comment.
 * `judged` is the critic's PASS when it is not on crew/state yet (`view` shows it already).
 */
async function finish(ctx, view, judgment, judged) {
    const { issue, run } = view.run;
    const startedAt = (0,context/* nowIso */.kF)(ctx);
    const prefix = `${(0,refs/* runFolder */.kQ)(issue, run)}/`;
    const config = await ctx.config();
    const acceptedBy = view.run.review?.acceptedBy ?? null;
    // The results the view names; the pull request is found on GitHub, and recorded by a compare-and-swap.
    const snap = await ctx.state.load(prefix, context/* SEEN */.GL);
    const results = resultText(view, (p) => snap.read(p));
    const links = (0,context/* planLinks */.FR)(ctx);
    const reportLink = links.stateFile(run_files/* paths */.f0.report(issue, run));
    const body = (0,markdown/* capBody */.vE)((0,render_report/* renderPullBody */.Gn)(view, results, judgment, acceptedBy), reportLink);
    const branch = (0,context/* integrationBranchOf */.c1)(ctx, view.run);
    // The pull request, its report comment and the retrospective, counted when the PR is recorded below.
    const creates = { pull_requests: 1, comments: config.retrospect.enabled ? 2 : 1 };
    let opened;
    try {
        opened = await openPull(ctx, view, body, branch, creates);
    }
    catch (e) {
        // No pull request this time (a 403, a closed one, caps, GitHub failing): the PASS is kept, so `/crew resume` does not judge again.
        if (judged)
            await recordJudgment(ctx, issue, run, judged).catch((w) => ctx.log.warn(`the critic's PASS could not be recorded either (${w.message}); the critic judges again when the run is resumed`));
        throw e;
    }
    const { pr, existed } = opened;
    ctx.log.checkpoint('pr-opened');
    const notes = [];
    for (const label of config.pr_labels) {
        try {
            await ctx.forge.addLabel(pr.number, label);
        }
        catch (e) {
            ctx.log.warn(`could not add the label '${label}' to #${pr.number}: ${e.message}`);
            notes.push(`crew could not add the label \`${label}\` (from \`pr_labels\`) to this pull request: ${(0,sanitize/* sanitize */.a)(e.message, 300)}`);
        }
    }
    // The critic's PASS rides in this write: a crash before it costs a second judgment (the critic's model call)
    // on the re-run, which finds this pull request again by its head branch rather than opening another.
    await (0,context/* updateRun */.PF)(ctx, issue, run, judged ? `${judged.what}; PR #${pr.number}` : `PR #${pr.number}`, (rec, tx) => {
        if (rec.pr?.number === pr.number && !judged)
            return;
        judged?.files(tx);
        const next = judged ? judged.run(rec) : rec;
        (0,run_files/* writeRun */.bp)(tx, rec.pr?.number === pr.number
            ? next
            : { ...next, pr: { number: pr.number, url: pr.url, reportCommentId: null }, posted: rec.pr ? next.posted : (0,caps/* addPosted */.DG)(next.posted, creates) }, (0,context/* nowIso */.kF)(ctx));
        if (judged)
            (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
    if (judged)
        ctx.log.checkpoint('judged');
    // The merge gate runs before the report, so the report says whether crew merged and why (not).
    const loaded = await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL);
    const mergeState = await (0,merge.decideMerge)(ctx, loaded, pr.number);
    const current = { ...loaded, run: { ...loaded.run, merge: mergeState } };
    const report = (0,render_report/* renderReport */.B1)(await (0,sync/* withPullsCiAttempts */.r)(ctx, current), results, links, judgment, acceptedBy, {
        notes,
        earlier: await (0,judgments/* earlierJudgments */.A)(ctx.state, current),
    });
    // A PR crew just created has no comments to search.
    let reportId = current.run.pr?.reportCommentId ??
        (existed ? (await ctx.forge.findComment(pr.number, (0,render_report/* reportMarker */.lO)(issue, run), await ctx.forge.botLogin()))?.id : undefined);
    if (reportId)
        await ctx.forge.updateComment(reportId, (0,markdown/* capBody */.vE)(report, reportLink));
    else
        reportId = (await ctx.forge.postComment(pr.number, (0,markdown/* capBody */.vE)(report, reportLink))).id;
    ctx.log.checkpoint('report-posted');
    await recordReport(ctx, current, report, judgment, startedAt, (rec) => ({
        ...rec,
        phase: 'COMPLETED',
        merge: mergeState,
        pr: { number: pr.number, url: pr.url, reportCommentId: reportId },
    }));
    // A report left on the issue by an earlier ending of this run (it failed, then was retried) points on to the PR's.
    if (current.run.issueReportCommentId)
        await ctx.forge.updateComment(current.run.issueReportCommentId, `${(0,render_report/* reportMarker */.lO)(issue, run)}\nRun ${run} failed earlier and was carried on; it completed, and its report is now on ${pr.url}.`);
    await ctx.summary(report);
    // A follow-up answers in each review thread it addressed, naming the commit the critic passed.
    if (current.run.followUp && judgment?.verdict === 'PASS')
        await (0,follow_up/* replyInThreads */.Z)(ctx, current, judgment.headSha);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    await retrospectAfter(ctx, issue, run, pr.number);
    // The CI look, then cleanup (merged now: its branches can go).
    await afterRunEnded(ctx, issue, run);
}
/** The run's pull request, found by its head branch and updated, or created. */
async function openPull(ctx, view, body, branch, creates) {
    const found = await ctx.forge.findOpenPull(branch, view.run.base.branch);
    if (!found && view.run.followUp)
        throw new context/* CrewError */.uH('updating the pull request', `pull request #${view.run.followUp.pull} is no longer open, so follow-up ${view.run.followUp.k} cannot update it. Its work is on \`${branch}\`${view.run.review?.headSha ? ` (${view.run.review.headSha.slice(0, 7)})` : ''}.`, `Reopen the pull request, then ${ctx.surface.give('resume')}; or ${ctx.surface.give('run')} for a new one.`);
    if (!found && view.run.pr === null)
        await (0,steps_caps/* ensureRoom */.WG)(ctx, view.run, creates);
    try {
        if (found) {
            await ctx.forge.updatePull(found.number, { body });
            return { pr: found, existed: true };
        }
        return { pr: await ctx.forge.createPull({ title: view.run.title, body, head: branch, base: view.run.base.branch }), existed: false };
    }
    catch (e) {
        if (e instanceof ports/* PullRequestsNotAllowed */.dZ) {
            const head = view.run.review?.headSha?.slice(0, 7) ?? '';
            throw new context/* CrewError */.uH('opening the pull request', `${e.message} The integrated work is on branch \`${branch}\`${head ? ` (${head})` : ''}.`, `Change the setting (or pass a GitHub App or personal token as \`github_token\`), then ${ctx.surface.give('resume')}: crew opens the pull request from the branch it kept, without judging again.`);
        }
        throw e;
    }
}
/**
 * A run that ended without a pull request (its tasks failed, or it was aborted) still gets
 * its report: report.md and report_summary.md (status failure), the report as a comment on
 * the issue (the PR, if an earlier round opened one), the job summary, and the
 * retrospective, which is full for such a run. Then what follows every run's end (run-end.ts):
 * the look at CI on its pull requests (a failed follow-up leaves its pull request as it was), then cleanup.
 */
async function reportEndedRun(ctx, issue, run, why) {
    const startedAt = (0,context/* nowIso */.kF)(ctx);
    const view = await (0,context/* loadView */.QJ)(ctx, issue, run);
    if (!view.plan)
        return ctx.log.info(`run ${run} ended before it had a plan; there is nothing to report`);
    const snap = await ctx.state.load(`${(0,refs/* runFolder */.kQ)(issue, run)}/`);
    const judgment = await (0,judgments/* lastJudgment */.n)(ctx.state, view);
    const links = (0,context/* planLinks */.FR)(ctx);
    const report = (0,render_report/* renderReport */.B1)(view, resultText(view, (p) => snap.read(p)), links, judgment, null, { ended: why });
    const body = (0,markdown/* capBody */.vE)(report, links.stateFile(run_files/* paths */.f0.report(issue, run)));
    const target = view.run.pr?.number ?? issue;
    let id = view.run.issueReportCommentId ?? undefined;
    if (id)
        await ctx.forge.updateComment(id, body);
    else
        id = (await ctx.forge.postComment(target, body)).id;
    await recordReport(ctx, view, report, judgment, startedAt, (rec) => ({ ...rec, issueReportCommentId: id }));
    await ctx.summary(report);
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
    await retrospectAfter(ctx, issue, run, target);
    // CI on its pull requests, then cleanup: this run keeps its branches for `cleanup.unfinished_days`; older ended runs may go now.
    await afterRunEnded(ctx, issue, run);
}


/***/ }),

/***/ 25442:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   R: () => (/* binding */ startFollowUp),
/* harmony export */   Z: () => (/* binding */ replyInThreads)
/* harmony export */ });
/* harmony import */ var _domain_follow_up__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(75933);
/* harmony import */ var _domain_commands__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(80488);
/* harmony import */ var _domain_refs__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(92);
/* harmony import */ var _state_run_files__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(24742);
/* harmony import */ var _text_sanitize__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(64212);
/* harmony import */ var _domain_images__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(99696);
/* harmony import */ var _caps__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(75498);
/* harmony import */ var _commands_start__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(52478);
/* harmony import */ var _context__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(33732);









/** Review text's limits on the way to a prompt: each comment, each hunk, the feedback. */
const COMMENT_CHARS = 2_000;
const HUNK_CHARS = 1_500;
const FEEDBACK_CHARS = 6_000;
/**
 * The one entry point for a follow-up run: crew's open pull request gets new commits on its own
 * branch for the feedback, every unresolved review thread a writer took part in, and the stated
 * criteria, judged with all the pull request's criteria again; the same pull request, report
 * comment and issue are updated. A comment on the pull request says why when it cannot start
 * (closed, not crew's, a run of the issue still active, nothing asked), and it returns not started.
 */
async function startFollowUp(ctx, req) {
    const pull = await ctx.forge.getPull(req.pull);
    const own = (0,_domain_refs__WEBPACK_IMPORTED_MODULE_2__/* .runOfIntegrationBranch */ .$o)(pull.headRef);
    if (!own || pull.fromFork) {
        await ctx.forge.postComment(req.pull, `This pull request's branch (\`${pull.headRef}\`) is not one crew opened, so crew does not follow up on it.`);
        return { started: false };
    }
    const issue = own.issue;
    if (pull.state !== 'open') {
        await ctx.forge.postComment(req.pull, `This pull request is ${pull.merged ? 'merged' : 'closed'}, so crew does not follow up on it. Comment \`/crew run\` on issue #${issue} to start a new run, which opens a new pull request.`);
        return { started: false };
    }
    const from = await pullsRun(ctx, issue, req.pull);
    if (!from?.view.plan) {
        await ctx.forge.postComment(req.pull, `crew has no finished run of issue #${issue} with this pull request on its state branch, so it cannot follow up here. Comment \`/crew run\` on issue #${issue} to start a new run.`);
        return { started: false };
    }
    const { threads, leftOut } = await writersThreads(ctx, req.pull);
    const material = {
        feedback: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(req.feedback, FEEDBACK_CHARS),
        criteria: (req.criteria ?? []).map((c) => (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(c, 500)).filter(Boolean),
        threads: threads.map((t) => t.material),
        kept: from.view.plan.criteria,
        leftOut,
        source: req.source,
        images: (0,_domain_images__WEBPACK_IMPORTED_MODULE_5__/* .foundImages */ .Lh)([
            { shown: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .renderedMarkup */ .Q)(req.feedback), in: (0,_domain_images__WEBPACK_IMPORTED_MODULE_5__/* .triggerText */ .GA)(req.trigger, req.pull) },
            ...threads.flatMap((t) => t.said).map((words) => ({ shown: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .renderedMarkup */ .Q)(words), in: { kind: 'review-comments', pull: req.pull } })),
        ]),
    };
    if (!(0,_domain_follow_up__WEBPACK_IMPORTED_MODULE_0__/* .followUpItems */ .Fz)(material).length) {
        await ctx.forge.postComment(req.pull, 'crew found nothing to follow up on: no words after the command and no unresolved review comment by someone with write access. Say what to change, for example `/crew fix rename the option to --dry-run`, or leave review comments first.');
        return { started: false };
    }
    const k = (from.view.run.followUp?.k ?? 0) + 1;
    const request = from.request ?? { title: from.view.run.title, body: '' };
    const record = {
        pull: req.pull,
        k,
        fromRun: from.view.run.run,
        branch: pull.headRef,
        source: req.source,
        reviewedSha: from.view.run.followUp?.reviewedSha ?? from.view.run.base.sha,
        crewHead: from.view.run.review?.headSha ?? null,
        threads: threads.map((t) => t.record),
        added: [],
    };
    const pr = from.view.run.pr;
    return (0,_commands_start__WEBPACK_IMPORTED_MODULE_7__/* .startRun */ .AD)(ctx, {
        issue: { number: issue, title: request.title, body: request.body },
        by: req.by,
        trigger: req.trigger,
        // A follow-up of a stacked run (crew's pull request into a person's branch) stays stacked: never merged into it by crew.
        base: { branch: pull.baseRef, sha: pull.headSha, ...(from.view.run.base.pull ? { pull: from.view.run.base.pull } : {}) },
        followUp: { record, pr, material },
        replyOn: req.pull,
        onCreated: (run) => announce(ctx, pull, req, { issue, run, k, threads: threads.length, handPushed: (0,_domain_follow_up__WEBPACK_IMPORTED_MODULE_0__/* .handPushed */ .Bw)(record, pull.headSha) }),
        ...(req.dispatch ? { dispatch: true } : {}),
    }, 'run');
}
/** The newest run of the issue with this pull request, its view and the first run's request (what the issue said). */
async function pullsRun(ctx, issue, pull) {
    const snap = await ctx.state.load(`issue-${issue}/`);
    for (const k of [...(0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .runNumbers */ .Sm)(snap, issue)].reverse()) {
        const rec = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .readRun */ .cI)(snap, issue, k);
        if (rec?.pr?.number !== pull)
            continue;
        const view = (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .readView */ .Ml)(snap, issue, k);
        if (!view)
            return undefined;
        return { view, request: (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .parseJson */ .qF)(snap, _state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .paths */ .f0.requestJson(issue, k)) };
    }
    return undefined;
}
/**
 * The unresolved review threads, each with the comments people with write access wrote in it
 * (collaborator-permission check, once per login per job; a failed check leaves the comment out),
 * sanitised like issue text. crew's own replies and bots' comments are left out; a `/crew` line
 * counts for the words after the command.
 */
async function writersThreads(ctx, pull) {
    const all = (await ctx.forge.reviewThreads?.(pull)) ?? [];
    const me = (await ctx.forge.botLogin()).toLowerCase();
    const writer = new Map();
    const isWriter = async (login) => {
        const key = login.toLowerCase();
        if (!writer.has(key)) {
            const p = await ctx.forge.permissionOf(login).catch((e) => {
                ctx.log.warn(`the permission check for @${login} failed (${e instanceof Error ? e.message : String(e)}); their review comments are left out`);
                return 'none';
            });
            writer.set(key, p === 'admin' || p === 'write');
        }
        return writer.get(key);
    };
    const out = [];
    let open = 0;
    for (const t of all.filter((x) => !x.resolved)) {
        const said = [];
        const raw = [];
        for (const c of t.comments) {
            if (c.author.type !== 'User' || c.author.login.toLowerCase() === me || !(await isWriter(c.author.login)))
                continue;
            const words = c.body.trimStart().startsWith('/crew') ? (0,_domain_commands__WEBPACK_IMPORTED_MODULE_1__/* .commandText */ .jt)(c.body) : c.body;
            const body = (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(words, COMMENT_CHARS);
            if (body)
                said.push({ author: c.author.login, body });
            raw.push(words);
        }
        if (!said.length)
            continue;
        open++;
        if (out.length >= _domain_follow_up__WEBPACK_IMPORTED_MODULE_0__/* .MAX_THREADS */ .J$)
            continue;
        const first = t.comments[0];
        const path = (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(first.path, 300);
        out.push({
            record: { rootId: t.rootId, path, line: first.line, replied: false },
            material: { rootId: t.rootId, path, line: first.line, diffHunk: (0,_text_sanitize__WEBPACK_IMPORTED_MODULE_4__/* .sanitize */ .a)(first.diffHunk, HUNK_CHARS), comments: said },
            said: raw,
        });
    }
    return { threads: out, leftOut: open - out.length };
}
/** The note on the pull request that the follow-up started, with where to follow it. */
async function announce(ctx, pull, req, a) {
    const view = await (0,_context__WEBPACK_IMPORTED_MODULE_8__/* .loadView */ .QJ)(ctx, a.issue, a.run);
    const where = view.run.planCommentId
        ? ctx.surface.commentLink('the plan comment', ctx.forge.commentLink(a.issue, view.run.planCommentId))
        : `issue #${a.issue}`;
    const checks = req.criteria?.length ?? 0;
    const asked = req.why
        ? `${req.why} The failed check${checks === 1 ? '' : 's'}${a.threads ? ` and ${a.threads} unresolved review thread${a.threads === 1 ? '' : 's'}` : ''}`
        : `asked by @${req.by}: ${a.threads ? `your words and ${a.threads} unresolved review thread${a.threads === 1 ? '' : 's'}` : 'your words'}`;
    const become = req.why && checks === 1 && !a.threads ? 'becomes a new done criterion' : 'become new done criteria';
    const lines = [
        `crew starts follow-up ${a.k} on this pull request (run ${ctx.surface.runNumber(a.issue, a.run)} of #${a.issue})${req.why ? '. ' : ', '}${asked} ${become} next to the earlier ones, and the critic judges them all again. New commits go on \`${pull.headRef}\`; nothing is force-pushed. Follow it in ${where}.`,
    ];
    if (a.handPushed)
        lines.push('', `The branch has commits crew did not make (its head is ${pull.headSha.slice(0, 7)}); the follow-up starts from them and keeps them. The critic's earlier pass no longer counts for merging: only a pass on the new head does.`);
    await (0,_caps__WEBPACK_IMPORTED_MODULE_6__/* .spend */ .Rf)(ctx, a.issue, a.run, { comments: 1 });
    await ctx.forge.postComment(req.pull, lines.join('\n'));
}
/**
 * After the critic passed a follow-up: a reply in every review thread it addressed, naming the
 * commit on the branch that addresses it, once each (recorded, so a re-run does not reply twice).
 * crew resolves no thread: people do.
 */
async function replyInThreads(ctx, view, headSha) {
    const f = view.run.followUp;
    if (!f)
        return;
    const { issue, run } = view.run;
    for (const t of f.threads.filter((x) => !x.replied)) {
        try {
            await ctx.forge.replyInThread?.(f.pull, t.rootId, `Addressed in ${headSha} (follow-up ${f.k}, run ${ctx.surface.runNumber(issue, run)} of #${issue}); the critic judged it with every other criterion. Resolve this thread if you agree.`);
        }
        catch (e) {
            ctx.log.warn(`could not reply in the review thread ${t.rootId}: ${e.message}`);
            continue;
        }
        await (0,_context__WEBPACK_IMPORTED_MODULE_8__/* .updateRun */ .PF)(ctx, issue, run, `replied in review thread ${t.rootId}`, (rec, tx) => {
            if (!rec.followUp)
                return;
            (0,_state_run_files__WEBPACK_IMPORTED_MODULE_3__/* .writeRun */ .bp)(tx, { ...rec, followUp: { ...rec.followUp, threads: rec.followUp.threads.map((x) => (x.rootId === t.rootId ? { ...x, replied: true } : x)) } }, (0,_context__WEBPACK_IMPORTED_MODULE_8__/* .nowIso */ .kF)(ctx));
        });
    }
}


/***/ }),

/***/ 60016:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   n: () => (/* binding */ planRun)
/* harmony export */ });
/**
 * planRun (planning.ts), loaded when a command plans: planning brings the agents, the sandbox and
 * the egress proxy, which a route job that answers a comment without planning does not parse.
 */
async function planRun(...args) {
    return (await Promise.all(/* import() */[__webpack_require__.e(384), __webpack_require__.e(571)]).then(__webpack_require__.bind(__webpack_require__, 73571))).planRun(...args);
}


/***/ }),

/***/ 12451:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  k: () => (/* binding */ remember),
  o: () => (/* binding */ retrospect)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 4 modules
var schemas = __webpack_require__(41514);
// EXTERNAL MODULE: ./src/domain/knowledge.ts
var knowledge = __webpack_require__(76872);
// EXTERNAL MODULE: ./src/agents/submission.ts
var submission = __webpack_require__(22180);
;// CONCATENATED MODULE: ./src/agents/retrospector.ts



const Score = schemas/* int */.Whr().min(1).max(5);
const RetroSchema = schemas/* object */.Ikc({
    summary: schemas/* string */.YjP().trim().min(1),
    went_well: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    went_wrong: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    proposals: schemas/* array */.YOg(schemas/* object */.Ikc({
        kind: schemas/* enum */.k5n(['improvement', 'skill']),
        title: schemas/* string */.YjP().trim().min(1),
        body: schemas/* string */.YjP(),
        recurrence: Score,
        impact: Score,
        generality: Score,
        feasibility: Score,
    }))
        .default([]),
    memory_candidates: schemas/* array */.YOg(schemas/* object */.Ikc({
        type: schemas/* enum */.k5n(knowledge/* KNOWLEDGE_TYPES */.F),
        content: schemas/* string */.YjP().trim().min(1),
        confidence: schemas/* number */.aig().min(0).max(1),
    }))
        .max(5)
        .default([]),
});
const FOCUS = {
    full: 'Mode: full. Look for what to change: improvements to the process and at most a skill.',
    light: 'Mode: light. The run went well: propose only reusable skills.',
};
/** The model half of the retrospective: what went well and wrong, scored proposals, and memory candidates. */
async function runRetrospector(model, input, log, trajectory) {
    const { value, usage } = await (0,submission/* askForSubmission */.dA)({
        model,
        modelId: input.modelId,
        system: input.system,
        firstMessage: [FOCUS[input.mode], '', input.facts].join('\n'),
        log,
        trajectory,
        tool: { name: 'submit_retrospective', description: 'Submit the retrospective of the run: summary, proposals and memory candidates.', schema: RetroSchema },
    });
    return {
        summary: value.summary,
        wentWell: value.went_well,
        wentWrong: value.went_wrong,
        proposals: value.proposals,
        memory: value.memory_candidates,
        usage,
    };
}

// EXTERNAL MODULE: ./src/domain/judgment.ts
var judgment = __webpack_require__(7882);
// EXTERNAL MODULE: ./src/domain/refs.ts
var refs = __webpack_require__(92);
// EXTERNAL MODULE: ./src/text/markdown.ts
var markdown = __webpack_require__(86590);
// EXTERNAL MODULE: ./src/text/inert.ts
var inert = __webpack_require__(68983);
;// CONCATENATED MODULE: ./src/domain/retrospective.ts


/** Full when something went wrong (or a person asked with `/crew retro`); light after a clean run. */
function retroMode(o, forced) {
    if (forced)
        return 'full';
    if (o.status === 'failure' || o.status === 'partial')
        return 'full';
    if (o.quality === 'RED')
        return 'full';
    if (o.quality === 'YELLOW' && o.completeness < 80)
        return 'full';
    if (o.failedTasks.length > 0)
        return 'full';
    return 'light';
}
/** Below this a proposal is discarded; between it and the threshold, held. */
const HOLD_FLOOR = 2.5;
/** recurrence 30%, impact 30%, generality 20%, feasibility 20%, to two decimals. */
function proposalScore(p) {
    // Weights in hundredths, so integer scores give an exact result with no float noise.
    return Math.round(p.recurrence * 30 + p.impact * 30 + p.generality * 20 + p.feasibility * 20) / 100;
}
function classify(score, threshold) {
    if (score >= threshold)
        return 'adopt';
    if (score >= HOLD_FLOOR)
        return 'hold';
    return 'discard';
}
/**
 * Scores and sorts the proposals, then applies the caps to the adopted ones: a
 * proposal that scores high enough but is over its cap (or an improvement in light
 * mode) is held, not discarded. Each list is sorted by score, highest first.
 */
function selectProposals(proposals, mode, caps, threshold) {
    const limits = mode === 'full' ? { improvement: caps.full.max_improvements, skill: caps.full.max_skills } : { improvement: 0, skill: caps.light.max_skills };
    const taken = { improvement: 0, skill: 0 };
    const out = { adopted: [], held: [], discarded: [] };
    const scored = proposals.map((p) => ({ ...p, score: proposalScore(p) })).sort((a, b) => b.score - a.score);
    for (const p of scored) {
        const decision = classify(p.score, threshold);
        if (decision === 'adopt' && taken[p.kind] < limits[p.kind]) {
            taken[p.kind]++;
            out.adopted.push({ ...p, decision });
        }
        else if (decision === 'discard')
            out.discarded.push({ ...p, decision });
        else
            out.held.push({ ...p, decision: 'hold' });
    }
    return out;
}
const MAX_KNOWLEDGE_CHARS = 500;
/** One line of text, at most 500 characters, as a knowledge entry stores it. */
function knowledgeContent(text) {
    return text
        .trim()
        .replace(/\s*[\r\n]+\s*/g, ' ')
        .slice(0, MAX_KNOWLEDGE_CHARS)
        .trimEnd();
}
const clampConfidence = (c) => (Number.isFinite(c) ? Math.max(0, Math.min(1, c)) : 0);
function knowledgeEntry(c, source, createdAt) {
    return { type: c.type, content: knowledgeContent(c.content), source, confidence: clampConfidence(c.confidence), created_at: createdAt };
}
function retroMarker(issue, run) {
    return (0,markdown/* hiddenMarker */.z0)('retro', { issue, run });
}
/** Kept well under GitHub's 65,536-character limit for a comment. */
const RETRO_LIMIT = 60_000;
const MAX_ITEMS = 20;
const oneLine = (text) => text.trim().replace(/\s*[\r\n]+\s*/g, ' ');
// Model text, cut, then made inert: no mention, image, markup (an HTML comment could pass for crew's marker) or closing keyword.
const clip = (text, max) => {
    const t = text.trim();
    return (0,inert/* inert */.tJ)(t.length > max ? `${t.slice(0, max - 1)}…` : t);
};
const list = (heading, items) => {
    const kept = items.map(oneLine).filter(Boolean);
    if (!kept.length)
        return [];
    const extra = kept.length - MAX_ITEMS;
    return [`### ${heading}`, ...kept.slice(0, MAX_ITEMS).map((i) => `- ${clip(i, 500)}`), ...(extra > 0 ? [`- …and ${extra} more`] : []), ''];
};
const row = (p) => `| ${p.decision === 'adopt' ? '✅ adopt' : '⏸ hold'} | ${p.kind} | **${clip((0,markdown/* cell */.Hn)(p.title), 200)}**: ${clip((0,markdown/* cell */.Hn)(p.body), 800)} | ${p.score.toFixed(2)} |`;
function body(r, ctx) {
    const listed = [...r.adopted, ...r.held];
    const shown = listed.slice(0, MAX_ITEMS);
    const lines = [
        `## crew retrospective · run ${ctx.run} (${r.mode})`,
        '',
        clip(r.summary, 4000),
        '',
        ...list('What went well', r.wentWell),
        ...list('What went wrong', r.wentWrong),
    ];
    if (listed.length || r.discarded.length) {
        lines.push('### Proposals', '');
        if (shown.length)
            lines.push('| Decision | Kind | Proposal | Score |', '|---|---|---|---|', ...shown.map(row), '');
        if (listed.length > shown.length)
            lines.push(`…and ${listed.length - shown.length} more held.`, '');
        const n = r.discarded.length;
        if (n)
            lines.push(`${n}${shown.length ? ' other' : ''} proposal${n === 1 ? '' : 's'} scored too low and ${n === 1 ? 'was' : 'were'} discarded.`, '');
    }
    if (r.memory.length) {
        lines.push('### Memory candidates', '', ...r.memory.map((m, i) => `${i + 1}. [${m.type}] ${clip(knowledgeContent(m.content), MAX_KNOWLEDGE_CHARS)} (confidence ${Number(clampConfidence(m.confidence).toFixed(2))})`), '', 'A maintainer can comment `/crew remember <n>` to add one to `.github/crew/knowledge.jsonl` through a small pull request.');
    }
    const text = lines.join('\n').trimEnd();
    if (text.length <= RETRO_LIMIT)
        return text;
    const note = '\n\n…the rest is cut to fit a comment.';
    const room = RETRO_LIMIT - note.length - 100;
    const cut = text.lastIndexOf('\n', room);
    return `${text.slice(0, cut > 0 ? cut : room)}${note}`;
}
/** The PR comment: a hidden marker first, so crew can find and update it. */
function renderRetrospective(r, ctx) {
    return `${retroMarker(ctx.issue, ctx.run)}\n${body(r, ctx)}`;
}
/** The state file retrospective.md. */
function renderRetrospectiveMd(r, ctx) {
    return `${body(r, ctx)}\n`;
}

// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/state/knowledge.ts
var state_knowledge = __webpack_require__(93581);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
// EXTERNAL MODULE: ./src/text/sanitize.ts
var sanitize = __webpack_require__(64212);
// EXTERNAL MODULE: ./src/steps/caps.ts
var caps = __webpack_require__(75498);
// EXTERNAL MODULE: ./src/steps/context.ts
var context = __webpack_require__(33732);
// EXTERNAL MODULE: ./src/agents/run-budget.ts
var run_budget = __webpack_require__(2909);
// EXTERNAL MODULE: ./src/steps/budget-stop.ts
var budget_stop = __webpack_require__(8811);
// EXTERNAL MODULE: ./src/render/budget-stop.ts
var render_budget_stop = __webpack_require__(35720);
// EXTERNAL MODULE: ./src/domain/surface.ts
var surface = __webpack_require__(45759);
// EXTERNAL MODULE: ./src/render/cost.ts
var cost = __webpack_require__(25659);
;// CONCATENATED MODULE: ./src/steps/retrospect.ts



















/** What the retrospector reads: the run as crew recorded it, as data. */
function facts(view, judgments) {
    const plan = view.plan;
    const total = (0,run_state/* totalUsage */.GG)(view);
    const lines = [
        `## Request: ${(0,sanitize/* sanitize */.a)(view.run.title, 300)}`,
        plan ? (0,sanitize/* sanitize */.a)(plan.summary, 2000) : '(no plan)',
        '',
        '## Tasks',
        ...(plan?.tasks ?? []).map((t) => {
            const r = view.tasks.get(t.id);
            return `- ${t.id} ${(0,sanitize/* sanitize */.a)(t.title, 200)} (${t.persona}, ${t.tier}): ${r?.status ?? 'pending'}, ${r?.attempts ?? 0} attempt(s), ${r?.turns ?? 0} turns${r?.error ? `; error: ${(0,sanitize/* sanitize */.a)(r.error, 400)}` : ''}${r?.summary ? `; reported: ${(0,sanitize/* sanitize */.a)(r.summary.split('\n')[0], 300)}` : ''}`;
        }),
        '',
        '## Critic judgments',
        ...(judgments.length
            ? judgments.map((j) => `- iteration ${j.iteration}: ${j.verdict}${(0,judgment/* failingEvaluations */.Wx)(j).length
                ? `; not met: ${(0,judgment/* failingEvaluations */.Wx)(j)
                    .map((e) => `${e.criterion} (${(0,sanitize/* sanitize */.a)(e.evidence[0] ?? e.error ?? '', 200)})`)
                    .join('; ')}`
                : ''}${j.adversarial.length ? `; findings: ${j.adversarial.map((f) => f.rule).join(', ')}` : ''}`)
            : ['(the critic did not judge this run)']),
        '',
        `## Outcome: phase ${view.run.phase}${view.run.failure ? `, failed in ${view.run.failure.step}: ${(0,sanitize/* sanitize */.a)(view.run.failure.message, 400)}` : ''}${view.run.review?.acceptedBy ? `, accepted by a maintainer despite a FAIL` : ''}`,
        `Usage: ${total.inputTokens} input tokens (${total.cacheReadTokens} from cache), ${total.outputTokens} output, about $${total.costUsd.toFixed(2)}`,
    ];
    return lines.join('\n');
}
async function judgmentsOf(ctx, view) {
    const n = view.run.review?.iteration ?? 0;
    if (!n)
        return [];
    const snap = await ctx.state.load(`${(0,refs/* runFolder */.kQ)(view.run.issue, view.run.run)}/`, context/* SEEN */.GL);
    return Array.from({ length: n }, (_, i) => (0,run_files/* parseJson */.qF)(snap, run_files/* paths */.f0.judgment(view.run.issue, view.run.run, i + 1))).filter((j) => !!j);
}
/**
 * Phase 4: the retrospective. Full after a failure, a partial result or a weak one (or on
 * `/crew retro`), light otherwise. Posted on the PR (the issue when there is none), linked
 * from the plan comment, and kept as retrospective.md and .json on the state branch.
 * `replace`: the note of a retrospective skipped at the budget, which this one takes the place of.
 */
async function retrospect(ctx, issue, run, forced, replace) {
    const config = await ctx.config();
    if (!config.retrospect.enabled && !forced)
        return ctx.log.info('retrospect.enabled is off; no retrospective');
    // After the run's last write in this job, that write's tip; a `/crew retro` job's first read asks GitHub.
    const view = await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL);
    // A repeat of the finishing job does not write a second one; `/crew retro` always does, and so
    // does a run that ended again differently (failed, then retried to completion): it is replaced in place.
    if (view.run.retro && view.run.retro.phase === view.run.phase && !forced)
        return ctx.log.info('the retrospective of this run is already posted');
    if (view.run.retroAtBudget?.phase === view.run.phase && !forced && replace === undefined)
        return ctx.log.info("the retrospective of this run was skipped at the run's budget already");
    // A note left where a retrospective skipped at the budget would have been: this one (or the next note) takes its place,
    // unless the run has ended differently since (the note may be on the issue, the run now on its pull request).
    const note = replace ?? (view.run.retroAtBudget?.phase === view.run.phase ? view.run.retroAtBudget.commentId : undefined);
    const judgments = await judgmentsOf(ctx, view);
    const outcome = (0,judgment/* runOutcome */.CL)(view, judgments.at(-1) ?? null, !!view.run.review?.acceptedBy);
    const mode = retroMode(outcome, forced);
    const target = view.run.pr?.number ?? issue;
    const startedAt = (0,context/* nowIso */.kF)(ctx);
    let out;
    try {
        out = await runRetrospector(await (0,context/* runModel */.L4)(ctx, view, 'retrospector'), { modelId: config.models[config.retrospect.model], system: await ctx.template('retrospector'), mode, facts: facts(view, judgments) }, ctx.log, (0,context/* agentRun */.Vv)(ctx, { agent: 'retrospector', model: config.models[config.retrospect.model] }));
    }
    catch (e) {
        if (e instanceof run_budget/* RunBudgetSpent */.J)
            return skipAtBudget(ctx, view, target, e, forced, note);
        ctx.log.warn(`retrospective: the model failed: ${e.message}`);
        const again = ctx.surface.give('retro');
        await ctx.forge.postComment(target, `crew could not write the retrospective of run ${ctx.surface.runNumber(issue, run)}: ${(0,sanitize/* sanitize */.a)(e.message, 500)}. The run itself is not affected.${again ? ` ${(0,surface/* sentence */.em)(again)} on #${issue} to try again.` : ''}`);
        return;
    }
    const chosen = selectProposals(out.proposals, mode, { full: config.retrospect.full_mode, light: config.retrospect.light_mode }, config.retrospect.filter_threshold);
    const retro = { mode, summary: out.summary, wentWell: out.wentWell, wentWrong: out.wentWrong, ...chosen, memory: out.memory, at: (0,context/* nowIso */.kF)(ctx) };
    // What the run cost beside its estimate, as recorded before the retrospector's own use.
    const body = `${renderRetrospective(retro, { issue, run })}\n\n${(0,cost/* runCostLine */.pM)(view)}`;
    // Found by the id crew stored, never by listing comments (issues can have thousands).
    // A run that ended differently since (failed, then finished) gets a new one where it now ends (its PR).
    const existing = note ?? (forced || view.run.retro?.phase === view.run.phase ? view.run.retro?.commentId : undefined);
    const ref = await placeComment(ctx, view, target, body, existing, forced);
    const finished = (0,context/* nowIso */.kF)(ctx);
    // The plan comment's link to it is edited in before the write: a write that lands on the state this job
    // last saw needs no check after it, which spares the finishing job its last look at the state (#31 §4).
    await ctx.planComment.updateShownFirst(await (0,context/* loadView */.QJ)(ctx, issue, run, context/* SEEN */.GL), `${mode} retrospective`, (rec) => {
        const logged = (0,run_state/* logPhase */.MH)(rec, 'retrospector', {
            model: config.retrospect.model,
            started: startedAt,
            finished,
            status: 'success',
            retries: 0,
            error: null,
        });
        return { ...logged, usage: (0,run_state/* addUsage */.vk)(rec.usage, out.usage), retro: { commentId: ref.id, url: ref.url, mode, phase: rec.phase }, retroAtBudget: undefined };
    }, undefined, (tx) => {
        tx.write(run_files/* paths */.f0.retrospective(issue, run), renderRetrospectiveMd(retro, { issue, run }));
        tx.write(run_files/* paths */.f0.retrospectiveJson(issue, run), `${JSON.stringify(retro, null, 2)}\n`);
        (0,run_files/* refreshExecutionLog */.qm)(tx, issue, run);
    });
    ctx.log.info(`retrospective (${mode}): ${chosen.adopted.length} adopted, ${chosen.held.length} held, ${chosen.discarded.length} discarded, ${out.memory.length} memory candidate(s)`);
}
/** The retrospective (or the note in its place) edited into `existing`, or posted on `target`. */
async function placeComment(ctx, view, target, body, existing, forced) {
    if (existing) {
        await ctx.forge.updateComment(existing, body);
        return { id: existing, url: ctx.forge.commentLink(target, existing) };
    }
    // After finishing, the retrospective was counted with the pull request; `/crew retro` counts its own.
    if (forced)
        await (0,caps/* spend */.Rf)(ctx, view.run.issue, view.run.run, { comments: 1 });
    return ctx.forge.postComment(target, body);
}
/**
 * `budgets.run` was spent when the retrospective came (#52). The run has ended (its pull request is open, or it
 * failed) and the retrospective changes nothing in it, so nothing is held and no question waits: the retrospective is
 * skipped, with a note where it would have been that says the budget was reached (not a failure), and
 * `/crew continue [$N]` on the issue writes it in the note's place (commands/continue.ts).
 */
async function skipAtBudget(ctx, view, target, e, forced, replace) {
    const { issue, run } = view.run;
    const s = ctx.surface;
    ctx.log.info(`retrospective: skipped, ${(0,render_budget_stop/* budgetSpentText */.tB)((0,budget_stop/* runStop */.cg)(e.budget, e.spent))}`);
    const body = [
        `${s.bold('No retrospective')} of run ${s.runNumber(issue, run)} yet: ${(0,render_budget_stop/* budgetSpentText */.tB)((0,budget_stop/* runStop */.cg)(e.budget, e.spent))}, and writing it would spend more.`,
        `This is not a failure: the run itself is not affected${view.run.pr ? ', and its pull request stands as it is' : ''}.`,
        // At the terminal `continue` is an answer while a run waits, and this run no longer does: nothing to offer there.
        ...(s.name === 'github'
            ? [
                `${(0,surface/* sentence */.em)(s.give('continue'))}${target === issue ? '' : ` on #${issue}`} to write it here, with another \`budgets.run\` to spend from what the run spent (${s.command('continue', '$N')}: $N more). Nothing else waits for it.`,
            ]
            : []),
    ].join(' ');
    const ref = await placeComment(ctx, view, target, body, replace, forced);
    await (0,context/* updateRun */.PF)(ctx, issue, run, 'retrospective skipped at the budget', (rec, tx) => {
        const note = { commentId: ref.id, url: ref.url, phase: rec.phase, ...(forced ? { forced } : {}) };
        (0,run_files/* writeRun */.bp)(tx, { ...rec, usage: (0,run_state/* addUsage */.vk)(rec.usage, e.sinceStart), retroAtBudget: note }, (0,context/* nowIso */.kF)(ctx));
    });
    await (0,context/* syncPlanComment */.Of)(ctx, issue, run);
}
/**
 * `/crew remember <n>`: memory candidate n of the newest retrospective on this issue goes into
 * the knowledge base, through a small pull request from a crew/ branch (crew never pushes to
 * the default branch). Workers read the knowledge base once it is merged.
 */
async function remember(ctx, issue, runs, n, by) {
    for (const rec of [...runs].sort((a, b) => b.run - a.run)) {
        const snap = await ctx.state.load(`${(0,refs/* runFolder */.kQ)(issue, rec.run)}/`);
        const retro = (0,run_files/* parseJson */.qF)(snap, run_files/* paths */.f0.retrospectiveJson(issue, rec.run));
        if (!retro)
            continue;
        const candidate = retro.memory[n - 1];
        if (!candidate)
            return `The retrospective of run ${rec.run} has ${retro.memory.length} memory candidate${retro.memory.length === 1 ? '' : 's'}, so there is no number ${n}.`;
        const entry = knowledgeEntry(candidate, `issue #${issue} run ${rec.run} retrospective, remembered by @${by}`, (0,context/* nowIso */.kF)(ctx));
        const branch = ctx.branches.memory(issue, rec.run, n);
        const base = await ctx.forge.defaultBranch();
        const open = await ctx.forge.findOpenPull(branch, base);
        if (open)
            return `Memory ${n} of run ${rec.run} is already proposed in ${open.url}.`;
        await ctx.remote.fetch([base]);
        await ctx.repo.checkoutNew(branch, ctx.remote.tracking(base));
        const current = (await ctx.repo.readFileAt(ctx.remote.tracking(base), state_knowledge/* KNOWLEDGE_PATH */.jC)) ?? '';
        await (0,promises_.mkdir)((0,external_node_path_.dirname)((0,external_node_path_.join)(ctx.repo.dir, state_knowledge/* KNOWLEDGE_PATH */.jC)), { recursive: true });
        await (0,promises_.writeFile)((0,external_node_path_.join)(ctx.repo.dir, state_knowledge/* KNOWLEDGE_PATH */.jC), `${current}${current && !current.endsWith('\n') ? '\n' : ''}${JSON.stringify(entry)}\n`);
        await ctx.repo.commitAll(`crew: remember a ${entry.type} from issue #${issue} run ${rec.run}`);
        // A branch left by an earlier proposal whose PR was closed is replaced, never force-pushed blindly.
        const stale = await ctx.remote.head(branch);
        await (0,caps/* spend */.Rf)(ctx, issue, rec.run, { pull_requests: 1, branches: stale ? 0 : 1 });
        if (stale)
            await ctx.remote.pushReplacing(branch, stale);
        else
            await ctx.remote.push(branch);
        const pr = await ctx.forge.createPull({
            title: `crew: remember "${entry.content.slice(0, 60)}${entry.content.length > 60 ? '…' : ''}"`,
            head: branch,
            base,
            body: (0,inert/* inert */.tJ)([
                `Adds one entry to \`${state_knowledge/* KNOWLEDGE_PATH */.jC}\`, from the retrospective of run ${rec.run} of #${issue} (memory candidate ${n}, asked for by @${by}). Workers read the knowledge base at the start of every task once this is merged.`,
                '',
                (0,markdown/* fence */.EU)(JSON.stringify(entry, null, 2), 'json'),
            ].join('\n')),
        });
        return `Opened ${pr.url} to add memory ${n} to the knowledge base. Workers read it from the first run after it is merged.`;
    }
    return 'No run on this issue has a retrospective yet, so there is nothing to remember. Memory candidates are listed in a retrospective; `/crew retro` writes one.';
}


/***/ }),

/***/ 50746:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  at: () => (/* binding */ admission),
  A6: () => (/* binding */ repositoryBudgetReached),
  r0: () => (/* binding */ repositorySpend)
});

// EXTERNAL MODULE: ./src/domain/spend.ts
var spend = __webpack_require__(48180);
// EXTERNAL MODULE: ./src/render/spend.ts
var render_spend = __webpack_require__(86196);
// EXTERNAL MODULE: ./src/domain/run-state.ts + 1 modules
var run_state = __webpack_require__(65534);
// EXTERNAL MODULE: ./src/ports.ts
var ports = __webpack_require__(16467);
// EXTERNAL MODULE: ./src/state/run-digests.ts
var run_digests = __webpack_require__(48360);
// EXTERNAL MODULE: ./src/state/run-files.ts
var run_files = __webpack_require__(24742);
;// CONCATENATED MODULE: ./src/state/spend.ts




/** The files the sums read of each run: its record, plan and task records (what it spent), or the digest of a pruned one. */
const WANTED = /^issue-\d+\/run-\d+\/(run\.json|plan\.json|tasks\/task_t\d+\.json|digest\.json)$/;
const FOLDER = /^issue-(\d+)\/run-(\d+)\//;
/**
 * Every run's recorded spend on crew/state, pruned runs by their digests (domain/spend.ts). Read
 * from the tip this job already saw: the route job has just read the state, so this asks GitHub
 * nothing more. A run whose files crew cannot read is left out and named in `problems`.
 */
async function readRunSpends(store) {
    const snap = await store.loadRuns((p) => WANTED.test(p), ports/* SEEN */.GL);
    const folders = new Map();
    for (const p of snap.list('')) {
        const m = FOLDER.exec(p);
        if (m)
            folders.set(`${m[1]}/${m[2]}`, { issue: Number(m[1]), run: Number(m[2]) });
    }
    const runs = [];
    const problems = [];
    for (const { issue, run } of folders.values()) {
        try {
            const view = (0,run_files/* readView */.Ml)(snap, issue, run);
            if (view) {
                runs.push({
                    issue,
                    run,
                    createdAt: view.run.createdAt,
                    costUsd: (0,run_state/* totalUsage */.GG)(view).costUsd,
                    by: view.run.requestedBy,
                    finished: (0,run_state/* isTerminal */.Hd)(view.run.phase),
                    automatic: view.run.trigger.how === 'ci',
                });
                continue;
            }
            const digest = (0,run_digests/* readDigest */.r)(snap, issue, run);
            if (digest)
                runs.push({ issue, run, createdAt: digest.createdAt, costUsd: digest.costUsd, by: digest.requestedBy, finished: true, automatic: digest.automatic });
        }
        catch (e) {
            problems.push(`the spend leaves out run ${run} of issue #${issue}: ${e.message}`);
        }
    }
    return { runs: runs.sort((a, b) => a.issue - b.issue || a.run - b.run), problems };
}

// EXTERNAL MODULE: ./src/clock.ts
var clock = __webpack_require__(99373);
;// CONCATENATED MODULE: ./src/steps/spend-gate.ts




async function admission(ctx, req) {
    const config = await ctx.config();
    const now = ctx.clock.now();
    const { runs, problems } = await readRunSpends(ctx.state);
    for (const p of problems)
        ctx.log.warn(p);
    const { day, month } = config.budgets;
    const verdict = (0,spend/* budgetVerdict */.lS)((0,spend/* spendSummary */.T3)(runs, now, { day, month }), (0,spend/* typicalRunCost */.v5)(runs));
    if (verdict.kind === 'refused')
        return { kind: 'refused', why: 'budget', text: (0,render_spend/* budgetRefusal */.ag)(verdict.over, verdict.typicalUsd) };
    if (!req.automatic) {
        const count = (0,spend/* runsToday */.Y$)(runs, req.by, now);
        if (!(0,spend/* rateAllows */.No)(count, req.by, config.limits))
            return {
                kind: 'refused',
                why: 'rate',
                login: req.by,
                text: (0,render_spend/* rateRefusal */.NI)(req.by, count, config.limits.runs_per_person_per_day, (0,clock/* isoSeconds */.nE)((0,spend/* nextUtcDay */.e4)(now))),
            };
    }
    return verdict.kind === 'warn' ? { kind: 'admit', warning: (0,spend/* spendWarning */.PH)(verdict.near) } : { kind: 'admit' };
}
/** The repository's spend today and this month against its budgets, and the month's costliest runs (`/crew status`, `/crew doctor`). */
async function repositorySpend(ctx) {
    const { day, month } = (await ctx.config()).budgets;
    const { runs, problems } = await readRunSpends(ctx.state);
    for (const p of problems)
        ctx.log.warn(p);
    return (0,spend/* spendSummary */.T3)(runs, ctx.clock.now(), { day, month });
}
/**
 * The repository budget (`budgets.day`, `budgets.month`) the spend has reached, if any (#52): a running
 * run stops at its next step and asks, and `/crew continue`, `/crew resume` and `/crew retry` wait for room.
 * Read from the state this job has seen, like `admission`.
 */
async function repositoryBudgetReached(ctx, 
/** What this job spent that crew/state does not hold yet (a parallel leg's attempts before its candidate is recorded). */
unrecordedUsd = 0) {
    const { day, month } = (await ctx.config()).budgets;
    if (day === undefined && month === undefined)
        return undefined;
    const s = await repositorySpend(ctx);
    const plus = (p) => ({ ...p, spentUsd: p.spentUsd + unrecordedUsd });
    return (0,spend/* periodSpent */.Qh)({ ...s, day: plus(s.day), month: plus(s.month) });
}


/***/ }),

/***/ 64212:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Q: () => (/* binding */ renderedMarkup),
/* harmony export */   a: () => (/* binding */ sanitize)
/* harmony export */ });
/**
 * Cleans untrusted text (issue bodies, comments, answers) before it reaches a prompt.
 *
 * The rule: the model sees no more than a person reading the rendered issue on GitHub.
 * What a reader cannot see is removed, because hidden content is the usual carrier of
 * injected instructions: HTML comments and other markup that renders as nothing, elements
 * marked hidden, attribute values, image alt text, link titles, link reference
 * definitions, zero-width, bidi, tag and other invisible characters, and entities that
 * spell them. Where GitHub's rendering is ambiguous, crew removes: hiding visible text
 * from the model is safe, showing it hidden text is not. Fenced code blocks are shown
 * literally by GitHub, so inside them only invisible characters are removed (and hidden
 * elements and comments, which are removed everywhere, since a block that looks fenced
 * may sit inside raw HTML).
 */
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]/g;
/** Unicode tag characters and the variation-selector supplement: both can smuggle whole texts inside one visible glyph. */
const ASTRAL_INVISIBLE = /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u{1D173}-\u{1D17A}]/gu;
const LINE_SEPARATORS = /[\u2028\u2029]/g;
/** Elements whose content a browser never shows (or GitHub's sanitiser drops). */
const NOT_RENDERED = ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'frameset', 'head', 'title', 'svg', 'math', 'xmp'];
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** An HTML tag with its attributes; written so that no input can make it backtrack badly. */
const ATTRS = String.raw `(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?)*\s*`;
const OPEN_TAG = new RegExp(String.raw `<([A-Za-z][A-Za-z0-9-]*)(${ATTRS})(/?)>`, 'g');
const ANY_TAG = new RegExp(String.raw `<(/?)([A-Za-z][A-Za-z0-9-]*)(${ATTRS})(/?)>`, 'g');
const IMG_TAG = new RegExp(String.raw `<img(?=[\s/>])${ATTRS}/?>`, 'gi');
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const HIDING_STYLE = /display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|opacity\s*:\s*0*\.?0+\s*(?:;|$)|font-size\s*:\s*0+(?:\.0+)?(?:[a-z%]*)?\s*(?:;|$)|(?:^|;)\s*(?:max-)?(?:height|width)\s*:\s*0+(?:[a-z%]*)?\s*(?:;|$)/i;
const INVISIBLE_NAMED_ENTITY = /&(?:zwj|zwnj|lrm|rlm|shy|ZeroWidthSpace|NegativeVeryThinSpace|NegativeThinSpace|NegativeMediumSpace|NegativeThickSpace|NoBreak|ic|InvisibleComma|it|InvisibleTimes|af|ApplyFunction);/g;
/** How much of a huge input is looked at, relative to what is kept: enough that removals cannot starve the result. */
const WORK_FACTOR = 3;
function sanitize(text, maxChars = 20_000) {
    const original = text.length;
    let out = text.length > maxChars * WORK_FACTOR ? text.slice(0, maxChars * WORK_FACTOR) : text;
    out = out.replace(/\r\n?/g, '\n').replace(LINE_SEPARATORS, '\n');
    // Every pass only removes or escapes, so it settles; removing one construct can join the halves of another.
    let settled = false;
    for (let i = 0; i < 10 && !settled; i++) {
        const next = pass(out);
        settled = next === out;
        out = next;
    }
    if (!settled) {
        // Markup nested to defeat the passes: keep only what the next pass would leave alone.
        const next = pass(out);
        let k = 0;
        while (k < out.length && out[k] === next[k])
            k++;
        out = `${out.slice(0, k)}\n\n[the rest is cut: its markup nests too deep to show safely]`;
    }
    out = out
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
    if (out.length > maxChars || original > maxChars * WORK_FACTOR) {
        out = `${out.slice(0, maxChars)}\n\n[truncated: the text has ${original.toLocaleString('en-US')} characters; only the first part is shown]`;
    }
    return out;
}
/**
 * The markup a reader's page renders, images and all: hidden elements, comments, invisible
 * characters and code blocks gone, nothing else changed. Where the request's images are looked
 * for (#36): an image in a hidden part or a code block is not one the person showed.
 */
function renderedMarkup(text) {
    let out = text.replace(/\r\n?/g, '\n');
    for (let i = 0; i < 10; i++) {
        const next = removeHiddenElements(removeComments(stripInvisible(out)));
        if (next === out)
            break;
        out = next;
    }
    return segments(out)
        .filter((s) => !s.code)
        .map((s) => s.text)
        .join('');
}
function pass(text) {
    let out = stripInvisible(text);
    out = removeComments(out);
    out = removeHiddenElements(out);
    return segments(out)
        .map((s) => (s.code ? s.text : cleanProse(s.text)))
        .join('');
}
function stripInvisible(text) {
    return text.replace(INVISIBLE, '').replace(ASTRAL_INVISIBLE, '');
}
/**
 * HTML comments, CDATA, processing instructions and declarations render as nothing. One
 * that starts a line and never ends hides the rest of the document (an HTML block); one
 * inside a line that never ends is shown as text, so it stays.
 */
function removeComments(text) {
    let out = text;
    for (const [open, close] of [
        ['<!--', '-->'],
        ['<![CDATA[', ']]>'],
        ['<?', '?>'],
    ])
        out = removeDelimited(out, open, close);
    return removeDelimited(out, '<!', '>', /^<![A-Za-z]/);
}
/** Linear in the text, however many openers it holds: once no closer follows, none will. */
function removeDelimited(text, open, close, shape) {
    let out = '';
    let i = 0;
    for (;;) {
        const at = text.indexOf(open, i);
        if (at < 0)
            return out + text.slice(i);
        if (shape && !shape.test(text.slice(at, at + 3))) {
            out += text.slice(i, at + open.length);
            i = at + open.length;
            continue;
        }
        const end = text.indexOf(close, at + open.length);
        if (end >= 0) {
            out += text.slice(i, at);
            i = end + close.length;
            continue;
        }
        // Never closed: inline it is text, but one that starts a line is an HTML block hiding the rest.
        const lineStart = text.lastIndexOf('\n', at - 1) + 1;
        if (/^[ \t]{0,3}$/.test(text.slice(lineStart, at)))
            return out + text.slice(i, lineStart);
        const escaped = open.replace(/[[\]?]/g, '\\$&');
        const block = new RegExp(`\\n[ \\t]{0,3}${escaped}`).exec(text.slice(at));
        return out + text.slice(i, block ? at + block.index + 1 : text.length);
    }
}
function attributes(attrs) {
    const map = new Map();
    for (const m of attrs.matchAll(ATTR))
        map.set(m[1].toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
    return map;
}
function hides(tag, attrs) {
    if (NOT_RENDERED.includes(tag))
        return true;
    const a = attributes(attrs);
    return (a.has('hidden') ||
        a.get('aria-hidden')?.toLowerCase() === 'true' ||
        (tag === 'input' && a.get('type')?.toLowerCase() === 'hidden') ||
        HIDING_STYLE.test(a.get('style') ?? ''));
}
/**
 * Removes every element a reader cannot see, with all it contains, counting nested
 * elements of the same name so `<div hidden><div>x</div>evil</div>` goes whole. An
 * element that is never closed hides everything after it.
 */
function removeHiddenElements(text) {
    let out = '';
    let from = 0;
    OPEN_TAG.lastIndex = 0;
    for (let m = OPEN_TAG.exec(text); m; m = OPEN_TAG.exec(text)) {
        const tag = m[1].toLowerCase();
        if (!hides(tag, m[2]))
            continue;
        out += text.slice(from, m.index);
        const end = m[3] || VOID.has(tag) ? OPEN_TAG.lastIndex : closingEnd(text, tag, OPEN_TAG.lastIndex);
        from = end;
        OPEN_TAG.lastIndex = end;
        if (end >= text.length)
            break;
    }
    return out + text.slice(from);
}
/** Where the element opened just before `from` ends: after its matching close tag, or the end of the text. */
function closingEnd(text, tag, from) {
    const re = new RegExp(String.raw `<(/?)${tag}(?=[\s/>])${ATTRS}(/?)>`, 'gi');
    re.lastIndex = from;
    let depth = 1;
    for (let m = re.exec(text); m; m = re.exec(text)) {
        if (m[1])
            depth--;
        else if (!m[2])
            depth++;
        if (depth === 0)
            return re.lastIndex;
    }
    return text.length;
}
/**
 * Splits the text into fenced code blocks and the rest. Conservative where GitHub's
 * parser is subtle: a fence inside raw HTML is no fence, and a closing fence is any
 * line GitHub would close on, so nothing GitHub renders as markup is taken for code.
 */
function segments(text) {
    const out = [];
    const push = (code, line) => {
        const last = out.at(-1);
        if (last && last.code === code)
            last.text += line;
        else
            out.push({ code, text: line });
    };
    let fence = null;
    let html = null;
    const lines = text.split(/(?<=\n)/);
    for (const line of lines) {
        const body = line.replace(/\n$/, '');
        if (fence) {
            push(true, line);
            const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(body);
            if (close && close[1][0] === fence.char && close[1].length >= fence.len)
                fence = null;
            continue;
        }
        if (html) {
            push(false, line);
            if (html === 'blank' ? body.trim() === '' : html.test(body))
                html = null;
            continue;
        }
        const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(body);
        if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
            fence = { char: open[1][0], len: open[1].length };
            push(true, line);
            continue;
        }
        const end = htmlBlockEnd(body);
        push(false, line);
        if (end && (end === 'blank' || !end.test(body.replace(/^ {0,3}<[^\s>]*/, ''))))
            html = end;
    }
    return out;
}
/** CommonMark's HTML blocks: how the one this line starts ends (none when it starts none). */
function htmlBlockEnd(line) {
    if (/^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)/i.test(line))
        return /<\/(?:script|pre|style|textarea)>/i;
    if (/^ {0,3}<!--/.test(line))
        return /-->/;
    if (/^ {0,3}<\?/.test(line))
        return /\?>/;
    if (/^ {0,3}<!\[CDATA\[/.test(line))
        return /\]\]>/;
    if (/^ {0,3}<![A-Za-z]/.test(line))
        return />/;
    if (/^ {0,3}<\/?[A-Za-z][A-Za-z0-9-]*(?:[\s/>]|$)/.test(line))
        return 'blank';
    return null;
}
/** Markdown and HTML outside code: what renders invisibly goes, the visible text stays. */
function cleanProse(text) {
    let out = text.replace(IMG_TAG, '[image]');
    out = replaceImages(out);
    // Link reference definitions never render, title and label included; footnotes ([^1]: …) do.
    out = out.replace(/^ {0,3}\[(?!\^)(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*\S+(?:[ \t]*\n?[ \t]*(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$\n?/gm, '');
    // A link's title shows only as a tooltip.
    out = out.replace(/\]\([ \t]*(<[^>\n]{0,2000}>|[^\s)]{0,2000})[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\))[ \t]*\)/g, ']($1)');
    // Attribute values (title, alt, aria-label, data-*, anything) show nowhere; the tags themselves may stay.
    out = out.replace(ANY_TAG, (_, close, tag, _attrs, self) => `<${close}${tag}${self ? ' /' : ''}>`);
    return decodeEntities(out);
}
/**
 * `![alt](url)`, `![alt][ref]` and `![alt]` become `[image]`: alt text is what a
 * reader does not see. Brackets nest, so the alt text is matched by counting.
 */
function replaceImages(text) {
    let out = '';
    let i = 0;
    for (;;) {
        const at = text.indexOf('![', i);
        if (at < 0)
            return out + text.slice(i);
        const close = matching(text, at + 1, '[', ']');
        if (close < 0)
            return out + text.slice(i);
        let end = close + 1;
        const target = text[end] === '(' ? matching(text, end, '(', ')') : text[end] === '[' ? matching(text, end, '[', ']') : -1;
        if (target > 0)
            end = target + 1;
        out += `${text.slice(i, at)}[image]`;
        i = end;
    }
}
/** Index of the bracket closing the one at `open`, skipping escapes; -1 if none. */
function matching(text, open, left, right) {
    let depth = 0;
    for (let i = open; i < text.length; i++) {
        const c = text[i];
        if (c === '\\')
            i++;
        else if (c === left)
            depth++;
        else if (c === right && --depth === 0)
            return i;
    }
    return -1;
}
/**
 * Numeric entities render as the character they name, so they are decoded and what
 * is invisible removed. `<`, `>` and `&` stay escaped: decoded, `&#60;!-- x --&#62;`
 * would become markup the reader saw as plain text.
 */
function decodeEntities(text) {
    const decode = (code) => {
        if (code === 60)
            return '&lt;';
        if (code === 62)
            return '&gt;';
        if (code === 38)
            return '&amp;';
        if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
            return '\uFFFD';
        return String.fromCodePoint(code);
    };
    const decoded = text
        .replace(/&#[xX]([0-9a-fA-F]{1,8});/g, (_, hex) => decode(Number.parseInt(hex, 16)))
        .replace(/&#(\d{1,9});/g, (_, dec) => decode(Number.parseInt(dec, 10)))
        .replace(INVISIBLE_NAMED_ENTITY, '')
        .replace(/&nbsp;/g, ' ');
    return stripInvisible(decoded.replace(LINE_SEPARATORS, '\n'));
}


/***/ }),

/***/ 33625:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $: () => (/* binding */ MAX_OUTPUT_BYTES),
/* harmony export */   w: () => (/* binding */ agentCommands)
/* harmony export */ });
/** The most a command's output keeps (head and tail), for the agents' commands, setup and test runs alike. */
const MAX_OUTPUT_BYTES = 30_000;
/**
 * The agents' run_command options, from what the job's tools gave (prepareTools: the runner, why there
 * is none, and the network `network.tools` gives the agents' commands) and the config: built here only,
 * for the worker (work), the critic and eval's single way, so the model is told the network it has.
 */
function agentCommands(tools, config, 
/** No command runs past this time (epoch ms): the job's limit is near. */
deadline) {
    return {
        runner: tools.runner,
        unavailable: tools.warning ?? undefined,
        policy: config.commands,
        timeoutMs: config.command_timeout_seconds * 1000,
        maxOutputBytes: MAX_OUTPUT_BYTES,
        ...(tools.egress?.tools === 'allowlist' ? { network: 'allowlist' } : {}),
        ...(tools.reach ? { reach: tools.reach } : {}),
        ...(deadline ?? {}),
    };
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
