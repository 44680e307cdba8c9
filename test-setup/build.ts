// Tests run the built packages: every `@epoch-agent/*` import resolves to a package's dist/ or
// bundle/ (made from dist/ by scripts/bundle.mjs), the CLI's tests spawn its bin (which loads
// dist/bin.js), some tests spawn or import dist/ files by path, and epoch web serves dist/page. So the build is brought up to date once, before any test
// file runs: a test never runs yesterday's build, and a clone that was never built still works.
//
// `tsc -b` is incremental (a couple of seconds when nothing changed); the page's bundle (vite) is
// rebuilt only when a source it is made from is newer than it. tsc never deletes what a module
// that moved or went away left in dist/, where a test could still load it and pass on a machine
// where a clean build fails: those leftovers are removed first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGE = join(ROOT, 'packages/web/dist/page/index.html');
/** What the page's bundle is made of: the page, and the sources of the packages it imports. */
const PAGE_SOURCES = ['web/page', 'web/src', 'runtime/src', 'plugin-mcp/src', 'infra/src'].map(
  (dir) => join(ROOT, 'packages', dir),
);

export default function buildBeforeTests(): void {
  removeLeftovers();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  run('the packages (tsc -b)', process.execPath, [tsc, '-b']);
  // Fast (well under a second), and what the packages' exports point at: always made again.
  run('the bundles (scripts/bundle.mjs)', process.execPath, [join(ROOT, 'scripts/bundle.mjs')]);
  if (newest(PAGE_SOURCES) > modified(PAGE)) {
    const [command, prefix] = npm();
    run('the connectors page', command, [
      ...prefix,
      'run',
      'build',
      '--workspace',
      '@epoch-agent/web',
    ]);
  }
}

function run(what: string, command: string, args: string[]): void {
  try {
    execFileSync(command, args, { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `The tests run the built packages, and building ${what} failed. Run \`npm run build\` to see why, fix it, and run the tests again.\n${stdout}${stderr}`,
    );
  }
}

/** The npm that runs the tests (npm test), else the one on PATH: a command and its first args. */
function npm(): [string, string[]] {
  const cli = process.env.npm_execpath;
  return cli?.endsWith('.js') ? [process.execPath, [cli]] : ['npm', []];
}

/** Removes every output in a package's dist/ whose source in src/ is gone (the page aside). */
function removeLeftovers(): void {
  const packages = join(ROOT, 'packages');
  for (const name of readdirSync(packages)) {
    const dist = join(packages, name, 'dist');
    if (!existsSync(dist)) continue;
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      const module = /^(.*)\.(?:js|d\.ts)(?:\.map)?$/.exec(file)?.[1];
      if (module === undefined || module.startsWith('page/')) continue;
      const source = join(packages, name, 'src', module);
      if (!existsSync(`${source}.ts`) && !existsSync(`${source}.tsx`)) rmSync(join(dist, file));
    }
  }
}

/** The latest modification time of any file below `dirs`. */
function newest(dirs: readonly string[]): number {
  let latest = 0;
  for (const dir of dirs) {
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      latest = Math.max(latest, modified(join(dir, name)));
    }
  }
  return latest;
}

/** When `file` was last modified; 0 when it does not exist. */
function modified(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
