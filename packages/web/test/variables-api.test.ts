// `${VAR}` and `env_file` on the connectors page's API, in process over real HTTP on 127.0.0.1:
// the settings as written with whether each variable is set (never its value), the server whose
// variable is unset failed by name while the others connect, and no expanded or env_file value in
// the view, the event stream or the entry editor's JSON, though a server printed them all.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { McpView } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANNOTATED_SERVER,
  fixtureEntry,
  readViewsUntil,
  startTestWeb,
  type TestWeb,
} from './web-helpers.js';

const TOKEN = 'sk-web-var-token-must-not-show-5r';
const FILE_SECRET = 'sk-web-envfile-must-not-show-2p';
const SECRETS = [TOKEN, FILE_SECRET];

let web: TestWeb;

beforeAll(async () => {
  process.env.VARS_WEB_TOKEN = TOKEN;
  const file = mcpConfigPath();
  await writeFile(join(dirname(file), 'web.env'), `FILE_SECRET=${FILE_SECRET}\n`);
  // Prints every secret it was given to stderr and dies: the page shows that stderr tail.
  const crashing = {
    command: process.execPath,
    args: [
      '-e',
      'console.error("cannot start: " + process.env.API_KEY + " " + process.env.FILE_SECRET); process.exit(3)',
    ],
    env: { API_KEY: `Bearer \${VARS_WEB_TOKEN}` },
    env_file: 'web.env',
  };
  await writeFile(
    file,
    [
      '{',
      '  // secrets are in the environment and in web.env',
      '  "servers": {',
      `    "ok": ${JSON.stringify(fixtureEntry([...ANNOTATED_SERVER, `--tag=\${VARS_WEB_TAG:-v1}`]))},`,
      `    "crashing": ${JSON.stringify(crashing)},`,
      `    "unset": ${JSON.stringify(fixtureEntry(ANNOTATED_SERVER, { env: { KEY: `\${VARS_WEB_NEVER_SET}` } }))}`,
      '  }',
      '}',
      '',
    ].join('\r\n'),
  );
  web = await startTestWeb({ registry: { reconnectDelaysMs: [] } });
});

afterAll(async () => {
  delete process.env.VARS_WEB_TOKEN;
  await web?.close();
});

/** The view once `crashing` has failed with its stderr (it may take a reconnect series). */
async function settledView(): Promise<McpView> {
  return web.viewWhen((view) =>
    view.groups.user.every(
      (server) => server.status !== undefined && server.status.state !== 'connecting',
    ),
  );
}

describe(`GET /api/mcp with \${VAR} and env_file`, () => {
  it('shows the written form and whether each variable is set; the unset one fails only its server', async () => {
    const view = await settledView();
    const byName = new Map(view.groups.user.map((server) => [server.name, server]));
    expect(byName.get('ok')?.status?.state).toBe('connected');
    expect(byName.get('unset')?.status).toMatchObject({
      state: 'failed',
      error: { code: 'env_unset' },
    });
    const crashing = byName.get('crashing');
    const env = crashing?.fields.find((field) => field.field === 'env');
    expect(env?.value).toEqual({ API_KEY: `Bearer \${VARS_WEB_TOKEN}` });
    expect(env?.variables).toEqual([{ name: 'VARS_WEB_TOKEN', in: 'env.API_KEY', set: true }]);
    const args = byName.get('ok')?.fields.find((field) => field.field === 'args');
    expect(args?.variables).toEqual([
      { name: 'VARS_WEB_TAG', in: 'args[2]', set: false, default: 'v1' },
    ]);
    // The unset variable is also a problem on its card, at its line.
    expect(byName.get('unset')?.problems).toEqual([
      expect.objectContaining({ code: 'unset_variable', line: 6 }),
    ]);
  });

  it('no expanded or env_file value in the view, the event stream or the entry editor', async () => {
    const view = await settledView();
    const crashing = view.groups.user.find((server) => server.name === 'crashing');
    const tail =
      crashing?.status?.state === 'failed' || crashing?.status?.state === 'reconnecting'
        ? crashing.status.stderrTail
        : '';
    // It did print them: blanked.
    expect(tail).toContain('cannot start: <redacted> <redacted>');
    const events = await web.api('/api/events');
    const [live] = await readViewsUntil(events, () => true);
    const entry = await (await web.api('/api/mcp/crashing/entry')).text();
    for (const text of [JSON.stringify(view), JSON.stringify(live), entry]) {
      for (const secret of SECRETS) expect(text).not.toContain(secret);
    }
  });
});
