import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Runner, TestResult } from '../types';
import { Unreadable } from './common';

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (name) => name === 'testsuite' || name === 'testcase',
});

const attr = (n: Node, name: string) => (typeof n[`@${name}`] === 'string' ? (n[`@${name}`] as string) : undefined);

/**
 * JUnit XML, as pytest writes it with `junit_family=xunit1` (which keeps each case's file and
 * line; pytest counts lines from 0). A case with a `failure` or `error` failed; with `skipped`
 * (pytest's skips and xfails alike) it was skipped. The suite path is the class path in
 * `classname` after the module the file is; a collection error is the file failing.
 */
export function parseJunit(text: string, runner: Runner = 'pytest'): TestResult[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Unreadable(`it is not well-formed XML (${valid.err.msg.replace(/\.$/, '')}, line ${valid.err.line})`);
  const doc = parser.parse(text) as Node;
  const top = (doc.testsuites as Node | undefined) ?? (doc.testsuite ? { testsuite: doc.testsuite } : undefined);
  if (!top || typeof top !== 'object') throw new Unreadable('it has no testsuites element');
  const out: TestResult[] = [];
  const visit = (suite: Node) => {
    for (const c of (suite.testcase as Node[] | undefined) ?? []) out.push(caseOf(c, runner));
    for (const s of (suite.testsuite as Node[] | undefined) ?? []) visit(s);
  };
  visit(top);
  return out;
}

function caseOf(c: Node, runner: Runner): TestResult {
  const name = attr(c, 'name');
  if (name === undefined) throw new Unreadable('a testcase has no name');
  const classname = attr(c, 'classname') ?? '';
  const fileAttr = attr(c, 'file');
  const moduleOf = (f: string) => f.replace(/\.py$/, '').replace(/\//g, '.');
  const file = fileAttr ?? (classname ? `${classname.replace(/\./g, '/')}` : '(no file)');
  const line = Number(attr(c, 'line'));
  const outcome = 'failure' in c || 'error' in c ? 'failed' : 'skipped' in c ? 'skipped' : 'passed';
  // A module pytest could not collect: no class, named by the module, with an error.
  if (!classname && fileAttr === undefined) return { runner, file: `${name.replace(/\./g, '/')}.py`, suite: [], name: '', outcome };
  const module = fileAttr ? moduleOf(fileAttr) : '';
  const suite =
    module && classname === module ? [] : module && classname.startsWith(`${module}.`) ? classname.slice(module.length + 1).split('.') : [classname];
  return { runner, file, suite, name, outcome, ...(Number.isInteger(line) && fileAttr !== undefined ? { line: line + 1 } : {}) };
}
