// A server's recent output on the page, as an editor's output pane shows it:
//
//   GET /api/mcp/:name/output[?after=<seq>]   its log messages (notifications/message) and stderr
//                                             lines, oldest first, redacted and bounded by the
//                                             registry (McpServerOutput); with `after`, only the
//                                             lines newer than the one the page already has
//
// The registry keeps them (a ring per server, across its reconnects); nothing is written to disk.
import type { McpServerOutput, Runtime } from '@epoch-agent/runtime';
import { Hono } from 'hono';
import { apiError, sendApiError as send } from './api-errors.js';

/** The route, to be mounted at /api/mcp. */
export function outputRoutes(runtime: Runtime): Hono {
  const routes = new Hono();
  routes.get('/:name/output', (c) => {
    const name = c.req.param('name');
    const given = c.req.query('after');
    const after = given === undefined ? 0 : Number(given);
    if (!Number.isSafeInteger(after) || after < 0) {
      return send(
        c,
        apiError(
          400,
          'invalid_request',
          `The output of MCP server "${name}" was not read: "after" must be the seq of a line (a whole number from 0), not ${JSON.stringify(given)}.`,
        ),
      );
    }
    const output: McpServerOutput | undefined = runtime.mcp.outputOf(name, after);
    if (output === undefined) {
      return send(c, apiError(404, 'unknown_server', `There is no MCP server "${name}".`));
    }
    return c.json(output);
  });
  return routes;
}
