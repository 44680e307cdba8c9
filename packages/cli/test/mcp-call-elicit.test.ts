// `epoch mcp call` of a tool whose server asks the person a question (elicitation), against real
// servers: the reference server's form, a 2026-era server (the official server SDK's
// input_required) and a 2025-era server of ours that asks whatever the test gives it (a secret, a
// page to visit). On a terminal the person answers; in a pipe nobody is
// asked, and the server is told so.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVERYTHING_ENTRY, MODERN_SERVER } from '@epoch-agent/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeOpener } from '../../plugin-mcp/test/support/fake-opener.js';
import { startEpoch } from './epoch-process.js';
import { onTerminal, personAt, type TerminalRun } from './on-terminal.js';

const ASKING_SERVER = fileURLToPath(new URL('./fixtures/asking-server.mjs', import.meta.url));

let dir: string;
let home: string;
let config: string;
let record: string;
const runs: TerminalRun[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-elicit-call-'));
  home = join(dir, 'home');
  config = join(home, 'mcp.json');
  record = join(dir, 'record');
  await mkdir(home, { recursive: true });
  const servers = {
    asking: { command: process.execPath, args: [ASKING_SERVER, record] },
    everything: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
    modern: { command: process.execPath, args: [MODERN_SERVER, '--ask'] },
  };
  await writeFile(config, JSON.stringify({ servers }));
});

