import { healthy, type DoctorFacts, type Finding, type FindingStatus } from '../domain/doctor';

const MARK: Record<FindingStatus, string> = { ok: '✅', problem: '❌', unknown: '❔', note: '⚠️' };
const WORD: Record<FindingStatus, string> = { ok: 'ok', problem: 'FIX', unknown: '??', note: 'note' };

function summary(findings: Finding[]): string {
  const problems = findings.filter((f) => f.status === 'problem').length;
  return healthy(findings) ? 'crew is set up: nothing to fix.' : `${problems} thing${problems === 1 ? '' : 's'} to fix before crew can run here.`;
}

/** The comment `/crew doctor` posts: a summary line, then one line per check with its fix. */
export function doctorComment(facts: DoctorFacts, findings: Finding[]): string {
  const lines = findings.map((f) => `- ${MARK[f.status]} ${f.says}${f.fix ? `<br>Fix: ${f.fix}` : ''}`);
  return [`### crew doctor: ${facts.repo.fullName}`, '', `**${summary(findings)}**`, '', ...lines].join('\n');
}

/** What `crew doctor` prints at a terminal. */
export function doctorText(facts: DoctorFacts, findings: Finding[]): string {
  const lines = findings.flatMap((f) => [`  ${WORD[f.status].padEnd(4)}  ${f.says}`, ...(f.fix ? [`        fix: ${f.fix}`] : [])]);
  return [`crew doctor: ${facts.repo.fullName} (default branch ${facts.repo.defaultBranch})`, '', ...lines, '', summary(findings), ''].join('\n');
}

/** `crew doctor --json`: the findings for tools. */
export function doctorJson(facts: DoctorFacts, findings: Finding[]): string {
  return `${JSON.stringify({ repository: facts.repo.fullName, defaultBranch: facts.repo.defaultBranch, healthy: healthy(findings), findings }, null, 2)}\n`;
}
