// The routes of a server's resources, prompts and stored login, refusing what they cannot do with
// the code and a message that names the server: an unknown or disabled server, a read without a
// URI, prompt arguments that are not strings, the login of a stdio server. A server that declared
// no resources lists none without being asked.

import { writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { ApiErrorBody, ResourceList } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATED_SERVER, fixtureEntry, startTestWeb, type TestWeb } from './web-helpers.js';

let web: TestWeb;

beforeAll(async () => {
  const servers = {
    plain: fixtureEntry(ANNOTATED_SERVER),
    off: fixtureEntry(ANNOTATED_SERVER, { enabled: false }),
  };
  await writeFile(mcpConfigPath(), JSON.stringify({ servers }));
  web = await startTestWeb();
  await web.settled();
});

afterAll(async () => {
  await web?.close();
});

async function refusal(
  path: string,
  init: Parameters<TestWeb['api']>[1] = {},
): Promise<{ status: number; error: ApiErrorBody['error'] }> {
  const response = await web.api(path, init);
  return { status: response.status, error: ((await response.json()) as ApiErrorBody).error };
}

describe('the routes of resources, prompts and logins', () => {
  it('list no resources of a server that declared none', async () => {
    const response = await web.api('/api/mcp/plain/resources');
    expect(response.status).toBe(200);
    expect((await response.json()) as ResourceList).toEqual({
      resources: [],
      templates: [],
      leftOff: 0,
    });
  });

  it('refuse an unknown server, a disabled one, a read without a URI and arguments that are not strings', async () => {
    await expect(refusal('/api/mcp/nope/prompts')).resolves.toMatchObject({
      status: 404,
      error: { code: 'unknown_server', message: expect.stringContaining('"nope"') },
    });
    await expect(refusal('/api/mcp/off/resources')).resolves.toMatchObject({
      status: 409,
      error: { code: 'server_disabled', message: expect.stringContaining('"off"') },
    });
    await expect(refusal('/api/mcp/plain/resources/read')).resolves.toMatchObject({
      status: 400,
      error: { code: 'invalid_request' },
    });
    await expect(
      refusal('/api/mcp/plain/prompts/greet', { method: 'POST', json: { arguments: { n: 1 } } }),
    ).resolves.toMatchObject({ status: 400, error: { code: 'invalid_request' } });
  });

  it('refuse the stored login and the logout of a stdio server, naming it', async () => {
    for (const [method, path] of [
      ['GET', '/api/mcp/plain/oauth'],
      ['POST', '/api/mcp/plain/logout'],
    ] as const) {
      await expect(refusal(path, { method })).resolves.toMatchObject({
        status: 400,
        error: { code: 'not_remote_server', message: expect.stringContaining('"plain"') },
      });
    }
  });
});