afterEach(async () => {
  for (const run of runs.splice(0)) run.child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** What the asking server recorded so far, a line per event. */
async function recorded(): Promise<string[]> {
  return (await readFile(record, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

/** `epoch mcp call <argv>` on a terminal, and a person reading it and typing. */
function calling(argv: readonly string[], env: Record<string, string> = {}) {
  const run = onTerminal(['mcp', 'call', ...argv, '--config', config], {
    EPOCH_HOME: home,
    ...env,
  });
  runs.push(run);
  return { run, ...personAt(run) };
}

/**
 * The asking server's tool, asking `params` (elicitation/create's); `hashed` fields come back
 * hashed; `progress`: it reports progress first; `failOnCancel`: `cancel` fails the call.
 */
function ask(
  params: object,
  hashed: string[] = [],
  more: { progress?: boolean; failOnCancel?: boolean } = {},
): string[] {
  return ['asking', 'ask', '--args', JSON.stringify({ params, hashed, ...more })];
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** Every file under `root`, as text. */
async function everyFile(root: string): Promise<string> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')),
  );
  return texts.join('\n');
}

describe('epoch mcp call of a server that asks, on a terminal', () => {
  it("fills in the reference server's form: a field typed, the others' defaults taken on Enter", async () => {
    const person = calling(['everything', 'trigger-elicitation-request']);
    await person.sees(
      'MCP server "everything" (user) asks you, during tool "trigger-elicitation-request":\r\n',
    );
    await person.sees('  Please provide inputs for the following fields:\r\n');
    await person.sees('Fill in the form of "everything" (13 fields)? [y/N] ');
    person.type('y\r');
    await person.sees('1/13 String (required): Your full, legal name\r\n  > ');
    person.type('Ada Lovelace\r');
    for (let field = 2; field <= 13; field++) {
      await person.sees(`${field}/13 `);
      await person.sees('> ');
      person.type('\r');
    }
    await person.sees('Sent to MCP server "everything".');
    expect(await person.run.done).toBe(0);
    expect(person.run.seen()).toContain('- Name: Ada Lovelace');
    expect(person.run.seen()).toContain('- Favorite Integer: 42');
  }, 90_000);

  it("a 2026 server's two questions in one answer: asked one after the other, a secret unseen", async () => {
    const secret = `vault-${randomUUID()}`;
    const question = {
      message: 'Unlock the vault',
      requestedSchema: {
        type: 'object',
        properties: { password: { type: 'string', format: 'password' } },
        required: ['password'],
      },
    };
    const person = calling(['modern', 'ask', '--args', JSON.stringify({ question, times: 2 })]);
    await person.sees('MCP server "modern" (user) asks you, during tool "ask":\r\n');
    await person.sees('  Unlock the vault\r\nFill in the form of "modern" (1 field)? [y/N] ');
    person.type('y\r');
    await person.sees('1/1 password (required)\r\n  hidden as you type > ');
    person.type(`${secret}\r`);
    await person.sees('Sent to MCP server "modern".');
    await person.sees('MCP server "modern" (user) asks you, during tool "ask":\r\n');
    await person.sees('[y/N] ');
    person.type('n\r');
    await person.sees('Declined: MCP server "modern" is told you said no.');
    await person.sees(
      '[{"action":"accept","fields":["password"]},{"action":"decline","fields":[]}]',
    );
    expect(await person.run.done).toBe(0);
    expect(person.run.seen()).not.toContain(secret);
    expect(await everyFile(home)).not.toContain(secret);
  }, 60_000);

  it('a secret field is typed unseen and reaches the server, and nothing of it is kept', async () => {
    const secret = `pw-${randomUUID()}`;
    const person = calling(
      ask(
        {
          message: 'Sign in to the bank',
          requestedSchema: {
            type: 'object',
            properties: {
              user: { type: 'string', title: 'User' },
              password: { type: 'string', format: 'password', title: 'Password' },
            },
            required: ['user', 'password'],
          },
        },
        ['password'],
      ),
    );
    await person.sees('MCP server "asking" (user) asks you, during tool "ask":\r\n');
    await person.sees('Fill in the form of "asking" (2 fields)? [y/N] ');
    expect(await recorded()).toContain('asked');
    person.type('y\r');
    await person.sees('1/2 User (required)\r\n  > ');
    person.type('ada\r');
    await person.sees('2/2 Password (required)\r\n  hidden as you type > ');
    person.type(`${secret}\r`);
    await person.sees(`action=accept content={"user":"ada","password":"${sha256(secret)}"}`);
    expect(await person.run.done).toBe(0);
    expect(person.run.seen()).not.toContain(secret);
    expect(await everyFile(home)).not.toContain(secret);
    // Asked on a terminal: the server was told it may ask, form and URL.
    expect((await recorded())[0]).toMatch(/^elicitation \{.*"form".*"url".*\}$/);
  }, 60_000);

  it('a secret known by its name alone is typed unseen: "passwd", or a word in the plural', async () => {
    const password = `pw-${randomUUID()}`;
    const tokens = `tk-${randomUUID()}`;
    const person = calling(
      ask(
        {
          message: 'Sign in',
          requestedSchema: {
            type: 'object',
            properties: {
              passwd: { type: 'string' },
              tokens: { type: 'string', title: 'Your recovery tokens' },
            },
            required: ['passwd', 'tokens'],
          },
        },
        ['passwd', 'tokens'],
      ),
    );
    await person.sees('Fill in the form of "asking" (2 fields)? [y/N] ');
    person.type('y\r');
    await person.sees('1/2 passwd (required)\r\n  hidden as you type > ');
    person.type(`${password}\r`);
    await person.sees('2/2 Your recovery tokens (required)\r\n  hidden as you type > ');
    person.type(`${tokens}\r`);
    await person.sees(`"passwd":"${sha256(password)}","tokens":"${sha256(tokens)}"`);
    expect(await person.run.done).toBe(0);
    expect(person.run.seen()).not.toContain(password);
    expect(person.run.seen()).not.toContain(tokens);
  }, 60_000);

  it('a PIN asked as a number is a secret too: typed unseen, its default never shown', async () => {
    const person = calling(
      ask(
        {
          message: 'Confirm the transfer',
          requestedSchema: {
            type: 'object',
            properties: { pin: { type: 'integer', title: 'PIN', default: 8080 } },
            required: ['pin'],
          },
        },
        ['pin'],
      ),
    );
    await person.sees('Fill in the form of "asking" (1 field)? [y/N] ');
    person.type('y\r');
    await person.sees('1/1 PIN (required)\r\n  hidden as you type > ');
    person.type('61537\r');
    await person.sees(`content={"pin":"${sha256('61537')}"}`);
    expect(await person.run.done).toBe(0);
    expect(person.run.seen()).not.toContain('61537');
    expect(person.run.seen()).not.toContain('8080');
  }, 60_000);

  it('no declines: the server is told the person said no', async () => {
    const person = calling(
      ask({
        message: 'Delete everything?',
        requestedSchema: { type: 'object', properties: {} },
      }),
    );
    await person.sees(`  Delete everything?\r\nAccept "asking"'s question? [y/N] `);
    person.type('n\r');
    await person.sees('action=decline');
    expect(await person.run.done).toBe(0);
  }, 60_000);

  it('the progress line is erased before the question, not drawn over it', async () => {
    const person = calling(
      ask({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }, [], {
        progress: true,
      }),
    );
    await person.sees('50% 1/2  halfway');
    // Erased where it was drawn, and the question starts on a line of its own.
    await person.sees('\r\x1b[K\r\nMCP server "asking" (user) asks you, during tool "ask":\r\n');
    await person.sees(`Accept "asking"'s question? [y/N] `);
    person.type('y\r');
    await person.sees('action=accept');
    expect(await person.run.done).toBe(0);
  }, 60_000);

  it('Ctrl-C while asking cancels the question and the call: the server is told, exit 130', async () => {
    const person = calling(
      ask({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      }),
    );
    await person.sees('[y/N] ');
    person.type('y\r');
    await person.sees('1/1 name\r\n  > ');
    person.type('\x03');
    expect(await person.run.done).toBe(130);
    expect(await recorded()).toContain('cancelled');
    expect(await recorded()).not.toContain('answered accept');
  }, 60_000);

  it('a page to visit: its origin shown whole, opened in the browser on a yes', async () => {
    const opener = await fakeOpener(dir);
    const url = 'https://bank.example:8443/connect?session=1';
    const person = calling(
      ask({ mode: 'url', message: 'Connect your bank', url, elicitationId: 'e-1' }),
      opener.env,
    );
    await person.sees('MCP server "asking" (user) asks you to visit a page, during tool "ask":');
    await person.sees('    https://bank.example:8443\r\n');
    await person.sees('Open https://bank.example:8443 in your browser? [y/N] ');
    expect(await opener.runs()).toEqual([]);
    person.type('y\r');
    await person.sees('action=accept');
    expect(await person.run.done).toBe(0);
    expect(await opener.firstRun()).toEqual([url]);
  }, 60_000);
});

describe('epoch mcp call of a server that asks, in a pipe', () => {
  it('asks nobody: the server is not told it may ask, and one that asks anyway gets cancel', async () => {
    const run = startEpoch(
      [
        'mcp',
        'call',
        ...ask({ message: 'Your name?', requestedSchema: { type: 'object', properties: {} } }),
        '--config',
        config,
      ],
      { EPOCH_HOME: home },
    );
    const { code, out, err } = await run.done;
    expect(err).not.toContain('[y/N]');
    expect(out).toContain('action=cancel');
    expect(code).toBe(0);
    expect(await recorded()).toContain('elicitation null');
  }, 60_000);

  it('a call that fails for want of an answer says a question was asked and nobody could answer', async () => {
    const question = { message: 'Your name?', requestedSchema: { type: 'object', properties: {} } };
    const run = startEpoch(
      ['mcp', 'call', ...ask(question, [], { failOnCancel: true }), '--config', config],
      { EPOCH_HOME: home },
    );
    const { code, err } = await run.done;
    expect(code).toBe(1);
    expect(err).toContain('cannot go on without an answer');
    expect(err).toContain('nobody could answer');
  }, 60_000);

  it('with --json on a terminal nobody is asked either', async () => {
    const person = calling([
      ...ask({ message: 'Your name?', requestedSchema: { type: 'object', properties: {} } }),
      '--json',
    ]);
    expect(await person.run.done).toBe(0);
    expect(person.run.seen()).toContain('action=cancel');
    expect(person.run.seen()).not.toContain('[y/N]');
    expect(await recorded()).toContain('elicitation null');
  }, 60_000);
});
