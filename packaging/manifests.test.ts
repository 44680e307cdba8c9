// What npm shows of each published package, and what its tarball carries besides the code: a
// manifest a user can find and trust (description, repository, keywords, engines, types first), the
// licence and NOTICE that Apache-2.0 asks to keep (committed copies of the root's, kept identical
// here), a README and a CHANGELOG; and a publish that npm takes as it is.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { npm, publishedPackages, ROOT } from './packages.mjs';

const PUBLISHED = publishedPackages();
const NAMES = PUBLISHED.map(({ name }) => name);

describe.each(PUBLISHED)('$name', ({ dir }) => {
  const read = (file: string) => readFile(join(dir, file), 'utf8');

  it('has a manifest npm and a user can read', async () => {
    const manifest = JSON.parse(await read('package.json'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.description).toMatch(/\w{3,}.*\w{3,}/);
    expect(manifest.keywords.length).toBeGreaterThan(0);
    expect(manifest.license).toBe('Apache-2.0');
    expect(manifest.repository.directory).toBe(dir.slice(ROOT.length));
    expect(manifest.engines.node).toBeDefined();
    expect(manifest.publishConfig.access).toBe('public');
    for (const target of Object.values(manifest.exports)) {
      expect(Object.keys(target as object)[0]).toBe('types');
    }
    // A sibling is a dependency by the version the release gives them all.
    for (const [name, range] of Object.entries({ ...manifest.dependencies })) {
      if (NAMES.includes(name)) expect(range).toBe(manifest.version);
    }
  });

  it("carries the root's LICENSE and NOTICE, a README and a CHANGELOG", async () => {
    for (const file of ['LICENSE', 'NOTICE']) {
      expect(await read(file), file).toBe(await readFile(join(ROOT, file), 'utf8'));
    }
    expect(await read('README.md')).toContain('npm install');
    expect(await read('CHANGELOG.md')).toMatch(/^## \d+\.\d+\.\d+$/m);
  });
});

it('npm publish --dry-run takes every package as it is: no fixes, no warnings', async () => {
  const workspaces = NAMES.flatMap((name) => ['--workspace', name]);
  const { stdout, stderr } = await npm(['publish', '--dry-run', ...workspaces], ROOT);
  // Not being logged in is the one warning of a dry run on a machine that never publishes.
  const warnings = stderr
    .split('\n')
    .filter(
      (line) => line.startsWith('npm warn') && !line.includes('requires you to be logged in'),
    );
  expect(warnings).toEqual([]);
  for (const name of NAMES) expect(stdout).toContain(`+ ${name}@`);
}, 60_000);
