// The page's HTTP API and the page itself, as one Hono app over a built runtime:
//
//   GET    /api/mcp                  every server by source, tools, diagnostics (McpView)
//   GET    /api/events               the same view, live (server-sent events)
//   POST   /api/mcp                  add a server to the user's mcp.json; it answers once the file is
//                                    written, the server connecting (the live view follows it)
//   DELETE /api/mcp/:name?basedOn=   take a user server out of that file, if its entry is still
//                                    the version GET …/entry gave (409 `changed_since` otherwise)
//   POST   /api/mcp/questions/:id    a page's answer to a server's question, which the view shows
//                                    (question-routes.ts)
//   POST   /api/mcp/:name/reconnect
//   POST   /api/mcp/:name/login      start an OAuth login; answers the authorization URL
//   POST   /api/mcp/:name/approve    start a server that waits for approval, as the page showed it;
//                                    …/revoke takes its approvals back (approval-routes.ts)
//   GET    /api/mcp/:name/tool-changes   its tools withheld since approved, each with its diff;
//   POST   /api/mcp/:name/approve-tools  …approved as shown (tool-change-routes.ts)
//   PUT    /api/mcp/:name/enabled    turn a server on or off; …/tools/:tool/enabled one tool
//                                    (choice-routes.ts)
//   GET    /api/mcp/:name/tools/:tool/schema  one tool's input and output schema, whole
//   POST   /api/mcp/:name/tools/:tool/call    run one tool, as the model would (tool-routes.ts)
//   GET    /api/mcp/:name/entry      a user server's entry as written, secrets as placeholders;
//   PUT    /api/mcp/:name/entry      …written back edited; POST /api/mcp/json: add from pasted JSON
//                                    (entry-routes.ts)
//   GET    /api/mcp/:name/resources  its resources, …/resources/read?uri= one of them; …/prompts
//                                    its prompts, POST …/prompts/:prompt one (server-content-routes.ts)
//   GET    /api/mcp/:name/output     its recent log messages and stderr lines (output-routes.ts)
//   GET    /api/mcp/:name/oauth      its stored login, never a token; POST …/logout ends it
//                                    (oauth-routes.ts)
//   GET    /api/import               the other MCP clients' servers; POST imports the chosen ones
//                                    (import-routes.ts)
//   GET    /api/tasks                the tasks this machine's epoch processes recorded; POST
//                                    …/:server/:task/result follows one to its result, …/cancel
//                                    cancels it (task-routes.ts)
//   GET    /open/:id                 a one-time address: a 303 to the page with the key (key-handoff.ts)
//   GET    /*                        the built page
//
// Every request passes the Host and Origin checks, every /api/* call the launch's token (guard.ts).
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '@epoch-agent/infra';
import { ENTRY_LIMITS, type ImportPlaces, type Runtime, sizeText } from '@epoch-agent/runtime';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { checkAddRequest } from './add-request.js';
import { apiError, apiErrorHandler, sendApiError as send } from './api-errors.js';
import type { AddServerResponse, LoginStarted } from './api-types.js';
import { approvalRoutes } from './approval-routes.js';
import { choiceRoutes } from './choice-routes.js';
import { entryRoutes } from './entry-routes.js';
import { hostAndOriginGuard, tokenGuard } from './guard.js';
import { importRoutes } from './import-routes.js';
import { boundedBody, readJsonBody } from './json-body.js';
import type { KeyHandoffs } from './key-handoff.js';
import { mcpView } from './mcp-view.js';
import { oauthRoutes } from './oauth-routes.js';
import { outputRoutes } from './output-routes.js';
import type { PageLogins } from './page-logins.js';
import { peerOwner } from './peer-owner.js';
import { questionRoutes } from './question-routes.js';
import type { PendingQuestions } from './questions.js';
import { serverContentRoutes } from './server-content-routes.js';
import { taskRoutes } from './task-routes.js';
import { toolChangeRoutes } from './tool-change-routes.js';
import { toolRoutes } from './tool-routes.js';
import type { ViewFeed } from './view-feed.js';

export interface AppParts {
  readonly runtime: Runtime;
  readonly logins: PageLogins;
  readonly feed: ViewFeed;
  /** The servers' questions waiting for a person: in the view, answered by POST …/questions/:id. */
  readonly questions: PendingQuestions;
  readonly token: string;
  /** The one-time addresses `/open/:id` answers. */
  readonly handoffs: KeyHandoffs;
  /** The port the server listens on: the only one Host and Origin may name. */
  readonly port: number;
  /** The built page (index.html and its assets). */
  readonly pageDir: string;
  readonly logger: Logger;
  /** Where "Import from…" looks for the other clients' files. */
  readonly importPlaces: ImportPlaces;
}

