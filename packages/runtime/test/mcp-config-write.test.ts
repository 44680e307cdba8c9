// mcp-config-write on real files in a temp EPOCH_HOME: what it creates, what it refuses (and that a
// refused file is left byte for byte, mtime included), the modes it keeps, the fields it leaves to
// the user, and its lock against a dead, stuck or live other writer.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { MCP_CONFIG_FIELDS, parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addServer,
  isMcpConfigWriteError,
  type McpConfigWriteErrorCode,
  removeServer,
  removeServerFromText,
} from '../src/config-edit/index.js';

let home: string;
let file: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'epoch-config-write-'));
  file = mcpConfigPath({ EPOCH_HOME: home });
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>, code: McpConfigWriteErrorCode) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isMcpConfigWriteError(error, code)) {
    throw new Error(`expected McpConfigWriteError ${code}, got ${String(error)}`);
  }
  return error;
}

function loaded(text: string, name: string) {
  const load = parseMcpConfig(text, file);
  return { config: load.servers.find((s) => s.name === name), diagnostics: load.diagnostics };
}

/** Bytes and mtime, to prove a refused file was not rewritten (not even with the same bytes). */
async function snapshot(path: string) {
  const [bytes, info] = await Promise.all([readFile(path), stat(path)]);
  return { bytes: bytes.toString('hex'), mtimeMs: info.mtimeMs, mode: info.mode & 0o777 };
}

const SEED = `// my servers
{
  "servers": {
    "filesystem": {
      "command": "npx", // from npm
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
      "env": { "LOG_LEVEL": "warn" }
    },
    "remote": {
      "type": "http",
      "url": "https://mcp.example.com/mcp",
      "connectTimeout": 30
    }
  }
}
`;

