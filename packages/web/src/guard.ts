// Who may talk to the page's server. A POST to it writes a command into mcp.json that epoch then
// runs, so "only the person who started `epoch web`" is the bar, and three checks hold it:
//
// - Host: the loopback name and our port, nothing else. A web page that points a DNS name of its
//   own at 127.0.0.1 (DNS rebinding) is same-origin with us as far as the browser knows; its
//   requests still say its name in Host, and are refused here.
// - Origin: when a browser says where a request comes from, it must be this page. Another site's
//   page can send a POST here without reading the answer; it is refused before anything runs.
// - A token made per launch, required on every /api/* call. It reaches the page only in the URL
//   epoch prints (as the fragment, which browsers never send to any server), or in the one answer
//   of a one-time address (key-handoff.ts), and lives in that tab's sessionStorage, so another
//   local user or process that can reach the port still cannot call the API.
//
// The server listens on 127.0.0.1 only (see start-web.ts): none of this is reachable from the
// network in the first place.

import { bearerAuth } from 'hono/bearer-auth';
import { createMiddleware } from 'hono/factory';
import { apiError } from './api-errors.js';

/** The names the page may be reached by: the address we bind, and the name that resolves to it. */
export function pageOrigins(port: number): { hosts: Set<string>; origins: Set<string> } {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return { hosts, origins: new Set([...hosts].map((host) => `http://${host}`)) };
}

/** Refuses a request whose Host is not ours, or whose Origin is another site's. */
export function hostAndOriginGuard(port: number) {
  const { hosts, origins } = pageOrigins(port);
  return createMiddleware(async (c, next) => {
    const host = c.req.header('host') ?? '';
    if (!hosts.has(host.toLowerCase())) {
      const { status, body } = apiError(
        403,
        'forbidden_host',
        `This server only answers requests for ${[...hosts].join(' or ')}; the request was for "${host}".`,
      );
      return c.json(body, status);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      const { status, body } = apiError(
        403,
        'forbidden_origin',
        `Requests from ${JSON.stringify(origin)} are refused: only the connectors page itself may call this server.`,
      );
      return c.json(body, status);
    }
    await next();
  });
}

/** Requires `Authorization: Bearer <token>` (compared in constant time). */
export function tokenGuard(token: string) {
  const refusal = (code: string) => () =>
    apiError(
      401,
      code,
      'This call needs the key of this launch of `epoch web`: open the page from the URL epoch printed (the key is in it).',
    ).body;
  return bearerAuth({
    token,
    noAuthenticationHeader: { message: refusal('missing_token') },
    invalidAuthenticationHeader: { message: refusal('invalid_token') },
    invalidToken: { message: refusal('invalid_token') },
  });
}
