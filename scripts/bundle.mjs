// The JavaScript Node loads of the packages whose exports point into bundle/: tsc's output in dist/,
// bundled by rolldown, one file per entry and one per module a program loads later (import()),
// with the code they share in chunks of its own. A fresh process pays for every module file it
// loads, compiled and linked one by one: plugin-mcp's first connect loaded about 80 of ours, some
// 25 ms that a user waits for on every start. The types stay tsc's, in dist/.
//
// Each package's package.json is the one list: every export whose `default` is in ./bundle/ is an
// entry, made from the dist/ module its `types` name. Other packages (and every dependency) stay
// outside a bundle, imported as they are.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const PACKAGES = fileURLToPath(new URL('../packages/', import.meta.url));
const OUT = 'bundle';

for (const name of readdirSync(PACKAGES)) {
  const dir = join(PACKAGES, name);
  const entries = bundleEntries(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
  if (Object.keys(entries).length === 0) continue;
  rmSync(join(dir, OUT), { recursive: true, force: true });
  const build = await rolldown({
    cwd: dir,
    input: entries,
    platform: 'node',
    // Only this package's own modules: a bare specifier is a dependency or a Node builtin.
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  });
  await build.write({
    dir: join(dir, OUT),
    format: 'esm',
    entryFileNames: '[name].js',
    // Beside the entries, named after their first module (connection.js: the code of a connection).
    chunkFileNames: 'chunks/[name].js',
  });
  await build.close();
}

/** `{ index: './dist/index.js', … }` for every export of `manifest` that points into bundle/. */
function bundleEntries(manifest) {
  const entries = {};
  for (const target of Object.values(manifest.exports ?? {})) {
    const bundled = /^\.\/bundle\/(.+)\.js$/.exec(target.default ?? '');
    if (bundled === null) continue;
    const source = /^(\.\/dist\/.+)\.d\.ts$/.exec(target.types ?? '');
    if (source === null) {
      throw new Error(`${manifest.name}: the export of ${target.default} names no dist/ types`);
    }
    entries[bundled[1]] = `${source[1]}.js`;
  }
  return entries;
}
