// removeServer with `basedOn`, on real files: the entry readServerEntry gave is removed, and one
// written otherwise since (by hand, or by another front end) is refused with `changed_since`,
// every byte of the file kept. Without `basedOn` (a person at a terminal) the entry goes as it is.
import { readFile, writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import { beforeEach, describe, expect, it } from 'vitest';
import { isMcpConfigWriteError, readServerEntry, removeServer } from '../src/config-edit/index.js';

let file: string;

const ORIGINAL = `{
  "servers": {
    "keep": { "command": "keep" },
    "gone": { "command": "gone" }
  }
}
`;

beforeEach(async () => {
  file = mcpConfigPath();
  await writeFile(file, ORIGINAL);
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
}

describe('removeServer based on what was read', () => {
  it('removes the entry as read', async () => {
    const { version } = await readServerEntry(file, 'gone');
    await removeServer(file, 'gone', { basedOn: version });
    expect(await readFile(file, 'utf8')).not.toContain('"gone"');
  });

  it('refuses an entry changed since it was read with changed_since, naming the server and the file; nothing written', async () => {
    const { version } = await readServerEntry(file, 'gone');
    // A BOM and CRLF too: the version is of the entry's bytes, whatever surrounds them.
    const byHand = `\uFEFF${ORIGINAL.replace('"command": "gone"', '"command": "gone-v2"')}`.replace(
      /\n/g,
      '\r\n',
    );
    await writeFile(file, byHand);
    const error = await rejection(removeServer(file, 'gone', { basedOn: version }));
    expect(isMcpConfigWriteError(error, 'changed_since')).toBe(true);
    expect((error as Error).message).toContain('server "gone" was not removed');
    expect((error as Error).message).toContain(file);
    expect(await readFile(file, 'utf8')).toBe(byHand);

    // Read again, it goes; another entry's change says nothing of this one.
    const again = await readServerEntry(file, 'gone');
    await writeFile(file, byHand.replace('"command": "keep"', '"command": "kept"'));
    await removeServer(file, 'gone', { basedOn: again.version });
    expect(await readFile(file, 'utf8')).not.toContain('"gone"');
  });

  it('without basedOn removes the entry as it is now', async () => {
    await writeFile(file, ORIGINAL.replace('"command": "gone"', '"command": "gone-v2"'));
    await removeServer(file, 'gone');
    expect(await readFile(file, 'utf8')).not.toContain('"gone"');
  });
});
