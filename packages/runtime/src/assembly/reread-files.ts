// What an apply reads again, before anything is started or stopped: the user's mcp.json, held to
// the names the host's and plugins' servers hold; then the project's `.epoch/mcp.json`, looked for
// again (one made since is read; one that no longer applies reads as empty, so its servers stop)
// and held to the user's names too; then the user's `overrides` over the host's, plugins' and the
// project's servers. A user file that cannot be read says nothing of the user's names, so the
// project's file is not read either: every server stays as it was.
import type { Diagnostic } from '@epoch-agent/infra';
import type { ConfiguredServer } from '../servers/configured-server.js';
import { findProjectConfig } from '../servers/project-file.js';
import {
  configuredProjectServers,
  loadProjectServers,
  type ProjectServersLoad,
} from '../servers/project-servers.js';
import type { HeldNames } from '../servers/server-names.js';
import { applyOverrides } from '../servers/server-overrides.js';
import {
  configuredUserServers,
  loadUserServers,
  type UserServersLoad,
} from '../servers/user-servers.js';

/** What the runtime holds now, which the files are read against. */
export interface FilesBefore {
  readonly configFile: string;
  readonly projectDir: string | undefined;
  /** The project file that applied at the last read. */
  readonly projectFile: string | undefined;
  /** The host's and plugins' servers as their entries say. */
  readonly entries: readonly ConfiguredServer[];
  /** The host's and plugins' servers, the user's overrides applied. */
  readonly fixed: readonly ConfiguredServer[];
  readonly namespace: string | undefined;
}

export type FilesRead =
  | { readonly unreadable: true; readonly user: UserServersLoad }
  | {
      readonly unreadable: false;
      readonly user: UserServersLoad;
      readonly userServers: readonly ConfiguredServer[];
      /** The project file that applies now. */
      readonly projectFile: string | undefined;
      /** Its servers with the user's overrides applied; undefined when there is no file to apply. */
      readonly project: ProjectServersLoad | undefined;
      readonly projectServers: readonly ConfiguredServer[];
      /** The host's and plugins' servers, the user's overrides applied. */
      readonly fixed: readonly ConfiguredServer[];
      /** The overrides that name no server, and the like (overrides' own). */
      readonly overrideDiagnostics: readonly Diagnostic[];
    };

export async function rereadFiles(before: FilesBefore): Promise<FilesRead> {
  const held = (servers: readonly ConfiguredServer[]): HeldNames => ({
    taken: new Map(servers.map(({ config, origin }) => [config.name, origin.source] as const)),
    namespace: before.namespace,
  });
  const user = await loadUserServers(before.configFile, held(before.fixed));
  if (user.unreadable) return { unreadable: true, user };
  const userServers = configuredUserServers(user);
  const projectFile =
    before.projectDir === undefined
      ? undefined
      : await findProjectConfig(before.projectDir, { userFile: before.configFile });
  const heldByUser = held([...before.fixed, ...userServers]);
  const read =
    projectFile !== undefined
      ? await loadProjectServers(projectFile, heldByUser)
      : before.projectFile === undefined
        ? undefined
        : {
            file: before.projectFile,
            servers: [],
            positions: undefined,
            diagnostics: [],
            unreadable: false,
          };
  const overridden = applyOverrides(
    [...before.entries, ...(read === undefined ? [] : configuredProjectServers(read))],
    user,
  );
  const fromProject = ({ origin }: ConfiguredServer) => origin.source === 'project';
  const projectServers = overridden.servers.filter(fromProject);
  return {
    unreadable: false,
    user,
    userServers,
    projectFile,
    project:
      read === undefined
        ? undefined
        : { ...read, servers: projectServers.map(({ config }) => config) },
    projectServers,
    fixed: overridden.servers.filter((server) => !fromProject(server)),
    overrideDiagnostics: overridden.diagnostics,
  };
}
