// Which card each diagnostic of loading the servers goes on: matched by file and the entry its path
// names, through plugins' and the host's names, the user's overrides, and entries not loaded.
import type { ConfiguredServer, RuntimeDiagnostic } from '@epoch-agent/runtime';
import { describe, expect, it } from 'vitest';
import { placeDiagnostics } from '../src/diagnostic-places.js';

const USER = '/home/u/.epoch/mcp.json';
const PLUGIN = '/home/u/.epoch/plugins/weather/mcp.json';
const HOST = 'hostCapabilities.mcpServers (namespace "acme")';

const server = (name: string, origin: ConfiguredServer['origin']) =>
  ({ config: { name }, origin }) as unknown as ConfiguredServer;
const SERVERS = [
  server('acme__search', { source: 'host', namespace: 'acme' }),
  server('weather__forecast', { source: 'plugin', plugin: 'weather', file: PLUGIN }),
  server('fs', { source: 'user', file: USER }),
  server('my.tools', { source: 'user', file: USER }),
];

function d(
  source: RuntimeDiagnostic['source'],
  file: string,
  path: string,
  code = 'unknown_field',
  severity: RuntimeDiagnostic['severity'] = 'warning',
  line = 3,
): RuntimeDiagnostic {
  return { source, file, path, code, severity, line, column: 5, message: `${code} at ${path}` };
}

describe('placeDiagnostics', () => {
  it('puts a diagnostic on the server whose entry it is about, in whichever source', () => {
    const own = d('user', USER, 'servers.fs.conect_timeout');
    const quoted = d('user', USER, 'servers["my.tools"].source');
    const plugin = d('plugin', PLUGIN, 'servers.forecast.bogus');
    const host = d('host', HOST, 'servers.search.idle_timeout_seconds', 'out_of_range', 'error');
    const override = d('user', USER, 'overrides.weather__forecast.enabeld');
    const places = placeDiagnostics(SERVERS, [own, quoted, plugin, host, override], USER);
    expect(Object.fromEntries(places.byServer)).toEqual({
      fs: [own],
      'my.tools': [quoted],
      weather__forecast: [plugin, override],
      acme__search: [host],
    });
    expect(places.fileLevel).toEqual([]);
    expect(places.unreadable).toEqual([]);
  });

  it('an entry with an error and no server is a card of its own, with every problem about it', () => {
    const unknown = d('user', USER, 'servers.typo.comand', 'unknown_field', 'warning', 5);
    const missing = d('user', USER, 'servers.typo', 'missing_field', 'error', 4);
    // A user entry named like the plugin's server: not the plugin's problem, the user entry's.
    const taken = d('user', USER, 'servers.weather__forecast', 'server_name_taken', 'error', 9);
    const places = placeDiagnostics(SERVERS, [unknown, missing, taken], USER);
    expect(places.byServer.size).toBe(0);
    expect(places.notLoaded.user).toEqual([
      {
        name: 'typo',
        source: 'user',
        at: { file: USER, line: 4, column: 5 },
        problems: [unknown, missing],
      },
      {
        name: 'weather__forecast',
        source: 'user',
        at: { file: USER, line: 9, column: 5 },
        problems: [taken],
      },
    ]);
  });

  it('a file not read goes to the top; what concerns no one server to the file-level list', () => {
    const syntax = d('user', USER, 'servers.fs', 'syntax_error', 'error');
    const topLevel = d('user', USER, 'extra');
    const override = d('user', USER, 'overrides.nobody', 'unknown_override');
    const places = placeDiagnostics(SERVERS, [syntax, topLevel, override], USER);
    expect(places.unreadable).toEqual([syntax]);
    expect(places.fileLevel).toEqual([topLevel, override]);
    expect(places.byServer.size).toBe(0);
  });
});
