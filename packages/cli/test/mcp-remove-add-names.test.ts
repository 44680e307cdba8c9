// `epoch mcp remove` and `epoch mcp add` in the built command, on a hand-written file: remove takes
// the entry's own comment block along and not one other byte; add refuses a name that differs from
// a server's only in case, naming that server, and writes nothing.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-remove-add-'));
  file = join(dir, 'mcp.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = JSON.stringify({ command: process.execPath, args: ['-e', '1'] });

describe('epoch mcp remove and add on names and comments', () => {
  it('remove takes the comment lines directly above the entry, keeps one a blank line away', async () => {
    const original = [
      '{',
      '  "servers": {',
      '    // about everything, kept: a blank line follows',
      '',
      '    // the everything server',
      `    "everything": ${entry},`,
      '    /* the other one */',
      `    "other": ${entry}`,
      '  }',
      '}',
      '',
    ].join('\r\n');
    await writeFile(file, original);
    const removed = await epoch(['mcp', 'remove', 'everything', '--config', file]);
    expect(removed.code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(
      [
        '{',
        '  "servers": {',
        '    // about everything, kept: a blank line follows',
        '',
        '    /* the other one */',
        `    "other": ${entry}`,
        '  }',
        '}',
        '',
      ].join('\r\n'),
    );
  });

  it('add refuses a name that differs from one in the file only in case, and writes nothing', async () => {
    const original = `{\n  "servers": {\n    "everything": ${entry}\n  }\n}\n`;
    await writeFile(file, original);
    const added = await epoch([
      'mcp',
      'add',
      'Everything',
      '--config',
      file,
      '--',
      process.execPath,
    ]);
    expect(added.code).not.toBe(0);
    expect(added.out + added.err).toContain('already has server "everything"');
    expect(added.out + added.err).toContain('differs only in case');
    expect(await readFile(file, 'utf8')).toBe(original);
  });
});
