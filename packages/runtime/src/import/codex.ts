// Codex: `~/.codex/config.toml`, one `[mcp_servers.NAME]` table per server: command/args/env/
// env_vars/cwd or url with bearer_token_env_var, http_headers, env_http_headers; startup and tool
// timeouts in seconds; enabled, enabled_tools, disabled_tools. It expands no variables, but names
// variables to read (env_vars, bearer_token_env_var, env_http_headers): each becomes a `${VAR}`.
import { join } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { member, readServers } from './client-file.js';
import type { ClientReader } from './found-server.js';
import {
  COMMON_RULES,
  type EntryDraft,
  type FieldRules,
  notMapped,
  seconds,
  toolList,
} from './translate-entry.js';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A variable of the environment, as a value of ours; a name we cannot read is a note. */
function variable(name: unknown, where: string, draft: EntryDraft): string | undefined {
  if (typeof name === 'string' && VARIABLE.test(name)) return `\${${name}}`;
  draft.note(`${where} does not name an environment variable, so it was not imported.`);
  return undefined;
}

const RULES: FieldRules = {
  ...COMMON_RULES,
  // Codex's url is Streamable HTTP.
  url: (value, draft) => {
    draft.entry.transport = 'http';
    COMMON_RULES.url?.(value, draft);
  },
  env_vars: (value, draft) => {
    if (!Array.isArray(value)) {
      draft.note('env_vars is not a list of names, so it was not imported.');
      return;
    }
    const env: Record<string, string> = {};
    for (const name of value) {
      const ref = variable(name, 'env_vars', draft);
      if (ref !== undefined) env[String(name)] = ref;
    }
    draft.merge('env', env);
  },
  http_headers: (value, draft) => {
    const headers = draft.stringMap(value, 'http_headers');
    if (headers !== undefined) draft.merge('headers', headers, 'http_headers');
  },
  env_http_headers: (value, draft) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      draft.note('env_http_headers is not a table of header names, so it was not imported.');
      return;
    }
    const headers: Record<string, string> = {};
    for (const [header, name] of Object.entries(value)) {
      const ref = variable(name, `env_http_headers.${header}`, draft);
      if (ref !== undefined) headers[header] = ref;
    }
    draft.merge('headers', headers, 'env_http_headers');
  },
  bearer_token_env_var: (value, draft) => {
    const ref = variable(value, 'bearer_token_env_var', draft);
    if (ref !== undefined)
      draft.merge('headers', { Authorization: `Bearer ${ref}` }, 'bearer_token_env_var');
  },
  startup_timeout_sec: seconds('startup_timeout_sec', 'connect_timeout', 's'),
  startup_timeout_ms: seconds('startup_timeout_ms', 'connect_timeout', 'ms'),
  tool_timeout_sec: seconds('tool_timeout_sec', 'timeout', 's'),
  enabled_tools: toolList('enabled_tools', 'include_tools'),
  disabled_tools: toolList('disabled_tools', 'exclude_tools'),
  required: notMapped(
    'required is not imported: epoch starts every server on its own, and one that fails stops no other.',
  ),
  scopes: (value, draft) => {
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      draft.entry.oauth = { scopes: value };
    } else draft.note('scopes is not a list of strings, so it was not imported.');
  },
  oauth_resource: notMapped(
    'oauth_resource is not imported: epoch asks for the resource the server names.',
  ),
};

export const codex: ClientReader = {
  label: 'Codex',
  files: (places) => [
    { client: 'codex', path: join(places.home, '.codex', 'config.toml'), scope: 'user' },
  ],
  read: (text, file, places) => {
    let config: unknown;
    try {
      config = parse(text);
    } catch (error) {
      if (!(error instanceof TomlError)) throw error;
      return {
        ...file,
        ok: false,
        // Not the message: it quotes the line, which may hold a token.
        problem: `${file.path}:${error.line}:${error.column}: not valid TOML; nothing of it was imported.`,
      };
    }
    const servers = member(config, 'mcp_servers');
    return readServers(file, servers, 'mcp_servers', { rules: RULES, refs: 'none' }, places);
  },
};
