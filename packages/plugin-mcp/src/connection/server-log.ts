// A server's own log messages (notifications/message) on their way to the host's logger: at the
// logger level nearest the server's, with the server's name, its level and its logger name as
// fields, through the client's logger, which applies that server's redaction policy. A server may
// send as many as it likes, so they are capped: at most LOG_LINES_PER_WINDOW per window of
// LOG_WINDOW_MS; the rest are counted, and one line says how many were dropped when the window
// ends. A long message is cut. We never send logging/setLevel: what a server logs by default is
// what it thinks worth saying, and a host that wants less filters by level in its own logger.
import type { Logger } from '@epoch-agent/infra';
import type { LoggingLevel } from '@modelcontextprotocol/client';
import { type Clock, type ClockTimer, realClock } from './clock.js';

export const LOG_WINDOW_MS = 10_000;
export const LOG_LINES_PER_WINDOW = 100;
/** A server's message is data of any shape; more than this of it is noise in a log line. */
const MAX_MESSAGE_CHARS = 2_000;

// A Record, so a level MCP adds fails to compile until it has a place.
const LOGGER_LEVEL: Record<LoggingLevel, keyof Logger> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

/** The params of notifications/message. */
export interface ServerLogMessage {
  readonly level: LoggingLevel;
  readonly logger?: string | undefined;
  readonly data: unknown;
}

export class ServerLog {
  readonly #server: string;
  readonly #logger: Logger;
  readonly #clock: Clock;
  #windowEnds = 0;
  #written = 0;
  #dropped = 0;
  #report: ClockTimer | undefined;

  /** `logger` must already redact this server's secrets (McpClient's does). */
  constructor(server: string, logger: Logger, clock: Clock = realClock) {
    this.#server = server;
    this.#logger = logger;
    this.#clock = clock;
  }

  write({ level, logger, data }: ServerLogMessage): void {
    const now = this.#clock.now();
    if (now >= this.#windowEnds) {
      this.#reportDropped();
      this.#windowEnds = now + LOG_WINDOW_MS;
      this.#written = 0;
    }
    if (this.#written >= LOG_LINES_PER_WINDOW) {
      this.#dropped += 1;
      this.#report ??= this.#clock.later(
        this.#windowEnds - now,
        () => this.#reportDropped(),
        false,
      );
      return;
    }
    this.#written += 1;
    const from = logger === undefined ? '' : ` (${logger})`;
    // Of LOGGER_LEVEL, whatever a server sent: a level outside MCP's is still a message.
    const write = LOGGER_LEVEL[level] ?? 'info';
    this.#logger[write](`MCP server "${this.#server}"${from}: ${text(data)}`, {
      server: this.#server,
      level,
      ...(logger === undefined ? {} : { logger }),
    });
  }

  /** Says what was dropped, now: the connection is closing. */
  end(): void {
    this.#reportDropped();
  }

  #reportDropped(): void {
    this.#report?.cancel();
    this.#report = undefined;
    if (this.#dropped === 0) return;
    this.#logger.warn(
      `MCP server "${this.#server}" sent more than ${LOG_LINES_PER_WINDOW} log messages in ${LOG_WINDOW_MS / 1000} s; ${this.#dropped} of them were dropped.`,
      { server: this.#server, dropped: this.#dropped },
    );
    this.#dropped = 0;
  }
}

/** A message's data as one text, whole (a string as it is, anything else as JSON). */
export function messageText(data: unknown): string {
  let said: string;
  try {
    said = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
  } catch {
    said = String(data);
  }
  return said;
}

function text(data: unknown): string {
  const said = messageText(data);
  return said.length > MAX_MESSAGE_CHARS ? `${said.slice(0, MAX_MESSAGE_CHARS)}…` : said;
}
