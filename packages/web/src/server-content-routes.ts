// A server's resources and prompts, read through the runtime's registry (the connection the agent
// uses), loaded by the page when the person opens them rather than sent in the live view:
//
//   GET  /api/mcp/:name/resources               its resources and resource templates
//   GET  /api/mcp/:name/resources/read?uri=…    one resource's contents
//   GET  /api/mcp/:name/prompts                 its prompts, with their arguments
//   POST /api/mcp/:name/prompts/:prompt         { "arguments": { … } }: the messages it makes
//
// What the server answers is bounded before it is sent (server-content.ts). A server that is down
// or does not offer the feature is the registry's refusal, answered by the app's error handler;
// the request's own signal ends the server's request when the page goes away.
import type { Runtime } from '@epoch-agent/runtime';
import { Hono } from 'hono';
import { apiError, sendApiError as send } from './api-errors.js';
import { boundedBody, readJsonBody } from './json-body.js';
import { promptGot, promptList, resourceList, resourceRead } from './server-content.js';

// A prompt's arguments are a few short strings; anything near this is not.
const PROMPT_BODY_BYTES = 64 * 1024;

/** The routes, to be mounted at /api/mcp. */
export function serverContentRoutes(runtime: Runtime): Hono {
  const { mcp } = runtime;
  const app = new Hono();

  app.get('/:name/resources', async (c) => {
    const name = c.req.param('name');
    const signal = c.req.raw.signal;
    const [resources, templates] = await Promise.all([
      mcp.resourcesOf(name, signal),
      mcp.resourceTemplatesOf(name, signal),
    ]);
    return c.json(resourceList(resources, templates));
  });

  app.get('/:name/resources/read', async (c) => {
    const uri = c.req.query('uri');
    if (uri === undefined || uri === '') {
      return send(
        c,
        apiError(400, 'invalid_request', 'Say which resource to read: ?uri=<the resource URI>.'),
      );
    }
    const name = c.req.param('name');
    const read = await mcp.readResource(name, uri, c.req.raw.signal);
    return c.json(resourceRead(read, (text) => mcp.shownText(name, text)));
  });

  app.get('/:name/prompts', async (c) =>
    c.json(promptList(await mcp.promptsOf(c.req.param('name'), c.req.raw.signal))),
  );

  const limit = boundedBody(
    PROMPT_BODY_BYTES,
    `A prompt's arguments may take ${PROMPT_BODY_BYTES} bytes.`,
  );

  app.post('/:name/prompts/:prompt', limit, async (c) => {
    const read = await readJsonBody(c, "the prompt's arguments");
    if (!read.ok) return send(c, read.error);
    const args = argumentsOf(read.body);
    if (args === undefined) {
      return send(
        c,
        apiError(
          400,
          'invalid_request',
          'Send the prompt\'s arguments as {"arguments": {"<name>": "<text>"}}: every value a string.',
        ),
      );
    }
    const name = c.req.param('name');
    const got = await mcp.getPrompt(name, c.req.param('prompt'), args, c.req.raw.signal);
    return c.json(promptGot(got, (text) => mcp.shownText(name, text)));
  });

  return app;
}

/** `{ arguments: { name: string } }`'s arguments; undefined for any other shape. */
function argumentsOf(body: unknown): Record<string, string> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const args = (body as { arguments?: unknown }).arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const entries = Object.entries(args);
  if (!entries.every(([, value]) => typeof value === 'string')) return undefined;
  return Object.fromEntries(entries) as Record<string, string>;
}
