// The raw SDK's side of the probes: its Client over its own StdioClientTransport, connected and its
// tools listed as a program of its own would. Loaded first (a probe times the import apart), then
// used for each connection.

/** Imports the SDK; resolves to `connect(command, args, env)` → `{ client, tools }` (listed). */
export async function loadRawSdk() {
  const { Client } = await import('@modelcontextprotocol/client');
  const { getDefaultEnvironment, StdioClientTransport } = await import(
    '@modelcontextprotocol/client/stdio'
  );
  return async (command, args, env) => {
    const client = new Client({ name: 'probe', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command,
        args,
        env: { ...getDefaultEnvironment(), ...env },
        stderr: 'ignore',
      }),
    );
    const { tools } = await client.listTools();
    return { client, tools };
  };
}
