// The floor every MCP client is measured against: a stdio server driven with nothing but
// node:child_process and JSON.parse — no SDK, no schema checks, no timers. Newline-delimited
// JSON-RPC written and read by hand, answers matched to requests by id.
import { spawn } from 'node:child_process';

const PROTOCOL_VERSION = '2025-11-25';

/**
 * Spawns `command args` with `env` and completes the handshake (initialize, its answer, then
 * notifications/initialized). Returns `{ request(method, params), close() }`: `request` resolves
 * with the answer's result (rejects with its error), `close` ends stdin and resolves once the
 * server has exited, as a polite close does. `ownSession` starts the server as the leader of a
 * session and process group of its own (`detached`), as ours are, where the SDKs keep it in theirs:
 * on Linux a new session is also a scheduling group of its own (autogroup), which the kernel
 * weighs against the other sessions' work on every wake-up of the server.
 */
export async function connectBare(command, args, env, { ownSession = false } = {}) {
  const child = spawn(command, args, {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: ownSession && process.platform !== 'win32',
  });
  const pending = new Map();
  let nextId = 0;
  let buffered = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('error', (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  });
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const message = JSON.parse(line);
      const waiting = pending.get(message.id);
      if (waiting === undefined) continue;
      pending.delete(message.id);
      if (message.error !== undefined) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    }
  });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'bare-pipe', version: '1.0.0' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    request,
    close() {
      child.stdin.end();
      return exited;
    },
  };
}
