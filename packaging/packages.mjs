// The packages this repository publishes to npm (every workspace but the private ones), packed as
// `npm publish` would pack them, and npm run as a user runs it: what the consumer test installs and
// the bench weighs.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The published packages, in the workspace's order: `{ name, dir }`. */
export function publishedPackages() {
  const workspaces = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces;
  return workspaces
    .map((workspace) => {
      const dir = join(ROOT, workspace);
      return { dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) };
    })
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ name: manifest.name, dir }));
}

/**
 * `npm pack`s every published package into `destination`: `{ name, file, size, unpackedSize }`
 * each, `file` the tarball's path and the sizes in bytes. Run on the build as it is.
 */
export async function packAll(destination) {
  const workspaces = publishedPackages().flatMap(({ name }) => ['--workspace', name]);
  const { stdout } = await npm(
    ['pack', '--json', '--pack-destination', destination, ...workspaces],
    ROOT,
  );
  return JSON.parse(stdout).map((packed) => ({
    name: packed.name,
    file: join(destination, packed.filename),
    size: packed.size,
    unpackedSize: packed.unpackedSize,
  }));
}

/** Runs npm with `args` in `cwd` to its end: `{ stdout, stderr }`; rejects when it fails. */
export function npm(args, cwd, env = userEnv()) {
  return run(NPM, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
}

// The npm on the PATH a user has (userEnv's). On Windows it is `npm.cmd`, which needs a shell: these
// tests run on Linux and macOS.
const NPM = 'npm';

/**
 * This process's environment as a user's shell would have it: without what `npm run` adds (the
 * `npm_*` variables, among them the workspace's own prefix and config, and this repository's
 * node_modules/.bin on PATH), so npm and node started with it see nothing of the workspace.
 */
export function userEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_') && value !== undefined) env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.startsWith(ROOT))
    .join(delimiter);
  return { ...env, ...extra };
}
