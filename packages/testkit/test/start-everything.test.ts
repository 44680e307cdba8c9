// startEverything on a port the caller fixes (what the example does with examples/mcp.json): it
// listens exactly there, on 127.0.0.1 only, and a taken port is refused by code, naming the port,
// instead of letting whoever holds it answer in the server's place.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  freeLoopbackPort,
  isTestkitError,
  listeningAddresses,
  startEverything,
  TestkitError,
} from '../src/index.js';

describe('startEverything with a fixed port', () => {
  it.each(['sse', 'http'] as const)('serves %s on the port it was given', async (transport) => {
    const port = await freeLoopbackPort();
    const server = await startEverything(transport, { port });
    try {
      expect(server.endpoint).toMatchObject({ transport, port });
      const path = transport === 'sse' ? '/sse' : '/mcp';
      expect(server.endpoint).toHaveProperty('url', `http://127.0.0.1:${port}${path}`);
      expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    } finally {
      await server.stop();
    }
    expect(listeningAddresses(port)).toEqual([]);
  });

  it('refuses a port another program listens on, with code port_in_use and the port', async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as net.AddressInfo;
    try {
      const error: unknown = await startEverything('sse', { port }).then(
        (server) => server.stop().then(() => undefined),
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TestkitError);
      expect(isTestkitError(error, 'port_in_use')).toBe(true);
      expect(error).toMatchObject({ port });
      expect((error as Error).message).toContain(String(port));
      // Nothing of ours was left listening beside the squatter.
      expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});
