// writeFileAtomic on real files in a temp dir: owner-only modes whatever the umask, an existing
// file's mode kept, no temp file left behind whether the write succeeds or fails, and a reader
// running alongside the writer that only ever sees whole versions of the file.
import { execFile } from 'node:child_process';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInfraError, writeFileAtomic } from '../src/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

async function withUmask<T>(mask: number, run: () => Promise<T>): Promise<T> {
  const previous = process.umask(mask);
  try {
    return await run();
  } finally {
    process.umask(previous);
  }
}

describe('writeFileAtomic', () => {
  it('a symlinked target stays a link; the file it points at gets the new bytes', async () => {
    const real = join(dir, 'dotfiles', 'mcp.json');
    await mkdir(join(dir, 'dotfiles'));
    await writeFile(real, 'old', { mode: 0o640 });
    const link = join(dir, 'mcp.json');
    await symlink(real, link);
    await writeFileAtomic(link, 'new');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, 'utf8')).toBe('new');
    expect(await modeOf(real)).toBe(0o640);
  });

  it.each([0o000, 0o022, 0o077, 0o277])('creates a new file 0600 under umask %s', async (mask) => {
    const file = join(dir, 'tokens.json');
    await withUmask(mask, () => writeFileAtomic(file, '{"access_token":"t"}'));
    expect(await modeOf(file)).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe('{"access_token":"t"}');
  });

  it('creates a new file with the mode asked for, and writes bytes as given', async () => {
    const file = join(dir, 'public.json');
    const bytes = Uint8Array.from([0, 1, 2, 255]);
    await withUmask(0o077, () => writeFileAtomic(file, bytes, { mode: 0o644 }));
    expect(await modeOf(file)).toBe(0o644);
    expect(new Uint8Array(await readFile(file))).toEqual(bytes);
  });

  it('an existing file keeps its own mode, whatever mode is asked for', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(file, 'old');
    await chmod(file, 0o644);
    await withUmask(0o077, () => writeFileAtomic(file, 'new', { mode: 0o600 }));
    expect(await modeOf(file)).toBe(0o644);
    expect(await readFile(file, 'utf8')).toBe('new');

    await chmod(file, 0o640);
    await writeFileAtomic(file, 'newer');
    expect(await modeOf(file)).toBe(0o640);
    expect(await readFile(file, 'utf8')).toBe('newer');
  });

  it('creates missing parent directories 0700', async () => {
    const file = join(dir, 'home', 'cache', 'mcp-schemas', 'abc.json');
    await withUmask(0o022, () => writeFileAtomic(file, '{}'));
    for (const sub of ['home', 'home/cache', 'home/cache/mcp-schemas']) {
      expect(await modeOf(join(dir, sub))).toBe(0o700);
    }
    expect(await readFile(file, 'utf8')).toBe('{}');
  });

  it('leaves no temp file behind after writes, one after another and side by side', async () => {
    const file = join(dir, 'state.json');
    for (let i = 0; i < 5; i++) await writeFileAtomic(file, `v${i}`);
    await Promise.all(Array.from({ length: 10 }, (_, i) => writeFileAtomic(file, `p${i}`)));
    expect(await readdir(dir)).toEqual(['state.json']);
    expect(await readFile(file, 'utf8')).toMatch(/^p\d$/);
  });

  it('refuses a target that is a directory, and leaves no temp file behind', async () => {
    const target = join(dir, 'mcp.json');
    await mkdir(target);
    const error = await writeFileAtomic(target, 'x').catch((e: unknown) => e);
    expect(isInfraError(error, 'not_a_file')).toBe(true);
    expect(await readdir(dir)).toEqual(['mcp.json']);
    expect((await stat(target)).isDirectory()).toBe(true);
  });

  it('a write that fails halfway (file size limit) keeps the old file and leaves no temp file', async () => {
    // A real short write: a child process whose file size limit is 64 KiB (`ulimit -f` counts
    // 512-byte blocks) gets EFBIG from the kernel while writing 1 MiB. Node ignores SIGXFSZ.
    const file = join(dir, 'mcp.json');
    await writeFile(file, 'old');
    const infra = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(infra)};
      try {
        await writeFileAtomic(${JSON.stringify(file)}, 'x'.repeat(1 << 20));
        console.log('written');
      } catch (error) {
        console.log(error.code);
      }`;
    const { stdout } = await promisify(execFile)('/bin/sh', [
      '-c',
      'ulimit -f 128 && exec "$0" --input-type=module -e "$1"',
      process.execPath,
      script,
    ]);
    expect(stdout.trim()).toBe('EFBIG');
    expect(await readdir(dir)).toEqual(['mcp.json']);
    expect(await readFile(file, 'utf8')).toBe('old');
  });

  it('a reader running alongside the writer only ever sees one whole version', async () => {
    const file = join(dir, 'big.json');
    const size = 2 * 1024 * 1024;
    // Each version is `size` copies of one letter: any mix or truncation shows.
    const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(size, 97 + i));
    await writeFileAtomic(file, versions[0] ?? Buffer.alloc(0));

    let writing = true;
    const writer = (async () => {
      try {
        for (let round = 0; round < 40; round++) {
          await writeFileAtomic(file, versions[round % versions.length] ?? Buffer.alloc(0));
        }
      } finally {
        writing = false;
      }
    })();
    const seen = new Set<number>();
    let reads = 0;
    const reader = (async () => {
      while (writing) {
        const bytes = await readFile(file);
        reads++;
        const first = bytes[0] ?? -1;
        const whole = versions.find((version) => version[0] === first);
        if (whole === undefined || !bytes.equals(whole)) {
          throw new Error(
            `read ${reads} saw a partial file: ${bytes.length} bytes starting with ${first}`,
          );
        }
        seen.add(first);
      }
    })();
    await Promise.all([writer, reader]);
    // The reader really ran while versions changed under it.
    expect(reads).toBeGreaterThan(5);
    expect(seen.size).toBeGreaterThan(1);
  });
});
