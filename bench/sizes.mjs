// What a user downloads and keeps on disk: each published package's tarball (as `npm pack` makes
// it), and `epoch` installed globally with everything it depends on, next to the raw SDK's client
// (`@modelcontextprotocol/client`, the version plugin-mcp bundles) packed and installed the same
// way. Third-party packages come from the npm registry, through npm's cache.
import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npm, packAll, publishedPackages } from '../packaging/packages.mjs';

const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline'];
const SDK = '@modelcontextprotocol/client';

export async function packageSizes() {
  const dir = await mkdtemp(join(tmpdir(), 'epoch-bench-sizes-'));
  try {
    const tarballs = await packAll(dir);
    const plugin = publishedPackages().find(({ name }) => name === '@epoch-agent/plugin-mcp');
    const { dependencies } = JSON.parse(await readFile(join(plugin.dir, 'package.json'), 'utf8'));
    const sdk = `${SDK}@${dependencies[SDK]}`;
    const sdkPacked = JSON.parse((await npm(['pack', '--json', sdk], dir)).stdout)[0];
    const ours = await installedSize(
      dir,
      'epoch',
      tarballs.map((tarball) => tarball.file),
    );
    const theirs = await installedSize(dir, 'sdk', [sdk]);
    return [
      ...tarballs.map((tarball) => ({
        metric: `npm tarball of ${tarball.name}${tarball.name === '@epoch-agent/plugin-mcp' ? ` vs ${sdk}'s` : ''}`,
        ours: tarball.size / 1000,
        base: tarball.name === '@epoch-agent/plugin-mcp' ? sdkPacked.size / 1000 : undefined,
        unit: 'kB',
        goal: { kind: 'info' },
      })),
      {
        metric: `\`npm install -g @epoch-agent/cli\` on disk, with its dependencies, vs ${sdk}'s`,
        ours,
        base: theirs,
        unit: 'kB',
        goal: { kind: 'info' },
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * kB on disk (file sizes) of `packages` installed globally into `dir/name`, a prefix of their own.
 * The cli's siblings are installed beside it from their tarballs, as npm fetches them from the
 * registry once they are published.
 */
async function installedSize(dir, name, packages) {
  const prefix = join(dir, name);
  await npm(['install', '--global', '--prefix', prefix, ...INSTALL_FLAGS, ...packages], dir);
  return (await bytesUnder(join(prefix, 'lib', 'node_modules'))) / 1000;
}

async function bytesUnder(path) {
  const stats = await lstat(path);
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await bytesUnder(join(path, entry));
  return total;
}
