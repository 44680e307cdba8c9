// The loopback preload: a server that calls listen(0) with no host (as the reference server and
// the conformance suite's scenario servers do) is bound to 127.0.0.1 and nothing else, and — like
// a listen() without a host — already has its address when listen() returns, because code such
// as `app.listen(0).address().port` reads it at once.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listeningAddresses } from '../src/index.js';

const PRELOAD = fileURLToPath(new URL('../loopback-listen.mjs', import.meta.url));

// Prints the address listen(0) gives synchronously, then stays up until killed.
const SERVER = `
const server = require('node:http').createServer();
const sameTick = server.listen(0).address();
console.log(JSON.stringify(sameTick));
`;

async function firstLine(child: ChildProcess): Promise<string> {
  if (child.stdout === null) throw new Error('the child has no stdout');
  const lines = createInterface({ input: child.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return line;
}

describe('loopback-listen preload', () => {
  it('binds a listen(0) without host to 127.0.0.1 only, with its address known at once', async () => {
    const child = spawn(process.execPath, ['--import', PRELOAD, '-e', SERVER], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const address = JSON.parse(await firstLine(child)) as { address: string; port: number };
      expect(address).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
      expect(address.port).toBeGreaterThan(0);
      expect(listeningAddresses(address.port)).toEqual(['127.0.0.1']);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});
