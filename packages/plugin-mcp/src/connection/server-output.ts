// A server's recent output, for a person to read: its log messages (notifications/message) and
// the lines it wrote to stderr, in the order they came, the newest kept within OUTPUT_MAX_LINES
// and OUTPUT_MAX_BYTES (an editor's output pane, not a log file). Every text is redacted before it
// is kept: stderr lines by the transport's redacting stream, log messages here, whole, with the
// server's policy, before they are cut. Owned by the registry's entry for the server, so a
// reconnect or a reconfigure keeps what came before it.
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { Scrubber } from '../secrets.js';
import { messageText, type ServerLogMessage } from './server-log.js';

export const OUTPUT_MAX_LINES = 200;
export const OUTPUT_MAX_BYTES = 64 * 1024;
/** One line longer than this is cut (after its redaction): a line is read, not stored. */
export const OUTPUT_MAX_LINE_CHARS = 2_000;

export type McpServerOutputLine =
  | {
      /** Counts every line the server's output ever kept, from 1: where a reader left off. */
      readonly seq: number;
      /** Date.now() when it came. */
      readonly at: number;
      readonly stream: 'log';
      readonly level: LoggingLevel;
      readonly logger?: string;
      readonly text: string;
    }
  | {
      readonly seq: number;
      readonly at: number;
      readonly stream: 'stderr';
      readonly text: string;
    };

/** What a reader gets: the lines after the one it had, and how many older ones are gone. */
export interface McpServerOutput {
  readonly lines: readonly McpServerOutputLine[];
  /** Lines no longer kept (pushed out by newer ones) that the reader had not had. */
  readonly dropped: number;
  /** The seq of the newest line ever kept (0: none): pass it as `after` to read only newer ones. */
  readonly last: number;
}

export class ServerOutput {
  readonly #lines: McpServerOutputLine[] = [];
  #bytes = 0;
  #seq = 0;

  /** A stderr line, already redacted by the transport. */
  stderr(text: string): void {
    this.#keep({ seq: ++this.#seq, at: Date.now(), stream: 'stderr', text: cut(text) });
  }

  /** A log message, redacted here with the server's policy. */
  log({ level, logger, data }: ServerLogMessage, scrub: Scrubber): void {
    this.#keep({
      seq: ++this.#seq,
      at: Date.now(),
      stream: 'log',
      level,
      ...(logger === undefined ? {} : { logger: cut(scrub(logger)) }),
      text: cut(scrub(messageText(data))),
    });
  }

  /** The lines newer than `after` (a seq; default: every line kept). */
  read(after = 0): McpServerOutput {
    const first = this.#lines[0]?.seq ?? this.#seq + 1;
    return {
      lines: this.#lines.filter((line) => line.seq > after),
      dropped: Math.max(0, first - 1 - after),
      last: this.#seq,
    };
  }

  #keep(line: McpServerOutputLine): void {
    this.#lines.push(line);
    this.#bytes += sizeOf(line);
    while (
      this.#lines.length > OUTPUT_MAX_LINES ||
      (this.#bytes > OUTPUT_MAX_BYTES && this.#lines.length > 1)
    ) {
      this.#bytes -= sizeOf(this.#lines.shift() as McpServerOutputLine);
    }
  }
}

function cut(text: string): string {
  return text.length > OUTPUT_MAX_LINE_CHARS ? `${text.slice(0, OUTPUT_MAX_LINE_CHARS)}…` : text;
}

/** Its text's size, counted as UTF-16 code units twice over: a bound, not an exact byte count. */
function sizeOf(line: McpServerOutputLine): number {
  return 2 * (line.text.length + (line.stream === 'log' ? (line.logger?.length ?? 0) : 0));
}
