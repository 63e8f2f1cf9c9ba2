// Unix socket listens as GitHub's runner has them, preloaded (`node --require`) into a process that runs crew.
//
// A socket's path holds at most 107 bytes on Linux (sun_path is 108 with its NUL, unix(7)). Node 23 and
// later, and so the `node24` GitHub runs actions with, refuse a longer one: `listen` fails with EINVAL
// (nodejs/node#52347, libuv's UV_PIPE_NO_TRUNCATE). Node 20, which runs these tests, cuts the path short
// without a word and binds what is left, so a test there would pass where a job on GitHub fails. This
// makes every Unix socket `listen` of the process behave as Node 24's.
//
// CREW_TEST_UNIX_LISTEN_FAULT=1 makes every Unix socket `listen` fail (EACCES): a proxy made to fail.
const net = require('net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  const path = typeof first === 'string' ? first : first && typeof first === 'object' && typeof first.path === 'string' ? first.path : undefined;
  if (path !== undefined) {
    const code = process.env.CREW_TEST_UNIX_LISTEN_FAULT === '1' ? 'EACCES' : Buffer.byteLength(path) > 107 ? 'EINVAL' : undefined;
    if (code) {
      const error = Object.assign(new Error(`listen ${code}: ${path}`), { code, errno: code === 'EINVAL' ? -22 : -13, syscall: 'listen', address: path });
      process.nextTick(() => this.emit('error', error));
      return this;
    }
  }
  return listen.apply(this, args);
};
