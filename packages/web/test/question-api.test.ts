// A server's question put to the page, over real HTTP on 127.0.0.1 to real stdio servers that ask
// (fixtures/asking-server.mjs: a user name and a password, 2025 era; testkit's modern server, 2026
// era, whose question comes in its call's input_required answer): the question reaches every
// page in the live view (who asks, the request, the fields, never the call's ToolContext), is
// answered by POST /api/mcp/questions/:id checked by the form's rules (400 with each field's
// problem, the question still waiting), the first answer wins (409 for a second), and a question
// whose call is stopped goes away (409 to a late answer). The secret typed reaches the server and
// nowhere else: not the live view, not an error, not the server's output, not a log line.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogFields, Logger } from '@epoch-agent/infra';
import { mcpConfigPath } from '@epoch-agent/infra';
import { MODERN_SERVER } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody, McpView, ToolCallAnswer } from '../src/api-types.js';
import type { QuestionView } from '../src/question-types.js';
import { fixtureEntry, readViewsUntil, startTestWeb, type TestWeb } from './web-helpers.js';

const ASKING_SERVER = fileURLToPath(new URL('./fixtures/asking-server.mjs', import.meta.url));
const SECRET = 'hunter2-QUESTION-API-7319';

let web: TestWeb;
let asked: string;
const logged: string[] = [];
const log =
  (level: string) =>
  (message: string, fields?: LogFields): void => {
    logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
const logger: Logger = {
  debug: log('debug'),
  info: log('info'),
  warn: log('warn'),
  error: log('error'),
};

beforeAll(async () => {
  asked = join(process.env.EPOCH_HOME as string, 'asked.jsonl');
  const servers = {
    asker: fixtureEntry(ASKING_SERVER, { env: { EPOCH_ASKED_FILE: asked } }),
    modern: fixtureEntry([MODERN_SERVER, '--ask']),
  };
  await writeFile(mcpConfigPath(), JSON.stringify({ servers }, null, 2));
  web = await startTestWeb({ logger });
  await web.viewWhen((view) =>
    view.groups.user.every((server) => server.status?.state === 'connected'),
  );
});

afterAll(async () => {
  await web?.close();
});

/** Starts `sign_in` as the page's Try does, with `call` as its id; the answer when it ends. */
function signIn(call: string, signal?: AbortSignal): Promise<Response> {
  return web.api('/api/mcp/asker/tools/sign_in/call', {
    method: 'POST',
    json: { arguments: {}, call },
    ...(signal === undefined ? {} : { signal }),
  });
}

/**
 * The first question of the live view once there is one, with every view read until then; fails
 * at once, with its answer, when `call` ends first (nobody was asked).
 */
async function question(call: Promise<Response | undefined>): Promise<{ question: QuestionView }> {
  const asked = readViewsUntil(await web.api('/api/events'), (v) => v.questions.length > 0).then(
    (views) => ({ question: (views.at(-1) as McpView).questions[0] as QuestionView }),
  );
  const ended = call.then(async (response) => {
    throw new Error(`the call ended with no question asked: ${await response?.clone().text()}`);
  });
  return Promise.race([asked, ended]);
}

function answer(id: string, body: unknown): Promise<Response> {
  return web.api(`/api/mcp/questions/${id}`, { method: 'POST', json: body });
}

describe("a server's question on the page's API", () => {
  it('is in the live view: who asks, its request, the form; a wrong answer is refused field by field, the first right one wins', async () => {
    const call = signIn('call-1');
    const { question: shown } = await question(call);
    expect(shown).toMatchObject({
      server: 'asker',
      source: 'user',
      during: { kind: 'tool', name: 'sign_in', inferred: true },
      message: 'Sign in to the test service.',
      mode: 'form',
      call: 'call-1',
    });
    expect(shown.mode === 'form' && shown.fields).toEqual([
      { name: 'user', label: 'User name', required: true, kind: 'text', secret: false },
      {
        name: 'password',
        label: 'Password',
        required: true,
        kind: 'text',
        secret: true,
        minLength: 4,
      },
    ]);
    // The call's ToolContext is the host's: never sent to a page.
    expect(JSON.stringify(shown)).not.toContain('context');

    const short = await answer(shown.id, {
      answer: { action: 'accept', content: { user: 'ann', password: 'x' } },
    });
    expect(short.status).toBe(400);
    const refused = (await short.json()) as ApiErrorBody;
    expect(refused.error.code).toBe('invalid_answer');
    expect(refused.error.fieldProblems).toEqual([
      { field: 'password', problem: 'must be at least 4 characters' },
    ]);
    expect(refused.error.message).toContain('server "asker"');

    // Still waiting: the right answer is taken, a second one is too late.
    const taken = await answer(shown.id, {
      answer: { action: 'accept', content: { user: 'ann', password: SECRET } },
    });
    expect(taken.status).toBe(200);
    const again = await answer(shown.id, { answer: { action: 'decline' } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as ApiErrorBody).error.code).toBe('question_answered');

    const result = (await (await call).json()) as ToolCallAnswer;
    expect(JSON.stringify(result.result.content)).toContain(
      `signed in as ann with a password of ${SECRET.length} characters`,
    );
    const gone = await web.viewWhen((view) => view.questions.length === 0);
    expect(gone.questions).toEqual([]);
  });

  it('the secret typed reaches the server only: not the live view, an error, its output or a log line', async () => {
    // Opened before the question is asked: every view sent while it comes and goes.
    const feed = await web.api('/api/events');
    const call = signIn('call-2');
    const { question: shown } = await question(call);
    const wrong = await answer(shown.id, {
      answer: { action: 'accept', content: { user: 'ann', password: SECRET, extra: SECRET } },
    });
    expect(wrong.status).toBe(400);
    const refusal = await wrong.text();
    expect(refusal).toContain('extra');
    expect(refusal).not.toContain(SECRET);
    expect(
      (
        await answer(shown.id, {
          answer: { action: 'accept', content: { user: 'ann', password: SECRET } },
        })
      ).status,
    ).toBe(200);
    expect(((await (await call).json()) as ToolCallAnswer).result.isError).not.toBe(true);
    let seen = false;
    const views = await readViewsUntil(feed, (view) => {
      seen ||= view.questions.length > 0;
      return seen && view.questions.length === 0;
    });
    expect(JSON.stringify(views)).not.toContain(SECRET);
    const output = await (await web.api('/api/mcp/asker/output')).text();
    expect(output).not.toContain(SECRET);
    expect(logged.join('\n')).not.toContain(SECRET);
  });

  it('decline and cancel reach the server as given', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const call = signIn(`call-${action}`);
      const { question: shown } = await question(call);
      expect((await answer(shown.id, { answer: { action } })).status).toBe(200);
      const result = (await (await call).json()) as ToolCallAnswer;
      expect(JSON.stringify(result.result.content)).toContain(`not signed in: ${action}`);
      await web.viewWhen((view) => view.questions.length === 0);
    }
  });

  it('a question whose call is stopped goes from the view, and a late answer is told so', async () => {
    const stop = new AbortController();
    const call = signIn('call-stopped', stop.signal).catch(() => undefined);
    const { question: shown } = await question(call);
    stop.abort();
    await call;
    await web.viewWhen((view) => view.questions.length === 0);
    const late = await answer(shown.id, { answer: { action: 'cancel' } });
    expect(late.status).toBe(409);
    const body = (await late.json()) as ApiErrorBody;
    expect(body.error.code).toBe('question_gone');
    expect(body.error.message).toContain('"asker"');
  });

  it("a 2026 server asks inside its call's answer: the question names that call, and the call goes on with the answer", async () => {
    const call = web.api('/api/mcp/modern/tools/ask/call', {
      method: 'POST',
      json: {
        arguments: {
          question: {
            mode: 'form',
            message: 'Delete 3 files?',
            requestedSchema: {
              type: 'object',
              properties: { sure: { type: 'boolean', title: 'Sure' } },
              required: ['sure'],
            },
          },
        },
        call: 'call-modern',
      },
    });
    const { question: shown } = await question(call);
    expect(shown).toMatchObject({
      server: 'modern',
      during: { kind: 'tool', name: 'ask', inferred: false },
      message: 'Delete 3 files?',
      call: 'call-modern',
    });
    const taken = await answer(shown.id, { answer: { action: 'accept', content: { sure: true } } });
    expect(taken.status).toBe(200);
    const result = (await (await call).json()) as ToolCallAnswer;
    // The server says what each answer was: its action and the fields it carried.
    const [said] = result.result.content;
    expect(said?.type === 'text' && JSON.parse(said.text)).toEqual([
      { action: 'accept', fields: ['sure'] },
    ]);
  });

  it('refuses an answer to no question, and one that is not an answer', async () => {
    const unknown = await answer('no-such-question', { answer: { action: 'cancel' } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ApiErrorBody).error.code).toBe('unknown_question');

    const call = signIn('call-malformed');
    const { question: shown } = await question(call);
    for (const body of [
      {},
      { answer: { action: 'yes' } },
      { answer: { action: 'decline', content: {} } },
    ]) {
      const refused = await answer(shown.id, body);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as ApiErrorBody).error.code).toBe('invalid_answer');
    }
    const badCall = await web.api('/api/mcp/asker/tools/sign_in/call', {
      method: 'POST',
      json: { arguments: {}, call: 'not an id!' },
    });
    expect(badCall.status).toBe(400);
    expect(((await badCall.json()) as ApiErrorBody).error.message).toContain('"call"');
    expect((await answer(shown.id, { answer: { action: 'cancel' } })).status).toBe(200);
    await call;
  });
});
