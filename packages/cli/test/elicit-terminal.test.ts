// The terminal asker of a server's question (src/elicit.ts) in a real pseudo-terminal: a process
// puts one question to the person and prints what they answered. What a person types, keys
// included (Ctrl-C, Ctrl-D, Backspace), is what the test writes; what they see is what it reads.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ElicitationField, ElicitationQuestion } from '@epoch-agent/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeOpener } from '../../plugin-mcp/test/support/fake-opener.js';
import { onTerminal, personAt, type TerminalRun } from './on-terminal.js';

const ASK = fileURLToPath(new URL('./fixtures/ask-question.mjs', import.meta.url));

let dir: string;
const runs: TerminalRun[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-elicit-'));
});

afterEach(async () => {
  for (const run of runs.splice(0)) run.child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** A person at a terminal, asked `question`: they read the screen and type. */
function asked(question: ElicitationQuestion, env: Record<string, string> = {}) {
  const run = onTerminal([JSON.stringify(question)], env, ASK);
  runs.push(run);
  return {
    run,
    ...personAt(run),
    /** The answer the asker resolved with, and the exit code. */
    async answer(): Promise<{ code: number | null; answer: unknown }> {
      const code = await run.done;
      const line = /^answer: (.*)$/m.exec(run.seen())?.[1];
      return { code, answer: line === undefined ? undefined : JSON.parse(line) };
    },
  };
}

function form(fields: ElicitationField[], more: Partial<ElicitationQuestion> = {}) {
  return {
    mode: 'form',
    server: 'srv',
    source: 'user',
    during: { kind: 'tool', name: 'deploy', inferred: false },
    message: 'Before it deploys:',
    fields,
    ...more,
  } as ElicitationQuestion;
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('a server question on the terminal', () => {
  it('asks each field typed by its kind, re-asks what is wrong, takes defaults on Enter', async () => {
    const person = asked(
      form([
        { name: 'name', label: 'Name', kind: 'text', secret: false, required: true, minLength: 2 },
        {
          name: 'age',
          label: 'Age',
          kind: 'number',
          integer: true,
          secret: false,
          maximum: 120,
          required: true,
        },
        { name: 'agree', label: 'Agree', kind: 'boolean', required: false },
        {
          name: 'color',
          label: 'Colour',
          kind: 'choice',
          required: false,
          default: 'g',
          options: [
            { value: 'r', label: 'Red' },
            { value: 'g', label: 'Green' },
          ],
        },
        {
          name: 'tools',
          label: 'Tools',
          description: 'what it may use',
          kind: 'choices',
          required: true,
          options: [
            { value: 'a', label: 'Hammer' },
            { value: 'b', label: 'Saw' },
            { value: 'c', label: 'Drill' },
          ],
        },
        { name: 'note', label: 'Note', kind: 'text', secret: false, required: false },
      ]),
    );
    await person.sees('MCP server "srv" (user) asks you, during tool "deploy":\r\n');
    await person.sees('  Before it deploys:\r\n');
    await person.sees('Fill in the form of "srv" (6 fields)? [y/N] ');
    person.type('y\r');
    await person.sees('1/6 Name (required)\r\n');
    await person.sees('at least 2 characters > ');
    person.type('\r');
    await person.sees('An answer is required here');
    person.type('A\r');
    await person.sees('It must be at least 2 characters: try again.');
    person.type('Ada\r');
    await person.sees('2/6 Age (required)\r\n  a whole number, at most 120 > ');
    person.type('old\r');
    await person.sees('It must be a number: try again.');
    person.type('130\r');
    await person.sees('It must be at most 120: try again.');
    person.type('36.5\r');
    await person.sees('It must be a whole number: try again.');
    person.type('36\r');
    await person.sees('3/6 Agree\r\n  y/n > ');
    person.type('maybe\r');
    await person.sees('It must be yes or no: try again.');
    person.type('Y\r');
    await person.sees('4/6 Colour\r\n    1) Red\r\n    2) Green\r\n  a number [2] > ');
    person.type('\r');
    await person.sees('5/6 Tools (required): what it may use\r\n');
    await person.sees('numbers separated by commas > ');
    person.type('1,4\r');
    await person.sees('It must name only the choices: try again.');
    person.type('1, 3\r');
    await person.sees('6/6 Note\r\n  > ');
    person.type('\r');
    await person.sees('Sent to MCP server "srv".');
    expect(await person.answer()).toEqual({
      code: 0,
      answer: {
        action: 'accept',
        content: { name: 'Ada', age: 36, agree: true, color: 'g', tools: ['a', 'c'] },
      },
    });
  }, 60_000);

  it('reads a secret field unseen: nothing of it on the screen, Backspace and Ctrl-U work', async () => {
    const secret = `hunter2-${randomUUID()}`;
    const person = asked(
      form([{ name: 'password', label: 'Password', kind: 'text', secret: true, required: true }]),
    );
    await person.sees('[y/N] ');
    person.type('y\r');
    await person.sees('1/1 Password (required)\r\n  hidden as you type > ');
    // Typed key by key, a mistake taken back, a line thrown away and typed again.
    person.type('wrong');
    person.type('\x15');
    for (const key of `${secret}X`) person.type(key);
    person.type('\x7f');
    person.type('\r');
    await person.sees('Sent to MCP server "srv".');
    expect(await person.answer()).toEqual({
      code: 0,
      answer: { action: 'accept', content: { password: sha256(secret) } },
    });
    expect(person.run.seen()).not.toContain(secret.slice(0, 8));
    expect(person.run.seen()).not.toContain('wrong');
    expect(person.run.seen()).not.toContain('*');
  }, 60_000);

  it('Ctrl-C at a secret field cancels the question and stops the process (130)', async () => {
    const person = asked(
      form([{ name: 'token', label: 'Token', kind: 'text', secret: true, required: true }]),
    );
    await person.sees('[y/N] ');
    person.type('y\r');
    await person.sees('hidden as you type > ');
    person.type('abc\x03');
    expect(await person.answer()).toEqual({ code: 130, answer: { action: 'cancel' } });
    expect(person.run.seen()).not.toContain('abc');
  }, 60_000);

  it('Ctrl-C at a field cancels the question and stops the process (130)', async () => {
    const person = asked(
      form([{ name: 'name', label: 'Name', kind: 'text', secret: false, required: true }]),
    );
    await person.sees('[y/N] ');
    person.type('y\r');
    await person.sees('1/1 Name');
    person.type('\x03');
    expect(await person.answer()).toEqual({ code: 130, answer: { action: 'cancel' } });
  }, 60_000);

  it('no (or Enter) declines; Ctrl-D gives no answer: cancel', async () => {
    const fields: ElicitationField[] = [
      { name: 'ok', label: 'OK', kind: 'boolean', required: true },
    ];
    const no = asked(form(fields));
    await no.sees('Fill in the form of "srv" (1 field)? [y/N] ');
    no.type('\r');
    await no.sees('Declined: MCP server "srv" is told you said no.');
    expect(await no.answer()).toEqual({ code: 0, answer: { action: 'decline' } });

    const none = asked(form(fields));
    await none.sees('[y/N] ');
    none.type('y\r');
    await none.sees('1/1 OK (required)');
    none.type('\x04');
    await none.sees('No answer: MCP server "srv" is told the question was cancelled.');
    expect(await none.answer()).toEqual({ code: 0, answer: { action: 'cancel' } });
  }, 60_000);

  it('a question withdrawn by the client (its request ended) stops asking: cancel', async () => {
    const person = asked(
      form([{ name: 'pin', label: 'PIN', kind: 'text', secret: true, required: true }]),
    );
    await person.sees('[y/N] ');
    person.type('y\r');
    await person.sees('hidden as you type > ');
    const pid = Number(/^pid: (\d+)/m.exec(person.run.seen())?.[1]);
    process.kill(pid, 'SIGUSR1');
    await person.sees('is closed: its request ended or its time ran out');
    expect(await person.answer()).toEqual({ code: 0, answer: { action: 'cancel' } });
  }, 60_000);

  it("shows the server's words with control and bidi characters visible, and names the request", async () => {
    const person = asked(
      form([], {
        server: 'srv',
        source: 'project',
        during: undefined,
        running: 3,
        message: 'Delete \x1b[2Jall\u202e?\nsecond line',
      }),
    );
    await person.sees(
      'MCP server "srv" (project) asks you, while 3 of its requests run (it does not say for which one):\r\n',
    );
    await person.sees('  Delete \\x1b[2Jall\\u202e?\r\n  second line\r\n');
    await person.sees(`Accept "srv"'s question? [y/N] `);
    person.type('yes\r');
    expect(await person.answer()).toEqual({ code: 0, answer: { action: 'accept', content: {} } });

    const outside = asked(form([], { during: undefined, message: '' }));
    await outside.sees(
      `MCP server "srv" (user) asks you, outside any request:\r\nAccept "srv"'s question? [y/N] `,
    );
    outside.type('n\r');
    expect(await outside.answer()).toEqual({ code: 0, answer: { action: 'decline' } });
  }, 60_000);

  it('a page to visit: its origin shown whole, opened only on a yes', async () => {
    const opener = await fakeOpener(dir);
    const page = {
      mode: 'url',
      server: 'srv',
      source: 'user',
      during: { kind: 'resource', name: 'file:///a', inferred: true },
      message: 'Sign in to the bank',
      url: 'https://bank.example:8443/connect?state=abc',
      origin: 'https://bank.example:8443',
    } as const;
    const no = asked(page, opener.env);
    await no.sees('MCP server "srv" (user) asks you to visit a page, during the read of resource');
    await no.sees('  The page is on:\r\n\r\n    https://bank.example:8443\r\n\r\n');
    await no.sees('Open https://bank.example:8443 in your browser? [y/N] ');
    no.type('\r');
    expect(await no.answer()).toEqual({ code: 0, answer: { action: 'decline' } });
    expect(await opener.runs()).toEqual([]);

    const yes = asked(page, opener.env);
    await yes.sees('in your browser? [y/N] ');
    yes.type('y\r');
    expect(await yes.answer()).toEqual({ code: 0, answer: { action: 'accept' } });
    expect(await opener.firstRun()).toEqual([page.url]);
  }, 60_000);
});