export function createApp(parts: AppParts): Hono {
  const { runtime, logins, feed, questions, logger } = parts;
  const view = () => mcpView(runtime, logins, questions);

  const app = new Hono();
  // A route lets the runtime's refusal throw; it is answered with the status of its code.
  app.onError(apiErrorHandler(logger));
  app.use(hostAndOriginGuard(parts.port));
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
      referrerPolicy: 'no-referrer',
    }),
  );
  app.use('/api/*', async (c, next) => {
    c.header('cache-control', 'no-store');
    await next();
  });
  app.use('/api/*', tokenGuard(parts.token));

  app.get('/api/mcp', (c) => c.json(view()));

  app.get('/api/events', (c) =>
    feed.stream(c, view, (error) =>
      logger.error(`epoch web: the live view could not be sent: ${error.message}`),
    ),
  );

  // The body carries one entry, so it has the entry's bound (its strings have theirs, which the
  // runtime checks); a larger one is refused before it is read into memory.
  const entryBody = boundedBody(
    ENTRY_LIMITS.entryBytes,
    `The server was not added: the request body is over ${sizeText(ENTRY_LIMITS.entryBytes)}, the most a server's entry may be. Nothing was written.`,
  );

  app.post('/api/mcp', entryBody, async (c) => {
    const read = await readJsonBody(c, 'the new server');
    if (!read.ok) return send(c, read.error);
    const checked = checkAddRequest(read.body);
    if (!checked.ok) {
      const [first] = Object.values(checked.fields);
      return send(
        c,
        apiError(400, 'invalid_request', `The server was not added: ${first}`, {
          fields: checked.fields,
        }),
      );
    }
    // Made or refused, the live view is sent again; the error handler answers a refusal.
    try {
      const added = await runtime.addServer(checked.input);
      const status = runtime.mcp.statuses().find(({ name }) => name === checked.input.name);
      const answer: AddServerResponse = {
        file: added.file,
        ...(status === undefined ? {} : { status }),
        setByHand: added.setByHand,
      };
      return c.json(answer, 201);
    } finally {
      feed.changed();
    }
  });

  app.delete('/api/mcp/:name', async (c) => {
    const name = c.req.param('name');
    // What the page showed is required, as for an edit: a remove without it could take out an
    // entry rewritten since (by hand, or on another page) that nobody here has seen.
    const basedOn = c.req.query('basedOn');
    if (basedOn === undefined || basedOn === '') {
      return send(
        c,
        apiError(
          400,
          'invalid_request',
          `Server "${name}" was not removed: give ?basedOn=<the version GET /api/mcp/${name}/entry gave>, so an entry changed since you read it is not removed unseen.`,
        ),
      );
    }
    try {
      const removed = await runtime.removeServer(name, { basedOn });
      return c.json({ file: removed.file });
    } finally {
      feed.changed();
    }
  });

  // Before any route of a server by name: `questions` is no server's name here.
  app.route('/api/mcp', questionRoutes({ questions }));

  app.post('/api/mcp/:name/reconnect', async (c) =>
    c.json({ status: await runtime.mcp.reconnect(c.req.param('name')) }),
  );

  app.post('/api/mcp/:name/login', async (c) => {
    const authorizationUrl = await logins.start(c.req.param('name'));
    const answer: LoginStarted = authorizationUrl === undefined ? {} : { authorizationUrl };
    return c.json(answer);
  });

  app.route('/api/mcp', choiceRoutes({ runtime, logins, feed }));
  app.route('/api/mcp', approvalRoutes({ runtime, feed }));
  app.route('/api/mcp', toolRoutes({ runtime, questions }));
  app.route('/api/mcp', toolChangeRoutes({ runtime, feed }));
  app.route('/api/mcp', entryRoutes({ runtime, logins, feed }));
  app.route('/api/mcp', serverContentRoutes(runtime));
  app.route('/api/mcp', outputRoutes(runtime));
  app.route('/api/mcp', oauthRoutes({ runtime, feed }));
  app.route('/api/import', importRoutes({ runtime, feed, places: parts.importPlaces }));
  app.route('/api/tasks', taskRoutes(runtime));

  app.all('/api/*', (c) =>
    send(c, apiError(404, 'not_found', `There is no ${c.req.method} ${c.req.path} in this API.`)),
  );

  app.get('/open/:id', (c) => {
    c.header('cache-control', 'no-store');
    // Before the id is taken: another user's request must not use up the browser's.
    if (!fromThisUser(c, parts.port)) {
      return c.text(
        'This one-time address of epoch web is for the user who started it. Open the page from the URL `epoch web` printed.',
        403,
      );
    }
    if (!parts.handoffs.take(c.req.param('id'))) {
      return c.text(
        'This one-time address of epoch web has been used or has expired. Open the page from the URL `epoch web` printed.',
        410,
      );
    }
    return c.redirect(`/#token=${parts.token}`, 303);
  });

  if (existsSync(parts.pageDir)) {
    app.use('/*', serveStatic({ root: parts.pageDir }));
  } else {
    app.get('/', (c) =>
      c.text(
        `The connectors page has not been built (${parts.pageDir} is missing): run \`npm run build\`, then start epoch web again.`,
        503,
      ),
    );
  }

  return app;
}

/**
 * Whether the request's connection is owned by the user epoch web runs as (peer-owner.ts). Where
 * that cannot be known (no /proc/net/tcp) it is let through: the id still works once, for a minute.
 */
function fromThisUser(c: Context, port: number): boolean {
  const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
  const { remoteAddress, remotePort } = socket ?? {};
  if (remoteAddress === undefined || remotePort === undefined) return false;
  const owner = peerOwner({ address: remoteAddress, port: remotePort }, port);
  switch (owner.kind) {
    case 'user':
      return owner.uid === process.getuid?.();
    case 'unlisted':
      return false;
    case 'unknown':
      return true;
  }
}
