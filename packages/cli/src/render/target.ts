// What a server runs or where it lives, as one line a person can read and paste: the command with
// its arguments quoted where a shell would need it, or the URL. Secrets never: credential-looking
// argument values and URL credentials are redacted, env and header values are not shown at all.
import { redact, redactArgs, redactUrl } from '@epoch-agent/infra';
import type { McpServerConfig } from '@epoch-agent/runtime';

export function target(server: McpServerConfig): string {
  if (server.transport !== 'stdio') return redactUrl(server.url);
  return [server.command, ...redactArgs(server.args)].map(shellQuote).join(' ');
}

// Single quotes keep everything literal in a POSIX shell; a ' inside is closed, escaped, reopened.
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./<>-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The whole config as JSON may show it: secret-holding maps, arguments and the URL redacted. */
export function printableConfig(server: McpServerConfig): Record<string, unknown> {
  const free =
    server.transport === 'stdio'
      ? { args: redactArgs(server.args) }
      : { url: redactUrl(server.url) };
  return { ...redact(server), ...free };
}
