import { main } from './cli';

// Exit once the output is written: the model client's keep-alive sockets must not hold the process open.
void main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
