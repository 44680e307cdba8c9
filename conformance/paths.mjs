// Where the conformance harness finds its pieces. The runners (`@modelcontextprotocol/conformance`,
// and its 2026-07-28 build installed as `@modelcontextprotocol/conformance-2026`) need Node >= 22,
// so they run on the Node 22 binary (node-22.mjs); the driver — the plugin under test — runs on the
// machine's Node, the one running this.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_22 } from './node-22.mjs';

const require = createRequire(import.meta.url);
const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));

export const RUNNER_NODE = NODE_22;
export const STABLE_PACKAGE = '@modelcontextprotocol/conformance';
export const ALPHA_PACKAGE = '@modelcontextprotocol/conformance-2026';
export const STABLE_RUNNER = runnerOf(STABLE_PACKAGE);
export const ALPHA_RUNNER = runnerOf(ALPHA_PACKAGE);
/** The scenarios' servers call listen(0) with no host; this pins them to 127.0.0.1. */
export const LOOPBACK_PRELOAD = new URL('../packages/testkit/loopback-listen.mjs', import.meta.url)
  .href;
export const DRIVER_NODE = machineNode();
export const DRIVER = fileURLToPath(new URL('./driver.mjs', import.meta.url));

/** The version a runner package has installed. */
export function versionOf(name) {
  return require(`${name}/package.json`).version;
}

function runnerOf(name) {
  return join(packageDir(name), 'dist', 'index.js');
}

// Run from an npm script with a `node_modules/.bin/node` link, `node` would be the runner's Node 22
// (unlink-node-bin.mjs removes that link after every install); testing the plugin there would
// prove nothing about the Node it ships for.
function machineNode() {
  if (realpathSync(process.execPath) === realpathSync(RUNNER_NODE)) {
    throw new Error(
      `the harness runs on the runner's Node 22 (${process.execPath}), so the driver would too: start it with the machine's node, and remove node_modules/.bin/node (npm install does, in its postinstall)`,
    );
  }
  return process.execPath;
}
