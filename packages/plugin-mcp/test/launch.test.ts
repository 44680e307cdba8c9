// What an entry would run as a person sees it (describeLaunch), and the key its approval is stored
// under (launchKey): the key survives any rewriting of the file that keeps its meaning, and any
// changed value of the launch changes it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeLaunch, launchKey } from '../src/config/launch.js';
import { parseMcpConfig, parseMcpServerEntries } from '../src/config/load.js';
import type { McpServerConfig } from '../src/types.js';

/** The one server of an mcp.json whose `servers` hold `entry` as `s`. */
function server(entry: object, text?: string): McpServerConfig {
  const load = parseMcpConfig(text ?? JSON.stringify({ servers: { s: entry } }), '/h/mcp.json');
  const [config] = load.servers;
  if (config === undefined) throw new Error(JSON.stringify(load.diagnostics));
  return config;
}

const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,11}$/);
const envName = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,7}$/);
const headerName = fc.stringMatching(/^X-[A-Za-z0-9-]{1,8}$/);

interface StdioEntry {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly envFile?: string;
}
interface RemoteEntry {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

const stdioEntry: fc.Arbitrary<StdioEntry> = fc.record(
  {
    command: word,
    args: fc.array(word, { maxLength: 5 }),
    env: fc.dictionary(envName, word, { maxKeys: 4 }),
    cwd: word.map((w) => `/work/${w}`),
    envFile: word.map((w) => `/etc/${w}.env`),
  },
  { requiredKeys: ['command', 'args', 'env'] },
);

const remoteEntry: fc.Arbitrary<RemoteEntry> = fc.record({
  url: fc
    .tuple(word, word)
    .map(([host, path]) => `https://${host.replace(/[./]/g, 'x')}.test/${path}`),
  headers: fc.dictionary(headerName, word, { maxKeys: 4 }),
});

/** The entry as a file may write it: keys in any order, snake_case or camelCase, any indentation. */
function written(
  entry: StdioEntry | RemoteEntry,
  order: readonly number[],
  camel: boolean,
  indent: number,
): string {
  const fields: [string, unknown][] =
    'url' in entry
      ? [
          ['url', entry.url],
          ['headers', shuffled(entry.headers, order)],
          ['timeout', 30],
        ]
      : [
          ['command', entry.command],
          ['args', entry.args],
          ['env', shuffled(entry.env, order)],
          ...(entry.cwd === undefined ? [] : [['cwd', entry.cwd] as [string, unknown]]),
          ...(entry.envFile === undefined
            ? []
            : [[camel ? 'envFile' : 'env_file', entry.envFile] as [string, unknown]]),
        ];
  const entryObject = Object.fromEntries(shuffled(fields, order));
  return `// a comment\n${JSON.stringify({ servers: { s: entryObject } }, null, indent)}\n`;
}

function shuffled<T>(items: T, order: readonly number[]): T {
  const list: unknown[] = Array.isArray(items) ? [...items] : Object.entries(items as object);
  const out = list
    .map((item, i) => [order[i % Math.max(order.length, 1)] ?? i, i, item] as const)
    .toSorted((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([, , item]) => item);
  return (Array.isArray(items) ? out : Object.fromEntries(out as [string, unknown][])) as T;
}

/** One value of the launch changed to something it was not. */
function changed(entry: StdioEntry | RemoteEntry, pick: number, fresh: string): object {
  if ('url' in entry) {
    const names = Object.keys(entry.headers);
    const choices = [
      () => ({ ...entry, url: `${entry.url}/${fresh}` }),
      () => ({ ...entry, headers: { ...entry.headers, 'X-Added-Header-Name': fresh } }),
      ...names.map((name) => () => {
        const { [name]: _, ...rest } = entry.headers;
        return { ...entry, headers: rest };
      }),
    ];
    return pickOne(choices, pick)();
  }
  const choices: (() => object)[] = [
    () => ({ ...entry, command: `${entry.command}-${fresh}` }),
    () => ({ ...entry, args: [...entry.args, fresh] }),
    () => ({ ...entry, args: [fresh, ...entry.args.slice(1)] }),
    () => ({ ...entry, cwd: `/elsewhere/${fresh}` }),
    () => ({ ...entry, envFile: `/other/${fresh}.env` }),
    () => ({ ...entry, env: { ...entry.env, NEW_NAME_Z: fresh } }),
    ...Object.keys(entry.env).map((name) => () => ({
      ...entry,
      env: { ...entry.env, [name]: `${entry.env[name]}${fresh}` },
    })),
  ];
  return pickOne(choices, pick)();
}

function pickOne<T>(choices: readonly T[], pick: number): T {
  const chosen = choices[pick % choices.length];
  if (chosen === undefined) throw new Error('no choice');
  return chosen;
}

const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);

describe('launchKey', () => {
  it('key order, snake_case or camelCase, indentation and comments never change it', () => {
    fc.assert(
      fc.property(
        fc.oneof(stdioEntry, remoteEntry),
        fc.array(fc.nat(20), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(20), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.nat(6),
        (entry, orderA, orderB, camel, indent) => {
          const a = server({}, written(entry, orderA, false, 2));
          const b = server({}, written(entry, orderB, camel, indent));
          expect(launchKey(b)).toBe(launchKey(a));
          expect(launchKey(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
        },
      ),
    );
  });

  it('any changed value of the launch changes it', () => {
    fc.assert(
      fc.property(fc.oneof(stdioEntry, remoteEntry), fc.nat(), word, (entry, pick, fresh) => {
        const other = changed(entry, pick, fresh);
        // Replacing the first argument by itself changes nothing.
        fc.pre(!same(other, entry));
        expect(launchKey(server(other))).not.toBe(launchKey(server(entry)));
      }),
    );
  });

  it('settings that are not the launch (timeouts, enabled, the tool choice) leave it alone', () => {
    const entry = { command: 'srv', args: ['--port', '1'], env: { A: 'x' } };
    const other = {
      ...entry,
      timeout: 9,
      enabled: false,
      exclude_tools: ['rm'],
      keepalive: 0,
    };
    expect(launchKey(server(other))).toBe(launchKey(server(entry)));
  });

  it(`a \${VAR} in the command is keyed by what it expands to; an env value by what is written`, () => {
    const entry = server({ command: `\${BIN}`, env: { TOKEN: `\${TOKEN}` } });
    const here = launchKey(entry, { BIN: '/usr/bin/a', TOKEN: 'one' });
    expect(launchKey(entry, { BIN: '/usr/bin/a', TOKEN: 'two' })).toBe(here);
    expect(launchKey(entry, { BIN: '/tmp/evil', TOKEN: 'one' })).not.toBe(here);
  });

  it('holds no value of the entry in clear', () => {
    const secret = 'sk-live-0123456789abcdef';
    const key = launchKey(server({ command: 'srv', env: { API_KEY: secret } }));
    expect(key).not.toContain(secret);
    expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('describeLaunch', () => {
  it('shows the program and its arguments, env names and env_file, never a value', () => {
    const launch = describeLaunch(
      server({
        command: 'node',
        args: [
          'server.js',
          '--api-key',
          'sk-live-0123456789',
          '--port',
          `\${PORT}`,
          `\${API_TOKEN}`,
        ],
        env: { OPENAI_API_KEY: 'sk-env-secret-value', LOG_LEVEL: 'debug' },
        cwd: '/srv/app',
        env_file: '.env',
      }),
      { PORT: '8080', API_TOKEN: 'tok-from-env-123' },
    );
    expect(launch).toEqual({
      transport: 'stdio',
      command: ['node', 'server.js', '--api-key', '<redacted>', '--port', '8080', '<redacted>'],
      cwd: '/srv/app',
      envNames: ['LOG_LEVEL', 'OPENAI_API_KEY'],
      envFile: '/h/.env',
    });
    const text = JSON.stringify(launch);
    for (const secret of [
      'sk-live-0123456789',
      'sk-env-secret-value',
      'debug',
      'tok-from-env-123',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('an unset variable shows as written: the start would fail naming it', () => {
    const launch = describeLaunch(server({ command: 'srv', args: [`\${NOT_SET_HERE}`] }), {});
    expect(launch.command).toEqual(['srv', `\${NOT_SET_HERE}`]);
  });

  it('shows a remote server by its URL, credentials redacted, and its header names', () => {
    const launch = describeLaunch(
      server({
        url: 'https://user:pw-secret@mcp.example.test/mcp?key=q-secret',
        headers: { Authorization: 'Bearer hdr-secret', 'X-Team': 'core' },
      }),
    );
    expect(launch).toEqual({
      transport: 'sse',
      url: 'https://user:***@mcp.example.test/mcp?key=***',
      headerNames: ['Authorization', 'X-Team'],
    });
  });

  it('says when starting it downloads and runs code, and what it fetches', () => {
    const download = (command: string, args: string[]) =>
      describeLaunch(server({ command, args })).downloads;
    expect(download('npx', ['-y', '@modelcontextprotocol/server-brave-search'])).toEqual({
      launcher: 'npx -y',
      what: '@modelcontextprotocol/server-brave-search',
    });
    expect(download('/usr/local/bin/npx', ['some-pkg'])).toEqual({
      launcher: 'npx',
      what: 'some-pkg',
    });
    expect(download('uvx', ['--from', 'git+https://x.test/r', 'tool'])).toEqual({
      launcher: 'uvx',
      what: 'git+https://x.test/r',
    });
    expect(download('pipx', ['run', 'mcp-server-fetch'])).toEqual({
      launcher: 'pipx run',
      what: 'mcp-server-fetch',
    });
    expect(download('bunx', ['pkg@1'])).toEqual({ launcher: 'bunx', what: 'pkg@1' });
    expect(
      download('docker', ['run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/mcp:1']),
    ).toEqual({ launcher: 'docker run', what: 'ghcr.io/github/mcp:1' });
    expect(download('sh', ['-c', 'curl -fsSL https://get.example.test/i.sh | sh'])).toEqual({
      launcher: 'a script from a URL',
      what: 'https://get.example.test/i.sh',
    });
    expect(download('deno', ['run', '-A', 'https://x.test/mcp.ts'])).toEqual({
      launcher: 'a script from a URL',
      what: 'https://x.test/mcp.ts',
    });
    // Behind a wrapper that runs the rest: cmd (Claude Desktop on Windows), env, a shell's -c.
    expect(download('cmd', ['/c', 'npx', '-y', '@modelcontextprotocol/server-github'])).toEqual({
      launcher: 'npx -y',
      what: '@modelcontextprotocol/server-github',
    });
    expect(download('C:\\Windows\\System32\\cmd.exe', ['/C', 'npx -y pkg'])).toEqual({
      launcher: 'npx -y',
      what: 'pkg',
    });
    expect(download('env', ['-i', 'A=1', 'uvx', 'mcp-server-time'])).toEqual({
      launcher: 'uvx',
      what: 'mcp-server-time',
    });
    expect(download('bash', ['-c', 'exec npx -y pkg'])).toEqual({
      launcher: 'npx -y',
      what: 'pkg',
    });
    expect(download('sh', ['-c', 'npx -y pkg --flag'])).toEqual({
      launcher: 'npx -y',
      what: 'pkg',
    });
    expect(download('cmd', ['/c', 'node', 'server.js'])).toBeUndefined();
    // Local programs download nothing, even with a URL among their arguments.
    expect(download('node', ['server.js', '--upstream', 'https://api.test'])).toBeUndefined();
    expect(download('python3', ['-m', 'my_server'])).toBeUndefined();
    expect(download('docker', ['ps'])).toBeUndefined();
  });

  it('a host entry given in code is described as given: no variable is expanded', () => {
    const [config] = parseMcpServerEntries(
      { s: { command: `run-\${HOME}` } },
      { origin: 'host', baseDir: '/' },
    ).servers;
    if (config === undefined) throw new Error('the entry did not load');
    expect(describeLaunch(config, { HOME: '/home/u' }).command).toEqual([`run-\${HOME}`]);
  });
});
