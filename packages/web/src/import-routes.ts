// "Import from…": the MCP servers of the other clients on this machine, and the import of the
// chosen ones into the user's mcp.json.
//
//   GET  /api/import   what each client's file holds (ImportView), clashes marked
//   POST /api/import   { servers: [{ client, path, scope, original }] }: those imported (ImportDone)
//
// Only the files the clients keep in the places given (home, project) are read, never a path the
// page names: a chosen server is found again in them. Nothing of a server's env or headers is sent
// to the page but their keys, and its entry with each secret as a placeholder. A chosen server
// whose name is taken is imported as `<name>-<client>`: choosing it is asking for that.
import {
  CLIENTS,
  type ClientFileRead,
  type FoundServer,
  findClientServers,
  type ImportedServer,
  type ImportPlaces,
  type Runtime,
} from '@epoch-agent/runtime';
import { Hono } from 'hono';
import { apiError, sendApiError as send } from './api-errors.js';
import type {
  ImportChoice,
  ImportDone,
  ImportFileView,
  ImportServerView,
  ImportView,
} from './api-types.js';
import { readJsonBody } from './json-body.js';
import type { ViewFeed } from './view-feed.js';

export interface ImportRouteParts {
  readonly runtime: Runtime;
  readonly feed: ViewFeed;
  readonly places: ImportPlaces;
}

/** The two routes, to be mounted at /api/import. */
export function importRoutes({ runtime, feed, places }: ImportRouteParts): Hono {
  const routes = new Hono();

  routes.get('/', async (c) => {
    const reads = await findClientServers(places);
    const preview = await runtime.importServers(serversOf(reads), { rename: true, dryRun: true });
    const answer: ImportView = {
      file: runtime.configFile,
      files: reads.map((read) => fileView(read, preview.servers)),
    };
    return c.json(answer);
  });

  routes.post('/', async (c) => {
    const read = await readJsonBody(c, 'the servers to import');
    if (!read.ok) return send(c, read.error);
    const chosen = choicesOf(read.body);
    if (chosen === undefined) {
      return send(
        c,
        apiError(
          400,
          'invalid_request',
          'Nothing was imported: the request names no servers as { servers: [{ client, path, scope, original }] }.',
        ),
      );
    }
    const found = serversOf(await findClientServers(places));
    const picked = found.filter((server) => chosen.some((choice) => same(choice, server)));
    try {
      const result = await runtime.importServers(picked, { rename: true });
      const answer: ImportDone = {
        file: result.file,
        servers: result.servers.map((server) => ({
          original: server.original,
          name: server.name,
          label: CLIENTS[server.client].label,
          added: server.outcome.kind === 'added' || server.outcome.kind === 'renamed',
          ...(server.outcome.kind === 'refused' ? { message: server.outcome.message } : {}),
        })),
      };
      return c.json(answer, 201);
    } finally {
      feed.changed();
    }
  });

  return routes;
}

function serversOf(reads: readonly ClientFileRead[]): FoundServer[] {
  return reads.flatMap((read) => (read.ok ? read.servers : []));
}

function same(choice: ImportChoice, server: FoundServer): boolean {
  return (
    choice.client === server.client &&
    choice.path === server.file &&
    choice.scope === server.scope &&
    choice.original === server.original
  );
}

function fileView(read: ClientFileRead, preview: readonly ImportedServer[]): ImportFileView {
  const base = {
    client: read.client,
    label: CLIENTS[read.client].label,
    path: read.path,
    scope: read.scope,
  };
  if (!read.ok) return { ...base, problem: read.problem, servers: [] };
  const servers = read.servers.map((found) => {
    const choice = {
      client: found.client,
      path: found.file,
      scope: found.scope,
      original: found.original,
    };
    return serverView(
      found,
      preview.find((server) => same(choice, server)),
    );
  });
  return { ...base, servers };
}

function serverView(found: FoundServer, imported: ImportedServer | undefined): ImportServerView {
  const outcome = imported?.outcome;
  const keys = (field: string) => {
    const value = found.entry[field];
    return value !== null && typeof value === 'object' ? Object.keys(value) : [];
  };
  const base = {
    original: found.original,
    name: imported?.name ?? found.name,
    notes: found.notes,
    env: keys('env'),
    headers: keys('headers'),
    entry: imported?.shown ?? '',
  };
  if (outcome?.kind === 'renamed') return { ...base, state: 'taken', clashWith: outcome.clashWith };
  if (outcome?.kind === 'refused') return { ...base, state: 'refused', message: outcome.message };
  return { ...base, state: 'new' };
}

function choicesOf(body: unknown): ImportChoice[] | undefined {
  const servers = (body as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  const choices: ImportChoice[] = [];
  for (const item of servers) {
    const { client, path, scope, original } = (item ?? {}) as Record<string, unknown>;
    if (typeof client !== 'string' || typeof path !== 'string' || typeof original !== 'string')
      return undefined;
    if (scope !== 'user' && scope !== 'project') return undefined;
    choices.push({ client: client as ImportChoice['client'], path, scope, original });
  }
  return choices;
}
