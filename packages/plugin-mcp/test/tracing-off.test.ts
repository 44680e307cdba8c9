// With no OpenTelemetry SDK registered (a host that traces nothing): nothing of a trace is sent to
// a server, and a 2026-07-28 server's log messages still arrive (the log level does not wait for
// tracing). Its own file: tracing.test.ts registers an SDK for its whole process.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { LogFields } from '@epoch-agent/infra';
import { MODERN_SERVER, stdioConfig } from '@epoch-agent/testkit';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { McpClient } from '../src/connection/client.js';
import { jsonLines } from './support/recording.js';

let dir: string;
let record: string;
let client: McpClient | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(os.tmpdir(), 'epoch-trace-off-'));
  record = join(dir, 'record.jsonl');
});

afterEach(async () => {
  try {
    await client?.close();
    client = undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('sends no trace context, and the server still logs at the level asked', async () => {
  const lines: string[] = [];
  const write = (message: string, fields?: LogFields) => {
    if (fields?.logger === 'modern-server') lines.push(message);
  };
  client = new McpClient({
    config: stdioConfig('plain', process.execPath, [MODERN_SERVER, '--trace'], {
      env: { RECORD_FILE: record },
    }),
    logger: { debug: write, info: write, warn: write, error: write },
  });
  await client.connect();
  const seen = await client.callTool('traceparent', {});
  expect(seen.content).toEqual([{ type: 'text', text: 'none' }]);
  const requests = jsonLines<{ method?: string; traceparent?: string }>(record).filter(
    ({ method }) => method !== undefined,
  );
  expect(requests.length).toBeGreaterThan(1);
  expect(requests.filter(({ traceparent }) => traceparent !== undefined)).toEqual([]);
  await client.callTool('log', { level: 'info', message: 'still here' });
  expect(lines).toEqual(['MCP server "plain" (modern-server): still here']);
});
