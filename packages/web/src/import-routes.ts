// "Import from…": the MCP servers of the other clients on this machine, and the import of the
// chosen ones into the user's mcp.json.
//
//   GET  /api/import   what each client's file holds (ImportView), clashes marked
//   POST /api/import   { servers: [{ client, path, scope, original }] }: those imported (ImportDone);
//                      a body over 4 MiB is refused (413) before it is read
//
// Only the files the clients keep in the places given (home, project) are read, never a path the
// page names: a chosen server is found again in them. Nothing of a server's env or headers is sent
// to the page but their keys, and its entry with each secret as a placeholder; with each server
// goes what it would run (its launch, as the approval dialog shows one). A chosen server whose name
// is taken is imported as `<name>-<client>`: choosing it is asking for that. One that runs exactly
// what a server of epoch's runs already (the runtime's foundLaunches) is not imported again, whatever its name,
// nor one that runs exactly what an earlier chosen server runs.
import {
  CLIENTS,
  type ClientFileRead,
  type FoundLaunch,
  type FoundServer,
  findClientServers,
  foundLaunches,
  type ImportedServer,
  type ImportPlaces,
  type Runtime,
  runsAgain,
  sizeText,
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
import { boundedBody, readJsonBody } from './json-body.js';
import type { ViewFeed } from './view-feed.js';

export interface ImportRouteParts {
  readonly runtime: Runtime;
  readonly feed: ViewFeed;
  readonly places: ImportPlaces;
}

// A choice names a server in a line of JSON (about 200 bytes): ten thousand of them fit.
const CHOICE_BYTES = 4 * 1024 * 1024;

/** The two routes, to be mounted at /api/import. */
export function importRoutes({ runtime, feed, places }: ImportRouteParts): Hono {
  const routes = new Hono();
  const limit = boundedBody(
    CHOICE_BYTES,
    `Nothing was imported: the request body is over ${sizeText(CHOICE_BYTES)}; choose fewer servers at a time.`,
  );

  routes.get('/', async (c) => {
    const reads = await findClientServers(places);
    const found = serversOf(reads);
    const preview = await runtime.importServers(found, { rename: true, dryRun: true });
    const launches = foundLaunches(runtime, found);
    const previews = new Map(preview.servers.map((server) => [keyOf(server), server]));
    const answer: ImportView = {
      file: runtime.configFile,
      files: reads.map((read) => fileView(read, previews, launches)),
    };
    return c.json(answer);
  });

  routes.post('/', limit, async (c) => {
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
    const keys = new Set(chosen.map(keyOf));
    const picked = found.filter((server) => keys.has(keyOf(server)));
    const launches = foundLaunches(runtime, picked);
    const again = picked.filter((server) => runsAgain(launches.get(server)));
    try {
      const result = await runtime.importServers(
        picked.filter((server) => !runsAgain(launches.get(server))),
        { rename: true },
      );
      const answer: ImportDone = {
        file: result.file,
        servers: [
          ...result.servers.map((server) => ({
            original: server.original,
            name: server.name,
            label: CLIENTS[server.client].label,
            added: server.outcome.kind === 'added' || server.outcome.kind === 'renamed',
            ...(server.outcome.kind === 'refused' ? { message: server.outcome.message } : {}),
          })),
          ...again.map((server) => ({
            original: server.original,
            name: server.name,
            label: CLIENTS[server.client].label,
            added: false,
            message: againMessage(launches.get(server)),
          })),
        ],
      };
      return c.json(answer, 201);
    } finally {
      feed.changed();
    }
  });

  return routes;
}

/** Why a chosen server was not imported: epoch's server, or an earlier chosen one, runs the same. */
function againMessage(launch: FoundLaunch | undefined): string {
  if (launch?.sameAs !== undefined) return `server "${launch.sameAs}" runs exactly this already.`;
  const first = launch?.sameAsFound;
  if (first === undefined) return 'it runs exactly what another chosen server runs.';
  return `it runs exactly what ${CLIENTS[first.client].label}'s "${first.original}" (${first.file}), chosen too, runs: that one is imported instead.`;
}

function serversOf(reads: readonly ClientFileRead[]): FoundServer[] {
  return reads.flatMap((read) => (read.ok ? read.servers : []));
}

/** Which server of which file a choice or a found server is: one lookup each, not a scan. */
function keyOf(server: ImportChoice | FoundServer): string {
  const path = 'path' in server ? server.path : server.file;
  return JSON.stringify([server.client, path, server.scope, server.original]);
}

function fileView(
  read: ClientFileRead,
  previews: ReadonlyMap<string, ImportedServer>,
  launches: ReadonlyMap<FoundServer, FoundLaunch>,
): ImportFileView {
  const base = {
    client: read.client,
    label: CLIENTS[read.client].label,
    path: read.path,
    scope: read.scope,
  };
  if (!read.ok) return { ...base, problem: read.problem, servers: [] };
  const servers = read.servers.map((found) =>
    serverView(found, previews.get(keyOf(found)), launches.get(found)),
  );
  return { ...base, servers };
}

function serverView(
  found: FoundServer,
  imported: ImportedServer | undefined,
  launch: FoundLaunch | undefined,
): ImportServerView {
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
    ...(launch === undefined ? {} : { launch: launch.launch }),
  };
  if (outcome?.kind === 'refused') return { ...base, state: 'refused', message: outcome.message };
  if (launch?.sameAs !== undefined) return { ...base, state: 'imported', sameAs: launch.sameAs };
  if (outcome?.kind === 'renamed') return { ...base, state: 'taken', clashWith: outcome.clashWith };
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
