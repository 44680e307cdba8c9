// A cold `epoch mcp list`: a new process from spawn to exit, reading a config of a few servers (it
// never connects), against `node -e 0`, the least any Node program costs on this machine. The goal
// allows the node start-up a margin and 100 ms for the command's own work.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate, freshNode, median } from './measure.mjs';

const ROUNDS = 11;
const EPOCH = new URL('../packages/cli/bin/epoch.js', import.meta.url).pathname;

/** The sort of file a user has: a package-run stdio server, a remote one with a header, a local one. */
const CONFIG = {
  servers: {
    github: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: 'bench-not-a-token' },
    },
    docs: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer bench' } },
    files: { command: 'node', args: ['./server.js', '--root', '.'], timeout: 30 },
  },
};

export async function coldListTime(signal) {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-cli-'));
  try {
    const file = join(dir, 'mcp.json');
    await writeFile(file, JSON.stringify(CONFIG, null, 2));
    // Its own home: no plugins, nothing of the user's.
    const env = { ...process.env, EPOCH_HOME: dir };
    const [list, bare] = await alternate(
      [
        async () => (await freshNode([EPOCH, 'mcp', 'list', '--config', file], signal, { env })).ms,
        async () => (await freshNode(['-e', '0'], signal, { env })).ms,
      ],
      ROUNDS,
      signal,
    );
    return {
      metric: `cold \`epoch mcp list\` process vs \`node -e 0\` (x${ROUNDS})`,
      ours: median(list),
      base: median(bare),
      goal: { kind: 'affine', factor: 1.2, plusMs: 100 },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
