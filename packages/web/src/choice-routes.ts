// What the model gets, chosen from the page: a server, or one of its tools, turned on or off.
//
//   PUT /api/mcp/:name/enabled              { "enabled": boolean }   the whole server
//   PUT /api/mcp/:name/tools/:tool/enabled  { "enabled": boolean }   one tool, by its name on the server
//
// With `"shown"` (whether the page showed it on), a user server's entry already as asked yet not as
// shown changed since the page was drawn: 409 `changed_since`, so the person sees it before
// choosing again.
//
// Each is a text edit of the user's mcp.json (Runtime.setServerChoice: a user server's own entry, a
// plugin's or the host's under `overrides`), applied before the answer, which says what was
// written on which line and shows the server as it is then (ChoiceSet): a server turned on is
// connecting, and the live view follows it from there. Mounted under the app's guards and its
// error handler, which answers what the runtime refuses, like every /api route.
import type { ChoiceEdit, Runtime } from '@epoch-agent/runtime';
import { type Context, Hono } from 'hono';
import { type ApiError, apiError, sendApiError as send } from './api-errors.js';
import type { ChoiceSet, ServerView } from './api-types.js';
import { boundedBody, readJsonBody } from './json-body.js';
import { serverView } from './mcp-view.js';
import type { PageLogins } from './page-logins.js';
import type { ViewFeed } from './view-feed.js';

// `{"enabled": false}` and room for spaces: anything near this bound is not a choice.
const CHOICE_BYTES = 1024;

export interface ChoiceRouteParts {
  readonly runtime: Runtime;
  readonly logins: PageLogins;
  readonly feed: ViewFeed;
}

/** The two routes, to be mounted at /api/mcp. */
export function choiceRoutes({ runtime, logins, feed }: ChoiceRouteParts): Hono {
  const limit = boundedBody(
    CHOICE_BYTES,
    `Nothing was changed: the body is over ${CHOICE_BYTES} bytes.`,
  );

  /** Reads `{ enabled }`, makes the edit and answers it; `edit` also refuses a tool unknown here. */
  const choose = async (
    c: Context,
    name: string,
    edit: (enabled: boolean, view: ServerView) => ChoiceEdit | ApiError,
  ): Promise<Response> => {
    const read = await readJsonBody(c, 'the choice');
    if (!read.ok) return send(c, read.error);
    const enabled = flagOf(read.body, 'enabled');
    const shown = flagOf(read.body, 'shown');
    if (typeof enabled !== 'boolean' || shown === null) {
      return send(
        c,
        refused(
          400,
          'invalid_request',
          `give { "enabled": true } or { "enabled": false } for server "${name}", and "shown" (if given) true or false`,
        ),
      );
    }
    try {
      const before = serverView(runtime, logins, name);
      // A name no source has: the runtime looks the server up before it writes anything, and
      // refuses with the names there are (unknown_server).
      const wanted =
        before === undefined ? { kind: 'server' as const, enabled } : edit(enabled, before);
      if ('status' in wanted) return send(c, wanted);
      const set = await runtime.setServerChoice(name, wanted, { shown });
      const server = serverView(runtime, logins, name);
      if (server === undefined) throw new Error(`server "${name}" is gone after the change`);
      const answer: ChoiceSet = {
        file: set.file,
        line: set.line,
        changes: set.changes,
        changed: set.changed,
        server,
      };
      return c.json(answer);
    } finally {
      feed.changed();
    }
  };

  const routes = new Hono();
  routes.put('/:name/enabled', limit, (c) =>
    choose(c, c.req.param('name'), (enabled) => ({ kind: 'server', enabled })),
  );
  routes.put('/:name/tools/:tool/enabled', limit, (c) => {
    const tool = c.req.param('tool');
    return choose(c, c.req.param('name'), (enabled, view) => {
      const names = toolNames(view);
      return names.includes(tool)
        ? { kind: 'tools', tools: [tool], enabled }
        : unknownTool(view, tool, names);
    });
  });
  return routes;
}

/** The boolean `key` of the body; undefined when absent, null when it is not a boolean. */
function flagOf(body: unknown, key: 'enabled' | 'shown'): boolean | undefined | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const value = (body as { readonly [key: string]: unknown })[key];
  return typeof value === 'boolean' ? value : value === undefined ? undefined : null;
}

/** The server's tools the runtime knows now, offered or off, by their names on the server. */
function toolNames(view: ServerView): string[] {
  return [...view.tools, ...view.toolsOff].map(({ serverName }) => serverName);
}

// The names it says, at most: a server may list hundreds.
const NAMES_SHOWN = 10;

// Only a tool the server has listed: a mistyped name would be written as a choice that matches
// nothing, and stay in the file as a warning.
function unknownTool(view: ServerView, tool: string, names: readonly string[]): ApiError {
  const shown = names.slice(0, NAMES_SHOWN).map((name) => JSON.stringify(name));
  const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : '';
  const state = view.status?.state;
  const known =
    state === 'disabled'
      ? 'it is turned off, so none of its tools are known: turn it on first'
      : state === 'needsApproval'
        ? 'it waits for approval, so none of its tools are known: approve it on its card first'
        : names.length === 0
          ? `its tools are not known now (${state ?? 'not started'}); once it has listed them, try again`
          : `its tools are ${shown.join(', ')}${more}`;
  return apiError(
    404,
    'unknown_tool',
    `Nothing was changed: server "${view.name}" has no tool ${JSON.stringify(tool)} (${known}).`,
  );
}

function refused(status: 400, code: string, why: string): ApiError {
  return apiError(status, code, `Nothing was changed: ${why}.`);
}
