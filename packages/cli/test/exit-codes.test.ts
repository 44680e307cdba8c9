// The exit-code table, walked: every command × every kind of failure, through the real `epoch`
// binary against real servers (the cli fixture, a command that does not exist, an HTTP server that
// answers 401, testkit's task server over HTTP for `tasks`), each in a fresh copy of its config
// file. The tasks that `tasks show` and `tasks cancel` name are recorded first, each by an `epoch mcp
// call` of the task server's tool under a server name of its own (TASKS), in a home of their own.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTaskRecords } from '@epoch-agent/runtime';
import {
  fixtureServerArgs,
  type RunningModernServer,
  startModernHttp,
  TASK_SERVER,
  waitUntil,
} from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch, startEpoch } from './epoch-process.js';

const COLUMNS = {
  list: ['mcp list'],
  get: ['mcp get'],
  'add, add-json': ['mcp add', 'mcp add-json'],
  'remove, disable, enable': ['mcp remove', 'mcp disable', 'mcp enable'],
  'status, tools': ['mcp status', 'mcp tools'],
  'tools <name>, reconnect, diff': ['mcp tools <name>', 'mcp reconnect', 'mcp diff'],
  call: ['mcp call'],
  'login, logout': ['mcp login', 'mcp logout'],
  web: ['web'],
  tasks: ['mcp tasks'],
  'tasks show': ['mcp tasks show'],
  'tasks cancel': ['mcp tasks cancel'],
} as const;
type Column = keyof typeof COLUMNS;
type Command = (typeof COLUMNS)[Column][number];

const KINDS = [
  'done',
  'unknown command',
  'unknown option',
  'bad value',
  'unknown server',
  'the tool reports an error',
  'server cannot be reached',
  'server needs a login',
  'config file has errors',
  'the task has already ended',
] as const;
type Kind = (typeof KINDS)[number];

/** `—`: the command has no such case. */
type Expected = number | '—';
// biome-ignore format: a table, read as one
const EXPECTED: Record<Kind, Record<Column, Expected>> = {
  'done':                      { list: 0,   get: 0,   'add, add-json': 0,   'remove, disable, enable': 0,   'status, tools': 0,   'tools <name>, reconnect, diff': 0,   call: 0,   'login, logout': '—', web: '—', tasks: 0,   'tasks show': 0, 'tasks cancel': 0 },
  'unknown command':           { list: 2,   get: 2,   'add, add-json': 2,   'remove, disable, enable': 2,   'status, tools': 2,   'tools <name>, reconnect, diff': 2,   call: 2,   'login, logout': 2,   web: 2,   tasks: 2,   'tasks show': 2, 'tasks cancel': 2 },
  'unknown option':            { list: 2,   get: 2,   'add, add-json': 2,   'remove, disable, enable': 2,   'status, tools': 2,   'tools <name>, reconnect, diff': 2,   call: 2,   'login, logout': 2,   web: 2,   tasks: 2,   'tasks show': 2, 'tasks cancel': 2 },
  'bad value':                 { list: '—', get: '—', 'add, add-json': 2,   'remove, disable, enable': 2,   'status, tools': '—', 'tools <name>, reconnect, diff': '—', call: 2,   'login, logout': '—', web: 2,   tasks: '—', 'tasks show': 2, 'tasks cancel': 2 },
  'unknown server':            { list: '—', get: 2,   'add, add-json': '—', 'remove, disable, enable': 2,   'status, tools': '—', 'tools <name>, reconnect, diff': 2,   call: 2,   'login, logout': 2,   web: '—', tasks: '—', 'tasks show': 2, 'tasks cancel': 2 },
  'the tool reports an error': { list: '—', get: '—', 'add, add-json': '—', 'remove, disable, enable': '—', 'status, tools': '—', 'tools <name>, reconnect, diff': '—', call: 1,   'login, logout': '—', web: '—', tasks: '—', 'tasks show': 1, 'tasks cancel': '—' },
  'server cannot be reached':  { list: '—', get: '—', 'add, add-json': 4,   'remove, disable, enable': '—', 'status, tools': 1,   'tools <name>, reconnect, diff': 4,   call: 4,   'login, logout': '—', web: '—', tasks: '—', 'tasks show': 4, 'tasks cancel': 4 },
  'server needs a login':      { list: '—', get: '—', 'add, add-json': 3,   'remove, disable, enable': '—', 'status, tools': 1,   'tools <name>, reconnect, diff': 3,   call: 3,   'login, logout': '—', web: '—', tasks: '—', 'tasks show': 3, 'tasks cancel': 3 },
  'config file has errors':    { list: 1,   get: 1,   'add, add-json': 1,   'remove, disable, enable': 1,   'status, tools': 1,   'tools <name>, reconnect, diff': 1,   call: 1,   'login, logout': 1,   web: '—', tasks: 0,   'tasks show': 1, 'tasks cancel': 1 },
  'the task has already ended': { list: '—', get: '—', 'add, add-json': '—', 'remove, disable, enable': '—', 'status, tools': '—', 'tools <name>, reconnect, diff': '—', call: '—', 'login, logout': '—', web: '—', tasks: '—', 'tasks show': '—', 'tasks cancel': 1 },
};

