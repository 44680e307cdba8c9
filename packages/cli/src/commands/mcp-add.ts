// `epoch mcp add`: a server into the user's mcp.json from the command line, the way `claude mcp
// add` and `codex mcp add` do it — and without their traps: `-e` and `--header` take exactly one
// value each and repeat (a flag that takes many values swallows the server's name), and everything
// from the server's command word on (or after `--`) is its command and arguments, untouched, `-y`
// and `--port` included.
import { type AddServerInput, SERVER_NAME_PATTERN } from '@epoch-agent/runtime';
import { transportKind } from '@epoch-agent/runtime/config';
import { type Invocation, stringOption, stringOptions, UsageError } from '../command.js';
import type { CliIo, ExitCode } from '../io.js';
import { addAndCheck } from './add-server.js';

/** `epoch mcp add`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  return addAndCheck(serverOf(invocation), invocation, io, 'mcp add');
}

function serverOf(invocation: Invocation): AddServerInput {
  const [name, ...more] = invocation.operands;
  if (name === undefined) throw new UsageError('missing <name>');
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new UsageError(
      `the server name ${JSON.stringify(name)} can only use letters, digits, "_" and "-" (it becomes part of tool names like mcp__<server>__<tool>, which model providers restrict)`,
    );
  }
  // The server's command line: after `--`, or from its command word on (main.ts cuts it off).
  const given = [...more, ...invocation.rest];
  const looksLikeUrl = given.length === 1 && /^https?:\/\//i.test(given[0] ?? '');
  const written = stringOption(invocation, 'transport');
  const transport =
    written === undefined
      ? invocation.dashDash || (given.length > 0 && !looksLikeUrl)
        ? 'stdio'
        : undefined
      : transportKind(written);
  if (written !== undefined && transport === undefined) {
    throw new UsageError(
      `--transport must be stdio, http or sse ("streamable" and "streamable-http" also mean http; got ${JSON.stringify(written)})`,
    );
  }
  const env = stringOptions(invocation, 'env');
  const headers = stringOptions(invocation, 'header');
  switch (transport) {
    case 'stdio': {
      if (headers.length > 0) {
        throw new UsageError(
          '--header is for remote servers (http, sse); a stdio server gets its secrets from -e KEY=VALUE',
        );
      }
      const [command, ...args] = given;
      if (command === undefined || command === '') {
        throw new UsageError(
          "missing the server's command, e.g. epoch mcp add files npx -y @modelcontextprotocol/server-filesystem /tmp",
        );
      }
      // `-e A=1 B=2` (one -e, two values, as claude's variadic -e takes them): B=2 is no command.
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(command)) {
        throw new UsageError(
          env.length > 0
            ? "one value per -e: repeat it for each variable (-e A=1 -e B=2); what follows the values is read as the server's command"
            : "a server's environment variables are given with -e KEY=VALUE, one per -e, before its command",
        );
      }
      return { name, transport, command, args, env: pairs(env, '=', '-e', 'KEY=VALUE') };
    }
    case 'http':
    case 'sse': {
      if (env.length > 0) {
        throw new UsageError(
          `-e is for stdio servers; a remote server gets its credentials from --header or "epoch mcp login ${name}"`,
        );
      }
      if (invocation.dashDash && invocation.rest.length > 0)
        throw new UsageError(`a ${transport} server takes a URL, not a command after "--"`);
      if (given.length !== 1)
        throw new UsageError(`a ${transport} server takes one URL after its name`);
      const [url = ''] = given;
      return { name, transport, url, headers: pairs(headers, ':', '--header', "'Name: value'") };
    }
    case undefined:
      throw new UsageError(
        looksLikeUrl
          ? 'say which remote transport this URL speaks, before it: --transport http (Streamable HTTP, the current one) or --transport sse (the older one)'
          : "missing the server's command, e.g. epoch mcp add files npx -y @modelcontextprotocol/server-filesystem /tmp",
      );
  }
}

/** `KEY=VALUE` / `Name: value` options as a map; a malformed one is a usage error naming it. */
function pairs(
  given: readonly string[],
  separator: '=' | ':',
  flag: string,
  form: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of given) {
    const at = item.indexOf(separator);
    // Not repeated in the messages: what was given may be the secret itself.
    if (at < 0) throw new UsageError(`${flag} takes ${form}: one of them has no "${separator}"`);
    const key = item.slice(0, at).trim();
    if (key === '') {
      throw new UsageError(`${flag} takes ${form}: one of them has no name before "${separator}"`);
    }
    out[key] = separator === ':' ? item.slice(at + 1).trim() : item.slice(at + 1);
  }
  return out;
}
