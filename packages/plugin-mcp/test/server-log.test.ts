// A server's log messages (notifications/message) reach the host's logger: with the server's name
// and level, through the server's redaction policy, and capped when a server floods them.
import type { LogFields, Logger } from '@epoch-agent/infra';
import { fixtureServerArgs, stdioConfig } from '@epoch-agent/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { LOG_LINES_PER_WINDOW, LOG_WINDOW_MS, ServerLog } from '../src/connection/server-log.js';
import { FakeClock } from './support/fake-clock.js';

interface Line {
  readonly level: keyof Logger;
  readonly message: string;
  readonly fields: LogFields | undefined;
}

function recordingLogger(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const line =
    (level: keyof Logger) =>
    (message: string, fields?: LogFields): void => {
      lines.push({ level, message, fields });
    };
  return {
    lines,
    logger: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
  };
}

const SECRET = 'sk-live-log-must-not-leak-4242';
const clients: McpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe("a server's log messages", () => {
  it("go to the host's logger with the server's name and level, its secrets redacted", async () => {
    const { logger, lines } = recordingLogger();
    const client = new McpClient({
      config: stdioConfig('chatty', process.execPath, fixtureServerArgs('progress'), {
        env: { API_TOKEN: SECRET },
      }),
      logger,
    });
    clients.push(client);
    await client.connect();
    await client.callTool('log', { count: 2, level: 'warning', text: `token ${SECRET}` });
    await client.callTool('log', { count: 1, level: 'critical', text: 'disk full' });
    const fromServer = lines.filter((line) => line.fields?.logger === 'fixture');
    expect(fromServer.map(({ level, fields }) => [level, fields?.server, fields?.level])).toEqual([
      ['warn', 'chatty', 'warning'],
      ['warn', 'chatty', 'warning'],
      ['error', 'chatty', 'critical'],
    ]);
    expect(fromServer[2]?.message).toBe('MCP server "chatty" (fixture): disk full 1');
    expect(fromServer[0]?.message).toContain('MCP server "chatty" (fixture): token ');
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('a flood is capped: the lines over the cap are dropped and counted in one warning', async () => {
    const { logger, lines } = recordingLogger();
    const client = new McpClient({
      config: stdioConfig('flood', process.execPath, fixtureServerArgs('progress')),
      logger,
    });
    clients.push(client);
    await client.connect();
    const sent = LOG_LINES_PER_WINDOW + 50;
    await client.callTool('log', { count: sent, level: 'info', text: 'spam' });
    expect(lines.filter((line) => line.fields?.logger === 'fixture')).toHaveLength(
      LOG_LINES_PER_WINDOW,
    );
    // Closing the connection says what was dropped, without waiting for the window to end.
    await client.close();
    expect(lines.filter((line) => line.fields?.dropped !== undefined)).toEqual([
      {
        level: 'warn',
        message: `MCP server "flood" sent more than ${LOG_LINES_PER_WINDOW} log messages in ${LOG_WINDOW_MS / 1000} s; 50 of them were dropped.`,
        fields: { server: 'flood', dropped: 50 },
      },
    ]);
  });
});

describe('the cap, on a fake clock', () => {
  it('counts per window, reports the dropped ones when the window ends, then lets lines through again', async () => {
    const { logger, lines } = recordingLogger();
    const clock = new FakeClock();
    const log = new ServerLog('s', logger, clock);
    for (let i = 0; i < LOG_LINES_PER_WINDOW + 3; i++) log.write({ level: 'info', data: i });
    expect(lines).toHaveLength(LOG_LINES_PER_WINDOW);
    await clock.advance(LOG_WINDOW_MS - 1);
    expect(lines).toHaveLength(LOG_LINES_PER_WINDOW);
    await clock.advance(1);
    expect(lines.at(-1)?.fields).toEqual({ server: 's', dropped: 3 });
    log.write({ level: 'debug', data: { structured: true } });
    expect(lines.at(-1)).toEqual({
      level: 'debug',
      message: 'MCP server "s": {"structured":true}',
      fields: { server: 's', level: 'debug' },
    });
    expect(clock.pending()).toEqual([]);
  });
});