describe('addServer', () => {
  it('inserts the entry after the last server in the file, and nothing else changes', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, SEED);
    const result = await addServer(file, {
      name: 'github',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: 'secret-token-value' },
    });
    const after = await readFile(file, 'utf8');
    expect(after).toBe(
      SEED.replace(
        '"connectTimeout": 30\n    }',
        `"connectTimeout": 30
    },
    "github": {
      "transport": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_TOKEN": "secret-token-value" }
    }`,
      ),
    );
    expect(result.file).toBe(file);
    expect(result.created).toBe(false);
    expect(
      after.slice(0, result.inserted.offset) +
        after.slice(result.inserted.offset + result.inserted.text.length),
    ).toBe(SEED);
    expect(loaded(after, 'github').diagnostics).toEqual([]);
  });

  it('creates a missing file 0600 in a new 0700 directory', async () => {
    const nested = mcpConfigPath({ EPOCH_HOME: home, EPOCH_PROFILE: 'work' });
    const result = await addServer(nested, {
      name: 'remote',
      transport: 'sse',
      url: 'https://mcp.example.com/sse',
    });
    expect(result).toMatchObject({ file: nested, created: true });
    expect((await stat(nested)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(nested))).mode & 0o777).toBe(0o700);
    const text = await readFile(nested, 'utf8');
    expect(text).toBe(
      '{\n  "servers": {\n    "remote": {\n      "transport": "sse",\n      "url": "https://mcp.example.com/sse"\n    }\n  }\n}\n',
    );
    expect(loaded(text, 'remote').config).toMatchObject({
      transport: 'sse',
      url: 'https://mcp.example.com/sse',
    });
  });

  it('adds "servers" to a top-level object that has none, keeping its members and comments', async () => {
    await mkdir(dirname(file), { recursive: true });
    const original = '{\r\n\t"$schema": "https://example.com/mcp.schema.json" /* ours */\r\n}\r\n';
    await writeFile(file, original);
    const result = await addServer(file, {
      name: 'api',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
    });
    const after = await readFile(file, 'utf8');
    expect(after).toBe(
      '{\r\n\t"$schema": "https://example.com/mcp.schema.json",\r\n\t"servers": {\r\n\t\t"api": {\r\n\t\t\t"transport": "http",\r\n\t\t\t"url": "http://127.0.0.1:9/mcp"\r\n\t\t}\r\n\t} /* ours */\r\n}\r\n',
    );
    expect(result.inserted.offset).toBe(original.indexOf(' /* ours */'));
    expect(loaded(after, 'api').config).toMatchObject({ transport: 'http' });
  });

  it('appends the object to a file that holds only comments', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, '// servers go here');
    await addServer(file, { name: 'fs', transport: 'stdio', command: 'mcp-fs' });
    const after = await readFile(file, 'utf8');
    expect(after.startsWith('// servers go here\n{\n  "servers": {\n    "fs": {')).toBe(true);
    expect(loaded(after, 'fs').config).toMatchObject({ command: 'mcp-fs', args: [], env: {} });
  });

  it('refuses a name outside [A-Za-z0-9_-] before touching anything', async () => {
    file = mcpConfigPath({ EPOCH_HOME: home, EPOCH_PROFILE: 'new' });
    for (const name of ['', 'a b', 'gh:work', 'a.b', 'ünï', 'x/y']) {
      const error = await refusal(
        addServer(file, { name, transport: 'stdio', command: 'x' }),
        'invalid_name',
      );
      expect(error.server).toBe(name);
    }
    await expect(stat(dirname(file))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a name already in the file, and leaves the file as it was', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, SEED);
    await utimes(file, new Date(2000, 0, 1), new Date(2000, 0, 1));
    const before = await snapshot(file);
    const error = await refusal(
      addServer(file, { name: 'remote', transport: 'http', url: 'https://elsewhere.example/mcp' }),
      'duplicate_server',
    );
    expect(error.server).toBe('remote');
    expect(error.message).toContain('"remote"');
    expect(await snapshot(file)).toEqual(before);
  });

  it('refuses a name that differs from one in the file only in case, naming that one', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, SEED);
    const before = await snapshot(file);
    const error = await refusal(
      addServer(file, { name: 'Remote', transport: 'http', url: 'https://elsewhere.example/mcp' }),
      'duplicate_server',
    );
    expect(error.server).toBe('Remote');
    expect(error.message).toContain('server "Remote" was not added');
    expect(error.message).toContain('already has server "remote"');
    expect(await snapshot(file)).toEqual(before);
  });

  it('never writes a file with a syntax error, and hands back the loader diagnostic', async () => {
    await mkdir(dirname(file), { recursive: true });
    const broken = '{\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n';
    await writeFile(file, broken);
    await utimes(file, new Date(2000, 0, 1), new Date(2000, 0, 1));
    const before = await snapshot(file);
    const error = await refusal(
      addServer(file, { name: 'c', transport: 'stdio', command: 'y' }),
      'syntax_error',
    );
    expect(error.diagnostics).toHaveLength(1);
    expect(error.diagnostics[0]).toMatchObject({ code: 'syntax_error', file, line: 4, column: 5 });
    expect(error.message).toContain('line 4, column 5');
    await refusal(removeServer(file, 'a'), 'syntax_error');
    expect(await snapshot(file)).toEqual(before);
  });

  it('refuses a server that would not load, before any file or directory is made', async () => {
    file = mcpConfigPath({ EPOCH_HOME: home, EPOCH_PROFILE: 'new' });
    const ftp = await refusal(
      addServer(file, { name: 'r', transport: 'sse', url: 'ftp://files.example.com' }),
      'invalid_server',
    );
    expect(ftp.diagnostics[0]).toMatchObject({ code: 'invalid_value', path: 'servers.r.url' });
    await refusal(
      addServer(file, { name: 's', transport: 'stdio', command: ' ' }),
      'invalid_server',
    );
    await expect(stat(dirname(file))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the mode of an existing file (0640 stays 0640), adding and removing', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, SEED);
    await chmod(file, 0o640);
    await addServer(file, { name: 'new', transport: 'stdio', command: 'x' });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    await removeServer(file, 'new');
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect(await readFile(file, 'utf8')).toBe(SEED);
  });

  it('keeps a byte-order mark and refuses a file that is not UTF-8', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, '\uFEFF{"servers": {}}');
    await addServer(file, { name: 'a', transport: 'stdio', command: 'x' });
    expect(await readFile(file, 'utf8')).toBe(
      '\uFEFF{"servers": {"a": { "transport": "stdio", "command": "x" }}}',
    );
    await writeFile(file, Buffer.from([0x7b, 0x2f, 0x2a, 0xff, 0x2a, 0x2f, 0x7d])); // {/*\xff*/}
    const before = await snapshot(file);
    await refusal(
      addServer(file, { name: 'b', transport: 'stdio', command: 'x' }),
      'invalid_encoding',
    );
    expect(await snapshot(file)).toEqual(before);
  });

  it('says which fields of the new server are left to write by hand, from the plugin field table', async () => {
    const stdio = await addServer(file, {
      name: 'local',
      transport: 'stdio',
      command: 'x',
      args: ['-y'],
      env: { K: 'v' },
    });
    const remote = await addServer(file, {
      name: 'far',
      transport: 'http',
      url: 'https://x.example',
    });
    expect(stdio.setByHand).toEqual(
      expect.arrayContaining([
        'cwd',
        'timeout',
        'connect_timeout',
        'keepalive_interval',
        'idle_timeout_seconds',
        'max_lifetime_seconds',
        'supports_parallel',
        'skip_preflight',
      ]),
    );
    for (const set of ['transport', 'type', 'command', 'args', 'env', 'headers', 'url']) {
      expect(stdio.setByHand).not.toContain(set);
    }
    expect(remote.setByHand).toContain('headers');
    expect(remote.setByHand).not.toContain('cwd');
    // Derived from the table: each field for the transport is either written, an alias of the
    // transport the page already chose, or left to the user — never silently missing.
    for (const [result, transport] of [
      [stdio, 'stdio'],
      [remote, 'http'],
    ] as const) {
      const servers = parse(await readFile(file, 'utf8')).servers as Record<string, object>;
      const written = Object.keys(servers[transport === 'stdio' ? 'local' : 'far'] ?? {});
      const fields = MCP_CONFIG_FIELDS.filter((f) => f.transports.includes(transport));
      for (const field of fields) {
        const accounted =
          written.includes(field.name) ||
          result.setByHand.includes(field.name) ||
          ['type', 'streamable'].includes(field.name);
        expect(accounted, field.name).toBe(true);
      }
      expect(result.setByHand.every((name) => !written.includes(name))).toBe(true);
    }
  });
});

