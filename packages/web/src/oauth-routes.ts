// A remote server's stored OAuth login, shown and ended from the page, through the runtime (as
// `epoch mcp logout` does):
//
//   GET  /api/mcp/:name/oauth    who is logged in where: the authorization server, the expiry and
//                                scopes of the tokens, never a token
//   POST /api/mcp/:name/logout   delete the stored login, revoking its tokens where the
//                                authorization server allows it; a connected server reconnects
//
// A stdio or unknown server is the runtime's refusal, answered by the app's error handler.
import type { Runtime } from '@epoch-agent/runtime';
import { Hono } from 'hono';
import type { LoggedOut, OAuthStatus } from './oauth-types.js';
import type { ViewFeed } from './view-feed.js';

export interface OAuthRouteParts {
  readonly runtime: Runtime;
  readonly feed: ViewFeed;
}

/** The routes, to be mounted at /api/mcp. */
export function oauthRoutes({ runtime, feed }: OAuthRouteParts): Hono {
  const app = new Hono();

  app.get('/:name/oauth', async (c) => {
    const login = await runtime.storedLogin(c.req.param('name'));
    const answer: OAuthStatus = login === undefined ? {} : { login };
    return c.json(answer);
  });

  app.post('/:name/logout', async (c) => {
    try {
      const answer: LoggedOut = await runtime.logout(c.req.param('name'));
      return c.json(answer);
    } finally {
      feed.changed();
    }
  });

  return app;
}