let dir: string;
let refusing: Server;
let lockedUrl: string;
let taskServer: RunningModernServer;
const MISSING = `epoch-no-such-command-${randomUUID()}`;
const GOOD = { command: process.execPath, args: fixtureServerArgs('cli') };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-exit-codes-'));
  // Answers every request 401, as a server that wants a login does.
  refusing = createServer((_req, res) => {
    res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="test"' }).end();
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  lockedUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`;
  taskServer = await startModernHttp([], {}, TASK_SERVER);
  const home = join(dir, 'tasks-home');
  await Promise.all((Object.keys(TASKS) as TaskServer[]).map((server) => recordTask(home, server)));
  // Seven `epoch` processes at once, more than the suite's hooks are given: a hang still ends.
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => refusing.close(resolve));
  await taskServer?.stop();
  await rm(dir, { recursive: true, force: true });
});

/**
 * A fresh config file: `good` alone, or with a server that is `gone` or `locked`, or with the task
 * server under the names of the TASKS it knows (`tasks`); or broken.
 */
async function config(with_: 'good' | 'gone' | 'locked' | 'tasks' | 'broken'): Promise<string> {
  const file = join(dir, `mcp-${randomUUID()}.json`);
  const servers: Record<string, unknown> = { good: GOOD };
  if (with_ === 'gone') servers.gone = { command: MISSING };
  if (with_ === 'locked') servers.locked = { type: 'http', url: lockedUrl };
  if (with_ === 'tasks') {
    for (const name of ['tasks', 'failing', 'cancel-plain', 'cancel-json']) {
      servers[name] = { type: 'http', url: taskServer.url };
    }
  }
  await writeFile(
    file,
    with_ === 'broken' ? '{ "servers": { "good": { "command": "x" ' : JSON.stringify({ servers }),
  );
  return file;
}

/** The commands that take --json. */
const JSON_COMMANDS: ReadonlySet<Command> = new Set([
  'mcp list',
  'mcp get',
  'mcp add',
  'mcp add-json',
  'mcp disable',
  'mcp enable',
  'mcp status',
  'mcp tools',
  'mcp tools <name>',
  'mcp call',
  'mcp reconnect',
  'mcp diff',
  'mcp tasks',
  'mcp tasks show',
  'mcp tasks cancel',
]);

const words = (command: Command) => command.replace(' <name>', '').split(' ');

/**
 * The tasks the `tasks show` and `tasks cancel` cells name, by the server name each was recorded
 * under: one that ended, one that failed, one left running for each cancel (the call is killed once
 * its task is recorded), and one each for a server the cell's config lacks (`elsewhere`), points at a
 * missing command (`gone`) or at a server that wants a login (`locked`).
 */
const TASKS = {
  tasks: 'ends',
  failing: 'fails',
  'cancel-plain': 'running',
  'cancel-json': 'running',
  elsewhere: 'ends',
  gone: 'ends',
  locked: 'ends',
} as const;
type TaskServer = keyof typeof TASKS;
const taskIds = new Map<TaskServer, string>();

/** Runs `epoch mcp call <server> work` in `home` and gives the id of the task it recorded. */
async function recordTask(home: string, server: TaskServer): Promise<void> {
  const file = join(dir, `mcp-${randomUUID()}.json`);
  await writeFile(
    file,
    JSON.stringify({ servers: { [server]: { type: 'http', url: taskServer.url } } }),
  );
  const task = TASKS[server];
  const args = { steps: task === 'running' ? 600 : 1, stepMs: 100, fail: task === 'fails' };
  const call = startEpoch(
    ['mcp', 'call', '--config', file, server, 'work', '--args', JSON.stringify(args)],
    { EPOCH_HOME: home },
  );
  try {
    const record = await waitUntil(
      async () =>
        (await readTaskRecords({ dir: join(home, 'tasks') })).find((r) => r.server === server),
      `epoch mcp call of ${server} to record its task`,
    );
    taskIds.set(server, record.taskId);
    // One that ends is let end, so its record says how.
    if (task !== 'running') await call.done;
  } finally {
    call.child.kill('SIGKILL');
    await call.done;
  }
}

/** The command line of a `tasks show` or `tasks cancel` cell: `<id>` names one of TASKS. */
async function taskArgv(kind: Kind, command: Command, extra: string[]): Promise<string[]> {
  const run = async (with_: Parameters<typeof config>[0], id: string) => [
    ...words(command),
    '--config',
    await config(with_),
    ...extra,
    id,
  ];
  const id = (server: TaskServer) => taskIds.get(server) ?? '';
  switch (kind) {
    case 'done':
      if (command === 'mcp tasks show') return run('tasks', id('tasks'));
      return run('tasks', id(extra.includes('--json') ? 'cancel-json' : 'cancel-plain'));
    case 'bad value':
      return run('tasks', 'no-such-task');
    case 'unknown server':
      return run('tasks', id('elsewhere'));
    case 'the tool reports an error':
      return run('tasks', id('failing'));
    case 'server cannot be reached':
      return run('gone', id('gone'));
    case 'server needs a login':
      return run('locked', id('locked'));
    case 'config file has errors':
      return run('broken', id('tasks'));
    case 'the task has already ended':
      // Let end when it was recorded: its server says so, and nothing is sent.
      return run('tasks', id('tasks'));
    case 'unknown command':
    case 'unknown option':
      throw new Error(`${kind} is built as for every command`);
  }
}

/** The command line of one cell; its config file is made fresh for it. */
async function argvOf(kind: Kind, command: Command, extra: string[] = []): Promise<string[]> {
  // Options first: from add's command word on, every word is the server's.
  const run = (file: string, ...rest: string[]) => [
    ...words(command),
    '--config',
    file,
    ...extra,
    ...rest,
  ];
  const named = (name: string, file: string, ...rest: string[]) => {
    if (command === 'mcp call') return run(file, name, 'echo', ...rest);
    if (['mcp list', 'mcp status', 'mcp tools', 'mcp tasks'].includes(command)) {
      return run(file, ...rest);
    }
    return run(file, name, ...rest);
  };
  const showOrCancel = command === 'mcp tasks show' || command === 'mcp tasks cancel';
  if (showOrCancel && kind !== 'unknown command' && kind !== 'unknown option') {
    return taskArgv(kind, command, extra);
  }
  switch (kind) {
    case 'done': {
      const file = await config('good');
      if (command === 'mcp add') return run(file, 'new', GOOD.command, ...GOOD.args);
      if (command === 'mcp add-json') return run(file, 'new', JSON.stringify(GOOD));
      if (command === 'mcp call') return run(file, 'good', 'echo', '--arg', 'text=hi');
      return named('good', file);
    }
    case 'unknown command': {
      // The last word misspelled: `mcp tasks showx` is an unknown action of `tasks`.
      const all = words(command);
      return [...all.slice(0, -1), `${all.at(-1)}x`, ...extra];
    }
    case 'unknown option':
      return [...words(command), ...extra, '--frobnicate'];
    case 'bad value': {
      const file = await config('good');
      if (command === 'mcp add') return run(file, 'good', GOOD.command);
      if (command === 'mcp add-json') return run(file, 'new', '{"command": "node", "timeot": 5}');
      if (command === 'mcp remove') return run(file, 'my:server');
      if (command === 'mcp call') return run(file, 'good', 'echo', '--arg', 'times=many');
      if (command === 'web') return [...words(command), ...extra, '--port', 'many'];
      return named('good', file, '--tool', '');
    }
    case 'unknown server':
      return named('nope', await config('good'));
    case 'the tool reports an error':
      return run(await config('good'), 'good', 'fail');
    case 'server cannot be reached': {
      const file = await config('gone');
      if (command === 'mcp add') return run(file, 'new', MISSING);
      if (command === 'mcp add-json') return run(file, 'new', JSON.stringify({ command: MISSING }));
      return named('gone', file);
    }
    case 'server needs a login': {
      const file = await config('locked');
      if (command === 'mcp add') return run(file, 'new', '--transport', 'http', lockedUrl);
      if (command === 'mcp add-json') {
        return run(file, 'new', JSON.stringify({ type: 'http', url: lockedUrl }));
      }
      return named('locked', file);
    }
    case 'config file has errors': {
      const file = await config('broken');
      if (command === 'mcp add') return run(file, 'new', GOOD.command);
      if (command === 'mcp add-json') return run(file, 'new', JSON.stringify(GOOD));
      return named('good', file);
    }
    case 'the task has already ended':
      throw new Error(`${kind} is a case of "tasks cancel" only`);
  }
}

const CELLS = KINDS.flatMap((kind) =>
  (Object.keys(COLUMNS) as Column[]).flatMap((column) => {
    const expected = EXPECTED[kind][column];
    if (expected === '—') return [];
    return COLUMNS[column].map((command) => ({ kind, command, expected }));
  }),
);

describe('exit codes: every command × every kind of failure', () => {
  it('README.md has this table, cell for cell', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const lines = readme.split('\n');
    const start = lines.findIndex((line) => line.startsWith('| what happened |'));
    expect(start).toBeGreaterThan(-1);
    const cells = (line: string) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/^`|`$/g, ''));
    const [, ...header] = cells(lines[start] ?? '');
    expect(header).toEqual(Object.keys(COLUMNS));
    const rows = lines.slice(start + 2, start + 2 + KINDS.length).map(cells);
    expect(rows.map(([kind]) => kind)).toEqual([...KINDS]);
    for (const [kind, ...codes] of rows) {
      const expected = Object.values(EXPECTED[kind as Kind]).map(String);
      expect({ kind, codes }).toEqual({ kind, codes: expected });
    }
  });

  it.concurrent.each(CELLS)('$command, $kind: $expected', async ({ kind, command, expected }) => {
    // A `tasks` cell's home is the one its tasks are recorded in.
    const env = { EPOCH_HOME: join(dir, command.startsWith('mcp tasks') ? 'tasks-home' : 'home') };
    const argv = await argvOf(kind, command);
    const withJson = JSON_COMMANDS.has(command) || kind === 'unknown command';
    // The --json run has a config file of its own: it runs beside the plain one, not after it (a
    // reconnect that cannot reach its server spends seconds on its series in each).
    const [run, json] = await Promise.all([
      epoch(argv, env),
      withJson ? argvOf(kind, command, ['--json']).then((jsonArgv) => epoch(jsonArgv, env)) : null,
    ]);
    expect({ argv, code: run.code }, `${run.out}\n${run.err}`).toEqual({ argv, code: expected });
    if (json === null) return;
    // With --json the same code, and an error is one JSON object on stderr that carries it.
    expect(json.code, json.err).toBe(expected);
    if (json.err.trim() !== '') {
      expect(JSON.parse(json.err)).toMatchObject({ error: { exit: expected } });
    }
  });
});