describe('removeServer', () => {
  it('takes out a hand-written entry with its comma and line, and keeps every comment outside it', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, SEED);
    await removeServer(file, 'filesystem');
    expect(await readFile(file, 'utf8')).toBe(`// my servers
{
  "servers": {
    "remote": {
      "type": "http",
      "url": "https://mcp.example.com/mcp",
      "connectTimeout": 30
    }
  }
}
`);
    await writeFile(file, SEED);
    await removeServer(file, 'remote');
    const after = await readFile(file, 'utf8');
    expect(after).toContain('"command": "npx", // from npm');
    expect(parseMcpConfig(after, file)).toMatchObject({
      diagnostics: [],
      servers: [{ name: 'filesystem' }],
    });
  });

  describe('the comment block directly above an entry goes with it', () => {
    const FILE = '/home/u/.epoch/mcp.json';
    const COMMENTED = `// my servers
{
  "servers": {
    // GitHub, work account
    /* rotated monthly */
    "github": { "command": "gh-mcp" },
    // Kept: a blank line separates it from the entry below

    "fs": { "command": "fs-mcp" },
    /*
     * Two lines about remote
     */
    "remote": { "url": "https://mcp.example.com/mcp" }
  }
}
`;

    it('removes the first entry with its comment lines, and not one other byte', () => {
      expect(removeServerFromText(COMMENTED, FILE, 'github')).toBe(`// my servers
{
  "servers": {
    // Kept: a blank line separates it from the entry below

    "fs": { "command": "fs-mcp" },
    /*
     * Two lines about remote
     */
    "remote": { "url": "https://mcp.example.com/mcp" }
  }
}
`);
    });

    it('keeps a comment separated from the entry by a blank line, and the one after the entry before', () => {
      expect(removeServerFromText(COMMENTED, FILE, 'fs')).toBe(`// my servers
{
  "servers": {
    // GitHub, work account
    /* rotated monthly */
    "github": { "command": "gh-mcp" },
    // Kept: a blank line separates it from the entry below

    /*
     * Two lines about remote
     */
    "remote": { "url": "https://mcp.example.com/mcp" }
  }
}
`);
    });

    it('removes the last entry with its block comment, and the comma before it, so the rest stays valid', () => {
      const after = removeServerFromText(COMMENTED, FILE, 'remote');
      expect(after).toBe(`// my servers
{
  "servers": {
    // GitHub, work account
    /* rotated monthly */
    "github": { "command": "gh-mcp" },
    // Kept: a blank line separates it from the entry below

    "fs": { "command": "fs-mcp" }
  }
}
`);
      expect(parseMcpConfig(after, FILE).diagnostics).toEqual([]);
    });

    it('removes the only entry with its comment when addServer could not have put it there', () => {
      // The trailing comma: addServer writes none into an object that had no member.
      const only =
        '{\r\n\t"servers": {\r\n\t\t// the one\r\n\t\t"a": { "command": "x" },\r\n\t},\r\n\t"other": 1 // mine\r\n}\r\n';
      expect(removeServerFromText(only, FILE, 'a')).toBe(
        '{\r\n\t"servers": {\r\n\t},\r\n\t"other": 1 // mine\r\n}\r\n',
      );
    });

    it('keeps the comment above the only entry when addServer would have written the entry just so', () => {
      // Such an entry cannot be told from one added under a comment the file had before (a
      // `servers` holding only "// add servers below"): add then remove must give that file back.
      const only =
        '{\r\n\t"servers": {\r\n\t\t// the one\r\n\t\t"a": { "command": "x" }\r\n\t},\r\n\t"other": 1 // mine\r\n}\r\n';
      expect(removeServerFromText(only, FILE, 'a')).toBe(
        '{\r\n\t"servers": {\r\n\t\t// the one\r\n\t},\r\n\t"other": 1 // mine\r\n}\r\n',
      );
    });

    it('keeps the comment of a comment-only "servers" an entry was added under: add then remove is the identity', async () => {
      await mkdir(dirname(file), { recursive: true });
      const before = '{\n  "servers": {\n    // add servers below\n  }\n}\n';
      await writeFile(file, before);
      await addServer(file, { name: 'n', transport: 'stdio', command: 'y' });
      const added = await readFile(file, 'utf8');
      expect(added).toContain('// add servers below\n    "n": {');
      await removeServer(file, 'n');
      expect(await readFile(file, 'utf8')).toBe(before);
    });
  });

  it('removes every entry of a name given twice, so the server is really gone', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      '{"servers": {"a": {"command": "x"}, "b": {"command": "y"}, "a": {"command": "z"}}}',
    );
    await removeServer(file, 'a');
    expect(await readFile(file, 'utf8')).toBe('{"servers": {"b": {"command": "y"}}}');
  });

  it('leaves an empty "servers" behind when the file had none before addServer', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, '{\n  "x": 1\n}\n');
    await addServer(file, { name: 'a', transport: 'stdio', command: 'x' });
    await removeServer(file, 'a');
    expect(await readFile(file, 'utf8')).toBe('{\n  "x": 1,\n  "servers": {}\n}\n');
  });

  it('refuses a name that is not in the file, or a file that does not exist', async () => {
    await refusal(removeServer(file, 'ghost'), 'unknown_server');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, SEED);
    await refusal(removeServer(file, 'ghost'), 'unknown_server');
    expect(await readFile(file, 'utf8')).toBe(SEED);
  });
});

