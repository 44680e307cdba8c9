// A tool's result answered as it comes (ToolCallLine, `Accept: application/x-ndjson`): the
// server's latest progress report a few times a second (and only when it changed), then the result
// or the error. A tool's "Try" and a recorded task's "Show result" are answered this way, so the
// page shows the progress of either as it runs.
import { pacedLatest, READING_PACE_MS } from '@epoch-agent/infra';
import type { Runtime, ToolProgress, ToolResult } from '@epoch-agent/runtime';
import type { Context } from 'hono';
import { stream } from 'hono/streaming';
import { fromError } from './api-errors.js';
import type { ToolCallLine } from './api-types.js';

const NDJSON = 'application/x-ndjson';

/** Whether the request asks to be answered as the call runs. */
export function asksAsItRuns(c: Context): boolean {
  return c.req.header('accept')?.includes(NDJSON) === true;
}

/**
 * The answer of `run` (a call of a tool of `server`, or a task of it followed) line by line: its
 * progress reports, then how it ended. Both go through the server's redaction (`shownProgress`,
 * `shownResult`): a tool that echoes its environment does not put it on the page.
 */
export function answerAsItRuns(
  c: Context,
  runtime: Runtime,
  server: string,
  run: (onProgress: (report: ToolProgress) => void) => Promise<ToolResult>,
): Response {
  c.header('content-type', NDJSON);
  // Not cached or buffered on the way: each line is news.
  c.header('cache-control', 'no-store');
  return stream(c, async (out) => {
    // In order, and never after the last line: a report is written before the next one is.
    let written = Promise.resolve();
    // The latest report a few times a second, as the terminal's progress line draws them: a
    // server's million reports would otherwise be a million lines for the browser to parse.
    const reports = pacedLatest<ToolProgress>({
      everyMs: READING_PACE_MS,
      text: (report) => JSON.stringify({ progress: runtime.mcp.shownProgress(server, report) }),
      show: (text) => {
        written = written.then(() => out.write(`${text}\n`)).then(() => {});
      },
    });
    let last: ToolCallLine;
    try {
      const result = await run((report) => reports.push(report));
      last = { result: runtime.mcp.shownResult(server, result) };
    } catch (error) {
      const { status, body } = fromError(error);
      last = { status, ...body };
    }
    // A report still waiting is older news than how the call ended.
    reports.stop();
    await written;
    await out.write(`${JSON.stringify(last)}\n`);
  });
}
