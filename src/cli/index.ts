import { main } from './main';
import { inertLog } from '../text/inert-log';

// Run as a step of a GitHub Actions job (`crew eval` in CI), crew's output is that job's log: no line of it may be a workflow command.
const out = process.env.GITHUB_ACTIONS === 'true' ? { write: (text: string) => void process.stdout.write(inertLog(text)) } : process.stdout;

// Exit once the output is written: the model client's keep-alive sockets must not hold the process open.
void main(process.argv.slice(2), out).then((code) => process.stdout.write('', () => process.exit(code)));