describe('the lock file', () => {
  const lock = () => `${file}.lock`;

  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.once('exit', resolve));
    if (child.pid === undefined) throw new Error('no pid');
    return child.pid;
  }

  it('takes over a lock whose process is dead', async () => {
    await mkdir(dirname(file), { recursive: true });
    const pid = await deadPid();
    await writeFile(lock(), JSON.stringify({ pid, host: hostname(), time: Date.now() }));
    await addServer(file, { name: 'a', transport: 'stdio', command: 'x' }, { lockWaitMs: 200 });
    expect(loaded(await readFile(file, 'utf8'), 'a').config).toBeDefined();
    await expect(stat(lock())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over a lock older than the stale limit even when its process still runs', async () => {
    await mkdir(dirname(file), { recursive: true });
    const old = Date.now() - 60_000;
    await writeFile(lock(), JSON.stringify({ pid: process.pid, host: hostname(), time: old }));
    await addServer(file, { name: 'a', transport: 'stdio', command: 'x' }, { lockWaitMs: 200 });
    expect(loaded(await readFile(file, 'utf8'), 'a').config).toBeDefined();
  });

  it('gives up after the bounded wait on a live, fresh lock, and writes nothing', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, SEED);
    const held = JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now() });
    await writeFile(lock(), held);
    const before = await snapshot(file);
    const error = await refusal(
      addServer(file, { name: 'a', transport: 'stdio', command: 'x' }, { lockWaitMs: 300 }),
      'lock_timeout',
    );
    expect(error.message).toContain(`process ${process.pid}`);
    expect(await snapshot(file)).toEqual(before);
    // Someone else's lock is not ours to remove.
    expect(await readFile(lock(), 'utf8')).toBe(held);
  });

  it('is released when the edit is refused', async () => {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, SEED);
    await refusal(
      addServer(file, { name: 'remote', transport: 'stdio', command: 'x' }),
      'duplicate_server',
    );
    await expect(stat(lock())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
