// The bench's peers that ask for Node 22 (the AI SDK's MCP client, `@ai-sdk/mcp` 2.x) live in
// bench/peers with their own lock file, apart from the repo, so that the repo's `npm install` on
// Node 20 prints no engine warning. The bench installs them there once (`npm ci`, run by Node 22),
// and skips it when the locked version is already in place.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_22 } from '../conformance/node-22.mjs';

const PEERS = fileURLToPath(new URL('./peers/', import.meta.url));
const AI_SDK = '@ai-sdk/mcp';

/** Installs bench/peers unless its locked `@ai-sdk/mcp` is installed already. */
export async function ensurePeers(signal) {
  const wanted = readJson(`${PEERS}package.json`).dependencies[AI_SDK];
  if (installedVersion() === wanted) return;
  console.error(`bench: installing ${AI_SDK} ${wanted} into bench/peers (once, npm ci on Node 22)`);
  await new Promise((resolve, reject) => {
    // npm runs on the first `node` of the PATH: Node 22's, so that its engine check passes.
    const child = spawn('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: PEERS,
      env: { ...process.env, PATH: `${dirname(NODE_22)}${delimiter}${process.env.PATH}` },
      signal,
      // npm's own output goes to the bench's stderr, never into the table on stdout.
      stdio: ['ignore', process.stderr, process.stderr],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`npm ci in bench/peers exited ${code}: see its output above`)),
    );
  });
  if (installedVersion() !== wanted) {
    throw new Error(`bench/peers: npm ci did not install ${AI_SDK} ${wanted}`);
  }
}

function installedVersion() {
  try {
    return readJson(`${PEERS}node_modules/${AI_SDK}/package.json`).version;
  } catch {
    return undefined;
  }
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}
