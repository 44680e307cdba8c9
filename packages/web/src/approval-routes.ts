// Approving a server that waits for the person's consent (state `needsApproval`), and taking an
// approval back:
//
//   POST /api/mcp/:name/approve  { "launch": … }: the launch the page showed approved, the server
//                                started (ApprovedAnswer)
//   POST /api/mcp/:name/revoke   its approvals removed; stopped if it needs one to run, which the
//                                answer says (RevokedAnswer)
//
// The runtime keeps the approvals and decides what needs one (see the README's trust section).
// Approve takes the launch the dialog showed and refuses when the server's is another by now (an
// entry rewritten between the look and the click must be looked at again, not approved unseen),
// or when the server waits for no approval: only what the page showed is approved.
// Mounted under the app's guards and its error handler, which answers what the runtime refuses.
import { isDeepStrictEqual } from 'node:util';
import type { Runtime } from '@epoch-agent/runtime';
import { Hono } from 'hono';
import { apiError, sendApiError as send } from './api-errors.js';
import type { ApprovedAnswer, ApproveRequest, RevokedAnswer } from './api-types.js';
import { readJsonBody } from './json-body.js';
import type { ViewFeed } from './view-feed.js';

export interface ApprovalRouteParts {
  readonly runtime: Runtime;
  readonly feed: ViewFeed;
}

/** The two routes, to be mounted at /api/mcp. */
export function approvalRoutes({ runtime, feed }: ApprovalRouteParts): Hono {
  const routes = new Hono();

  routes.post('/:name/approve', async (c) => {
    const name = c.req.param('name');
    const read = await readJsonBody(c, 'the launch to approve');
    if (!read.ok) return send(c, read.error);
    const shown = (read.body as Partial<ApproveRequest> | null)?.launch;
    if (shown === null || typeof shown !== 'object') {
      return send(
        c,
        apiError(
          400,
          'invalid_request',
          `Server "${name}" was not approved: give { "launch": … }, the launch its status shows.`,
        ),
      );
    }
    // No status: a name the runtime does not have, which approveServer refuses as such.
    const status = runtime.mcp.statuses().find((s) => s.name === name);
    if (status !== undefined && status.state !== 'needsApproval') {
      return send(
        c,
        apiError(
          409,
          'not_waiting',
          `Server "${name}" waits for no approval (it is ${status.state}): nothing was changed.`,
        ),
      );
    }
    // Through JSON, as the page got it: a field the launch leaves undefined was never sent.
    if (
      status !== undefined &&
      !isDeepStrictEqual(JSON.parse(JSON.stringify(status.launch)), shown)
    ) {
      return send(
        c,
        apiError(
          409,
          'launch_changed',
          `Server "${name}" was not approved: what it runs changed since it was shown. Look at it again, then approve what it runs now.`,
        ),
      );
    }
    try {
      const answer: ApprovedAnswer = { status: await runtime.approveServer(name) };
      return c.json(answer);
    } finally {
      feed.changed();
    }
  });

  routes.post('/:name/revoke', async (c) => {
    try {
      const { status, needsApproval } = await runtime.revokeServer(c.req.param('name'));
      const answer: RevokedAnswer = { ...(status === undefined ? {} : { status }), needsApproval };
      return c.json(answer);
    } finally {
      feed.changed();
    }
  });

  return routes;
}
