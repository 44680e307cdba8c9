// The body of a request that changes something: JSON, or a refusal the API answers with. Only
// JSON is taken, because a page of another site can send a form or plain text here without asking
// first, while a JSON body makes the browser ask (a preflight this server never answers). Its size
// is bounded before it is read into memory.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type ApiError, apiError, sendApiError } from './api-errors.js';

/**
 * A route's bound on its body: past `maxSize` bytes the request is answered 413 `too_large` with
 * `message` (what was not done, and the bound).
 */
export function boundedBody(maxSize: number, message: string): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: (c) => {
      // The rest of the body is never read, so the connection cannot carry another request.
      c.header('connection', 'close');
      return sendApiError(c, apiError(413, 'too_large', message));
    },
  });
}

export type JsonBody =
  | { readonly ok: true; readonly body: unknown }
  | { readonly ok: false; readonly error: ApiError };

/** `what` names what the body carries, for the refusal: `the new server`, `the choice`. */
export async function readJsonBody(c: Context, what: string): Promise<JsonBody> {
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    return {
      ok: false,
      error: apiError(415, 'unsupported_media_type', `Send ${what} as JSON (application/json).`),
    };
  }
  try {
    return { ok: true, body: await c.req.json() };
  } catch {
    return {
      ok: false,
      error: apiError(400, 'invalid_json', 'The request body is not valid JSON.'),
    };
  }
}
