// The body of a request that changes something: JSON, or a refusal the API answers with. Only
// JSON is taken, because a page of another site can send a form or plain text here without asking
// first, while a JSON body makes the browser ask (a preflight this server never answers).
import type { Context } from 'hono';
import { type ApiError, apiError } from './api-errors.js';

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
