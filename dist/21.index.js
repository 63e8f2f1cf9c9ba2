export const id = 21;
export const ids = [21];
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


/***/ })

};
