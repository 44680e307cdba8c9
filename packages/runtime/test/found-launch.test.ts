// foundLaunches on a real mcp.json: what a server found in another client's file would run, read as
// the user's file will read it once written there, and the server of epoch's that runs exactly the
// same (whatever its name). Key order and how it is written do not matter; one changed value does.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FoundServer, foundLaunches } from '@epoch-agent/runtime';
import { readMcpServers } from '@epoch-agent/runtime/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-found-launch-'));
  file = join(dir, 'mcp.json');
  await writeFile(
    file,
    `{
  // written by hand, in its own order and spelling
  "servers": {
    "brave": { "env": { "BRAVE_API_KEY": "\${BRAVE_API_KEY}" }, "args": ["-y", "@modelcontextprotocol/server-brave-search"], "command": "npx" },
    "remote": { "type": "http", "url": "https://mcp.example.com/mcp" }
  }
}
`,
  );
});

afterEach(() => rm(dir, { recursive: true, force: true }));

function found(name: string, entry: Record<string, unknown>): FoundServer {
  return {
    client: 'claude-desktop',
    file: '/elsewhere.json',
    scope: 'user',
    original: name,
    name,
    entry,
    notes: [],
  };
}

describe('foundLaunches', () => {
  it('names the server that runs the same, under any name; a changed value is another launch', async () => {
    const read = await readMcpServers({ configFile: file });
    const runtime = { servers: () => [...read.servers], configFile: read.configFile };
    const same = found('brave-search', {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-brave-search'],
      env: { BRAVE_API_KEY: `\${BRAVE_API_KEY}` },
    });
    const otherValue = found('brave-2', { ...same.entry, env: { BRAVE_API_KEY: 'written-in' } });
    const otherArg = found('brave-3', { ...same.entry, args: ['-y', 'another-package'] });
    const remote = found('remote-again', { type: 'http', url: 'https://mcp.example.com/mcp' });
    const broken = found('broken', { command: 42 });
    const launches = foundLaunches(runtime, [same, otherValue, otherArg, remote, broken]);
    expect(launches.get(same)).toEqual({
      launch: {
        transport: 'stdio',
        command: ['npx', '-y', '@modelcontextprotocol/server-brave-search'],
        envNames: ['BRAVE_API_KEY'],
        downloads: { launcher: 'npx -y', what: '@modelcontextprotocol/server-brave-search' },
      },
      sameAs: 'brave',
    });
    expect(launches.get(otherValue)?.sameAs).toBeUndefined();
    expect(launches.get(otherArg)?.sameAs).toBeUndefined();
    expect(launches.get(otherArg)?.launch.downloads?.what).toBe('another-package');
    expect(launches.get(remote)?.sameAs).toBe('remote');
    // An entry that would not load has no launch to show; the import refuses it on its own.
    expect(launches.has(broken)).toBe(false);
    expect(JSON.stringify([...launches.values()])).not.toContain('written-in');
  });
});
