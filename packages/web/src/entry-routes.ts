// A user server's entry as JSON text, from the page: read it (to edit or copy), write it back, or
// add a server from pasted JSON.
//
//   GET  /api/mcp/:name/entry   the entry as written, secrets as placeholders (ServerEntry)
//   PUT  /api/mcp/:name/entry   { "text": …, "basedOn": … }: the entry replaced by the edited text
//                               (ServerEntryWritten); 409 when the entry changed since `basedOn`
//   POST /api/mcp/json          { "name": …, "json": … }: a server added from pasted JSON (AddServerResponse)
//
// The runtime does the work and the checks, the same as `epoch mcp add-json`'s (readServerEntry /
// replaceServerEntry / parseEntryJson + addServer): the edit replaces that entry's bytes and no
// others, and applies the file, so the server reconnects only when its config changed. No secret
// comes here from the file: the entry's are placeholders, which the write puts back. Mounted under
// the app's guards and its error handler, which answers what the runtime refuses.
import { ENTRY_LIMITS, parseEntryJson, type Runtime, sizeText } from '@epoch-agent/runtime';
import { Hono } from 'hono';
import { apiError, sendApiError as send } from './api-errors.js';
import type {
  AddServerResponse,
  PasteAddRequest,
  ServerEntry,
  ServerEntryRequest,
  ServerEntryWritten,
} from './api-types.js';
import { boundedBody, readJsonBody } from './json-body.js';
import { serverView } from './mcp-view.js';
import type { PageLogins } from './page-logins.js';
import type { ViewFeed } from './view-feed.js';

export interface EntryRouteParts {
  readonly runtime: Runtime;
  readonly logins: PageLogins;
  readonly feed: ViewFeed;
}

// The body carries one entry and a little JSON around it: an entry's bound, and room for the
// escapes its text takes as a JSON string.
const BODY_BYTES = 2 * ENTRY_LIMITS.entryBytes;

/** The three routes, to be mounted at /api/mcp. */
export function entryRoutes({ runtime, logins, feed }: EntryRouteParts): Hono {
  const limit = (what: string) =>
    boundedBody(
      BODY_BYTES,
      `${what}: the request body is over ${sizeText(BODY_BYTES)}, far more than a server's entry may be (${sizeText(ENTRY_LIMITS.entryBytes)}). Nothing was written.`,
    );

  const routes = new Hono();

  routes.get('/:name/entry', async (c) => {
    const name = c.req.param('name');
    const entry = await runtime.serverEntry(name);
    const answer: ServerEntry = { file: runtime.configFile, ...entry };
    return c.json(answer);
  });

  routes.put('/:name/entry', limit('The entry was not changed'), async (c) => {
    const name = c.req.param('name');
    const read = await readJsonBody(c, 'the entry');
    if (!read.ok) return send(c, read.error);
    const { text, basedOn } = (read.body ?? {}) as Partial<ServerEntryRequest>;
    // What the text was based on is required: a write without it could erase an edit made since.
    if (typeof text !== 'string' || typeof basedOn !== 'string') {
      return send(
        c,
        apiError(
          400,
          'invalid_request',
          `Server "${name}" was not changed: give { "text": "<the entry>", "basedOn": "<the version GET /api/mcp/${name}/entry gave with it>" }.`,
        ),
      );
    }
    try {
      const written = await runtime.replaceServerEntry(name, text, { basedOn });
      const server = serverView(runtime, logins, name);
      if (server === undefined) throw new Error(`server "${name}" is gone after the edit`);
      const answer: ServerEntryWritten = { file: written.file, changed: written.changed, server };
      return c.json(answer);
    } finally {
      feed.changed();
    }
  });

  routes.post('/json', limit('The server was not added'), async (c) => {
    const read = await readJsonBody(c, 'the pasted server');
    if (!read.ok) return send(c, read.error);
    const body = (read.body ?? {}) as Partial<PasteAddRequest>;
    const given = typeof body.name === 'string' ? body.name.trim() : '';
    const parsed = parseEntryJson(typeof body.json === 'string' ? body.json : '');
    if (!parsed.ok) return send(c, notAdded('json', parsed.problem));
    // A name typed wins: a copied entry is pasted to add it under another name.
    const name = given !== '' ? given : parsed.name;
    if (name === undefined) {
      return send(
        c,
        notAdded('name', 'give the server a name (the JSON is an entry without one).'),
      );
    }
    // Made or refused, the live view is sent again; the error handler answers a refusal.
    try {
      const added = await runtime.addServer({ name, entry: parsed.entry });
      const status = runtime.mcp.statuses().find((s) => s.name === name);
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

  return routes;
}

function notAdded(field: 'name' | 'json', why: string) {
  return apiError(400, 'invalid_request', `The server was not added: ${why}`, {
    fields: { [field]: why },
  });
}
