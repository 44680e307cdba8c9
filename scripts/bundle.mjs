// The JavaScript Node loads of the packages whose exports point into bundle/: tsc's output in dist/,
// bundled by rolldown with the third-party code it runs, one file per entry and one per module a
// program loads later (import()), with the code they share in chunks of their own. A fresh process
// pays for every module file it loads, compiled and linked one by one: plugin-mcp's first connect
// loaded about 80 of ours and some 200 of its dependencies (the SDK's 110 ES modules, zod's 96,
// ajv's CommonJS files), about 40 ms of a one-shot program's life that a user waits for. The types
// stay tsc's, in dist/.
//
// Each package's package.json is the one list: every export whose `default` is in ./bundle/ is an
// entry, made from the dist/ module its `types` name. Node builtins and our other packages stay
// outside a bundle: a sibling package is one copy per process, whoever imports it. Third-party code
// goes into chunks named after the package (chunks/jsonc-parser.js; the packages it depends on go
// with it), so that what a program loads says whose code it is; the licences go with the bundle,
// in bundle/THIRD-PARTY-NOTICES.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { lazySchemas } from './lazy-schemas.mjs';

const PACKAGES = fileURLToPath(new URL('../packages/', import.meta.url));
const OUT = 'bundle';
const NOTICES = 'THIRD-PARTY-NOTICES';

/**
 * A dependency's module that a package's bundle gives its own in place of the dependency's, by
 * package: plugin-mcp's SDK gets runtime shims that load no ajv (connection/sdk-shims.ts says why).
 */
const SUBSTITUTES = {
  '@epoch-agent/plugin-mcp': {
    '@modelcontextprotocol/client/_shims': 'dist/connection/sdk-shims.js',
  },
};

/**
 * Third-party code bundled inside a dependency's own files, in a chunk of its own so that a program
 * loads it only when it runs it: the SDK's copy of ajv (its provider module and the entry that
 * re-exports it), which plugin-mcp's outputSchema check alone loads (tools/output-check.ts).
 */
const INNER = [
  {
    test: /[\\/]@modelcontextprotocol[\\/]client[\\/]dist[\\/](ajvProvider-[\w-]+|validators[\\/]ajv)\.mjs$/,
    name: 'ajv',
  },
];

/** The SDK's module that declares the protocol's schemas. */
const SDK_SCHEMAS = /[\\/]@modelcontextprotocol[\\/]core[\\/]dist[\\/]schemas-[\w-]+\.mjs$/;

for (const name of readdirSync(PACKAGES)) {
  const dir = join(PACKAGES, name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const entries = bundleEntries(manifest);
  if (Object.keys(entries).length === 0) continue;
  rmSync(join(dir, OUT), { recursive: true, force: true });
  const build = await rolldown({
    cwd: dir,
    input: entries,
    platform: 'node',
    // A package's ES modules where it has them: a UMD build (jsonc-parser's) requires its own
    // files by paths a bundle no longer has.
    resolve: { mainFields: ['module', 'main'] },
    external: (id) =>
      id.startsWith('node:') || builtinModules.includes(id) || id.startsWith('@epoch-agent/'),
    plugins: [substitutes(dir, SUBSTITUTES[manifest.name] ?? {}), schemasOnFirstUse()],
  });
  const { output } = await build.write({
    dir: join(dir, OUT),
    format: 'esm',
    entryFileNames: '[name].js',
    // Beside the entries, named after their first module (connection.js: the code of a connection).
    chunkFileNames: 'chunks/[name].js',
    // Node reads a module file with one character outside ASCII as two bytes a character, the
    // whole file (the SDK's documentation has dashes and arrows): decoding it and scanning it so
    // cost a first connect about 5% of its instructions. The documentation comments go too (the
    // types in dist/ keep theirs); licence comments and the annotations a bundler reads stay.
    charset: 'ascii',
    comments: { legal: true, annotation: true, jsdoc: false },
    codeSplitting: {
      groups: [
        {
          debugName: 'third-party',
          priority: 1,
          name: (id) =>
            INNER.some(({ test }) => test.test(id))
              ? null
              : (thirdParty(id)?.name.replace(/^@/, '').replace('/', '-') ?? null),
        },
        // After the packages: what such code shares with the rest of its package stays there.
        ...INNER.map(({ test, name }) => ({ debugName: name, test, name })),
      ],
    },
  });
  await build.close();
  const bundled = new Map();
  for (const chunk of output) {
    for (const id of chunk.type === 'chunk' ? chunk.moduleIds : []) {
      const from = thirdParty(id);
      if (from !== undefined) bundled.set(from.dir, from.name);
    }
  }
  if (bundled.size > 0) writeFileSync(join(dir, OUT, NOTICES), notices(bundled));
  const modules = output.flatMap((chunk) => (chunk.type === 'chunk' ? chunk.moduleIds : []));
  const holdsSdk = modules.some((id) => thirdParty(id)?.name === '@modelcontextprotocol/client');
  if (holdsSdk && !modules.some((id) => SDK_SCHEMAS.test(id))) {
    throw new Error(
      `${manifest.name}: its bundle holds the SDK, but no module matches ${SDK_SCHEMAS}: the SDK moved its schemas; point SDK_SCHEMAS in scripts/bundle.mjs at them`,
    );
  }
}

/** Resolves each specifier of `own` to the module of `dir`'s package that stands in for it. */
function substitutes(dir, own) {
  for (const file of Object.values(own)) {
    if (!existsSync(join(dir, file))) {
      throw new Error(`${dir}: ${file} is missing: run tsc -b first`);
    }
  }
  return {
    name: 'substitutes',
    resolveId: (source) => (Object.hasOwn(own, source) ? join(dir, own[source]) : null),
  };
}

/**
 * The SDK's schemas built when a program first uses one, not while its chunk loads
 * (lazy-schemas.mjs says how and why), in whichever chunk holds the module that declares them.
 */
function schemasOnFirstUse() {
  return {
    name: 'schemas-on-first-use',
    renderChunk: (code, chunk) =>
      chunk.moduleIds.some((id) => SDK_SCHEMAS.test(id)) ? lazySchemas(code, chunk.fileName) : null,
  };
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

/** The installed package a module file belongs to (the innermost node_modules), if any. */
function thirdParty(id) {
  const found = /^(.*[\\/]node_modules[\\/])((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id);
  if (found === null) return undefined;
  return { dir: found[1] + found[2], name: found[2].replace('\\', '/') };
}

/** Each bundled package's name, version, licence and licence text, as its authors ask. */
function notices(bundled) {
  const sections = [...bundled]
    .sort(([, a], [, b]) => a.localeCompare(b))
    .map(([dir, name]) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const file = readdirSync(dir).find((entry) => /^(licen[cs]e|copying)/i.test(entry));
      if (file === undefined) {
        throw new Error(`${name}: bundled, but it has no licence file to ship with it`);
      }
      const text = readFileSync(join(dir, file), 'utf8').trim();
      return `${name}@${manifest.version} (${manifest.license})\n\n${text}\n`;
    });
  return `This bundle holds code of the following packages, under their licences.\n\n${sections.join('\n---\n\n')}`;
}
