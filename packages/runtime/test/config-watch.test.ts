// watchMcpConfig on real files and a real runtime: a save of the user's mcp.json, whether an
// editor replaces the file by a rename or writes it in place, is applied once, and the host hears
// what the apply did. Each step waits on the watcher's own callback, never on a timer.
import { rename, writeFile } from 'node:fs/promises';
import { type McpConfigApplied, watchMcpConfig } from '@epoch-agent/runtime';
import { describe, expect, it } from 'vitest';
import { pidServer, useRuntimeHome } from './runtime-helpers.js';

const test = useRuntimeHome();

/** The applies the watcher reports, each awaited in turn. */
function appliedQueue(): {
  onApplied: (applied: McpConfigApplied) => void;
  next(): Promise<McpConfigApplied>;
} {
  const ready: McpConfigApplied[] = [];
  const waiting: ((applied: McpConfigApplied) => void)[] = [];
  return {
    onApplied(applied) {
      const take = waiting.shift();
      if (take === undefined) ready.push(applied);
      else take(applied);
    },
    next() {
      const first = ready.shift();
      return first === undefined
        ? new Promise((resolve) => waiting.push(resolve))
        : Promise.resolve(first);
    },
  };
}

describe('watchMcpConfig', () => {
  it('applies a save by atomic rename and a save in place, and says what each did', async () => {
    await test.home.writeUserConfig({ first: pidServer() });
    const runtime = await test.build({ registry: { schemaCache: null } });
    const applies = appliedQueue();
    const stop = watchMcpConfig(runtime, { onApplied: applies.onApplied });
    try {
      // An editor's atomic save: a temporary file in the same directory renamed over mcp.json.
      const temporary = `${runtime.configFile}.saving`;
      const servers = { first: pidServer(), second: pidServer() };
      await writeFile(temporary, JSON.stringify({ servers }, null, 2));
      await rename(temporary, runtime.configFile);
      let applied = await applies.next();
      expect(applied.added).toEqual(['second']);
      // Written while the runtime runs, by something other than epoch: it waits for approval.
      expect(runtime.mcp.statuses().map(({ name, state }) => `${name} ${state}`)).toEqual([
        'first connected',
        'second needsApproval',
      ]);

      // A save in place, into the same file (its inode kept).
      await writeFile(runtime.configFile, JSON.stringify({ servers: { second: pidServer() } }));
      applied = await applies.next();
      expect(applied.removed).toEqual(['first']);
      expect(runtime.mcp.statuses().map(({ name }) => name)).toEqual(['second']);
    } finally {
      stop();
    }
  });
});
