// The page's "Try" of a tool that says back its environment, over real HTTP on 127.0.0.1 to a real
// stdio server: the values its entry gave it — an expanded `${VAR}`, a literal `env` value, an
// env_file value — are blanked in the answer, whole and line by line (its progress report too), as
// in the saved copy of a cut result, and no start of one is left by the cut of a result over the
// server's max_output_tokens. Its resource read and prompt get, which say the same back, too.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { ToolCallAnswer } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureEntry, startTestWeb, type TestWeb } from './web-helpers.js';

const ENV_ECHO = fileURLToPath(new URL('./fixtures/env-echo-server.mjs', import.meta.url));
const VAR_TOKEN = 'sk-try-var-token-must-not-show-7k';
const LITERAL = 'sk-try-literal-must-not-show-4m';
const FILE_SECRET = 'sk-try-envfile-must-not-show-9d';
const SECRETS = [VAR_TOKEN, LITERAL, FILE_SECRET];
const NAMES = ['API_KEY', 'SERVICE_TOKEN', 'FILE_SECRET'];
/** Of a server whose results are cut: 40 characters, said back 20,001 times, 52 characters each. */
const CUT_SECRET = 'ghp_TryCutSecretMustNotShow0123456789abc';

let web: TestWeb;

beforeAll(async () => {
  process.env.TRY_SECRETS_TOKEN = VAR_TOKEN;
  const file = mcpConfigPath();
  await writeFile(join(dirname(file), 'try.env'), `FILE_SECRET=${FILE_SECRET}\n`);
  const entry = fixtureEntry(ENV_ECHO, {
    env: { API_KEY: `Bearer \${TRY_SECRETS_TOKEN}`, SERVICE_TOKEN: LITERAL },
    env_file: 'try.env',
  });
  // Cut at 40,028 characters: 40 into a repetition, inside the secret.
  const cut = fixtureEntry(ENV_ECHO, { env: { CUT_TOKEN: CUT_SECRET }, max_output_tokens: 10_007 });
  await writeFile(file, JSON.stringify({ servers: { echo: entry, cut } }, null, 2));
  web = await startTestWeb();
});

afterAll(async () => {
  delete process.env.TRY_SECRETS_TOKEN;
  await web?.close();
});

function expectBlanked(body: string): void {
  for (const secret of SECRETS) expect(body).not.toContain(secret);
  // The tool did say them back: each in its place, blanked.
  expect(body).toContain('API_KEY=<redacted>');
  expect(body).toContain('SERVICE_TOKEN=<redacted>');
  expect(body).toContain('FILE_SECRET=<redacted>');
}

describe("the page's Try of a tool that echoes its environment", () => {
  it('answers with the expanded, literal and env_file values blanked, in every block and the structured content', async () => {
    const view = await web.viewWhen((v) =>
      v.groups.user.every((server) => server.status?.state === 'connected'),
    );
    expect(view.groups.user.map((server) => server.name).sort()).toEqual(['cut', 'echo']);
    const response = await web.api('/api/mcp/echo/tools/environment/call', {
      method: 'POST',
      json: { arguments: { names: NAMES } },
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    expectBlanked(body);
    const { result } = JSON.parse(body) as ToolCallAnswer;
    expect(result.forUser?.[0]).toMatchObject({ type: 'text' });
    expect(JSON.stringify(result.forUser)).toContain('for you: API_KEY=<redacted>');
    const structured = result.structuredContent as {
      values: Record<string, string>;
      byValue: Record<string, string>;
    };
    expect(structured.values).toMatchObject({
      API_KEY: '<redacted>',
      SERVICE_TOKEN: '<redacted>',
      FILE_SECRET: '<redacted>',
    });
    expect(Object.keys(structured.byValue)).toContain('<redacted>');
  }, 60_000);

  it('answers the same, its progress report too, when the call is answered as it runs (NDJSON)', async () => {
    const response = await web.api('/api/mcp/echo/tools/environment/call', {
      method: 'POST',
      json: { arguments: { names: NAMES } },
      headers: { accept: 'application/x-ndjson' },
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    expectBlanked(body);
    const lines = body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { progress?: { message?: string } });
    expect(lines[0]?.progress?.message).toBe(
      'reading API_KEY=<redacted>\nSERVICE_TOKEN=<redacted>\nFILE_SECRET=<redacted>',
    );
    expect(lines.at(-1)).toHaveProperty('result');
  }, 60_000);

  it("answers a result cut at the server's max_output_tokens with no start of a secret before the cut", async () => {
    await web.viewWhen((v) =>
      v.groups.user.every((server) => server.status?.state === 'connected'),
    );
    for (const accept of ['application/json', 'application/x-ndjson']) {
      const response = await web.api('/api/mcp/cut/tools/repeat/call', {
        method: 'POST',
        json: { arguments: { name: 'CUT_TOKEN', times: 20_001 } },
        headers: { accept },
      });
      expect(response.status).toBe(200);
      const body = await response.text();
      const { result } = JSON.parse(body.trim().split('\n').at(-1) ?? '') as ToolCallAnswer;
      const [kept, note] = result.content.map((block) => (block.type === 'text' ? block.text : ''));
      expect(note).toContain('[Cut to fit');
      expect(kept).toContain('CUT_TOKEN=<redacted> ');
      expect(body).not.toContain(CUT_SECRET.slice(0, 4));
    }
  }, 60_000);

  it("blanks them in the server's resource as read and its prompt as made", async () => {
    const read = await web.api(
      `/api/mcp/echo/resources/read?uri=${encodeURIComponent('env:///dump')}`,
    );
    expect(read.status).toBe(200);
    expectBlanked(await read.text());
    const got = await web.api('/api/mcp/echo/prompts/environment', {
      method: 'POST',
      json: { arguments: {} },
    });
    expect(got.status).toBe(200);
    const body = await got.text();
    expectBlanked(body);
    expect(body).toContain('Made with API_KEY=<redacted>');
  }, 60_000);
});
