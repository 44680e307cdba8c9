// The servers an embedding host passes to buildRuntime: validated like the entries of an mcp.json,
// named `<namespace>__<server>`, connected with source `host`. None of them is ever written to disk.
//
// The namespace and the server keys are checked when the runtime is built and a bad one is thrown
// right there, before anything starts: they are the host's code, not a user's file, and a name
// that fails later would fail as a tool name a provider refuses, far from the line that caused it.
import type { Diagnostic } from '@epoch-agent/infra';
import type { McpServerConfig, McpServerEntry } from '@epoch-agent/plugin-mcp';
import { parseMcpServerEntries } from '@epoch-agent/plugin-mcp/config';

import { RuntimeError } from '../errors.js';
import { HOST_NAMESPACE_PATTERN, SERVER_NAME_PATTERN, scopedServerName } from './server-names.js';

export interface HostCapabilities {
  /**
   * The prefix of this host's server names (`<namespace>__<server>`), e.g. the product's name.
   * Letters, digits, `_` and `-` only (HOST_NAMESPACE_PATTERN).
   */
  readonly namespace: string;
  /**
   * The host's MCP servers, keyed by server name (letters, digits, `_` and `-`), each written like
   * an entry of mcp.json's `servers`. A relative `cwd` is relative to the process's working
   * directory.
   */
  readonly mcpServers?: { readonly [server: string]: McpServerEntry };
}

/** Throws `invalid_host_namespace` / `invalid_host_server_name`; entry mistakes are diagnostics. */
export function loadHostServers(host: HostCapabilities): {
  servers: McpServerConfig[];
  diagnostics: readonly Diagnostic[];
} {
  const { namespace } = host;
  if (!HOST_NAMESPACE_PATTERN.test(namespace)) {
    throw new RuntimeError(
      'invalid_host_namespace',
      `hostCapabilities.namespace ${JSON.stringify(namespace)} is not valid: it must match ` +
        `${HOST_NAMESPACE_PATTERN.source} (letters, digits, "_" and "-"), because it becomes part of ` +
        'the names of tools sent to model providers, which refuse any other character. Choose a name like "acme".',
      { namespace },
    );
  }
  const entries = host.mcpServers ?? {};
  for (const server of Object.keys(entries)) {
    if (!SERVER_NAME_PATTERN.test(server)) {
      throw new RuntimeError(
        'invalid_host_server_name',
        `hostCapabilities.mcpServers key ${JSON.stringify(server)} (namespace "${namespace}") is not a ` +
          `valid server name: it must match ${SERVER_NAME_PATTERN.source} (letters, digits, "_" and "-"), ` +
          'because it becomes part of the names of tools sent to model providers. Rename it.',
        { namespace, server },
      );
    }
  }
  const load = parseMcpServerEntries(entries, {
    origin: `hostCapabilities.mcpServers (namespace "${namespace}")`,
    baseDir: process.cwd(),
  });
  return {
    servers: load.servers.map((config) => ({
      ...config,
      name: scopedServerName(namespace, config.name),
    })),
    diagnostics: load.diagnostics,
  };
}
