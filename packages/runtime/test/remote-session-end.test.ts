// runtime.close() ends the Streamable HTTP session of every remote server with HTTP DELETE, so a
// gateway that keeps a process per session does not keep one per run of a host. The recording
// server is plugin-mcp's (real HTTP on 127.0.0.1).
import { buildRuntime } from '@epoch-agent/runtime';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  type RunningHttpMcpServer,
  startHttpMcpServer,
} from '../../plugin-mcp/test/support/http-mcp-server.js';
import { memoryLogger } from '../../plugin-mcp/test/support/recording.js';
import { type TempHome, useTempHome } from './runtime-helpers.js';

let home: TempHome;
let running: RunningHttpMcpServer | undefined;

beforeEach(async () => {
  home = await useTempHome();
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await home.restore();
});

it('runtime.close() ends each Streamable HTTP session with DELETE and its Mcp-Session-Id', async () => {
  running = await startHttpMcpServer({ mode: 'http' });
  const logger = memoryLogger();
  const runtime = await buildRuntime({
    logger,
    hostCapabilities: { namespace: 'acme', mcpServers: { gw: { type: 'http', url: running.url } } },
  });
  expect(runtime.mcp.statuses()[0]?.state).toBe('connected');
  await runtime.close();
  const deletes = running.records.filter((r) => r.httpMethod === 'DELETE');
  expect(deletes.map((r) => r.session)).toEqual(['session-1']);
  // The close waited for the server's answer, not out its bound (which logs that it passed).
  expect(logger.lines.map(({ message }) => message)).not.toContainEqual(
    expect.stringContaining('did not answer the DELETE'),
  );
});
