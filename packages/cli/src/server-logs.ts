// `--verbose` of `epoch mcp call` and `status`: the servers' own log messages on stderr as they
// come, each as the runtime's logger is given it (redacted by that server's policy, at most 100 in
// 10 seconds per server, then one line saying how many were dropped), with its control characters
// made visible: a server's words are never a terminal command. Nothing else the runtime logs.
import type { LogFields, Logger } from '@epoch-agent/infra';
import { visibleText } from '@epoch-agent/infra';
import type { Invocation } from './command.js';
import type { CliIo } from './io.js';

/** The logger a command's runtime gets: the servers' messages with --verbose, else none. */
export function serverLogs(invocation: Invocation, io: CliIo): { readonly logger?: Logger } {
  if (invocation.values.verbose !== true) return {};
  // On a terminal the progress line may be drawn: it is erased first, and drawn again at its next report.
  const erase = io.errIsTerminal === true && io.env.TERM !== 'dumb' ? '\r\x1b[K' : '';
  const write =
    (level: keyof Logger) =>
    (message: string, fields?: LogFields): void => {
      // A server's message carries its level; the drop notice its count. Nothing else is its.
      if (fields?.server === undefined) return;
      if (fields.level === undefined && fields.dropped === undefined) return;
      const shown = typeof fields.level === 'string' ? fields.level : level;
      io.err(`${erase}[${visibleText(shown)}] ${visibleText(message, { lines: true })}\n`);
    };
  return {
    logger: {
      debug: write('debug'),
      info: write('info'),
      warn: write('warn'),
      error: write('error'),
    },
  };
}
