// `epoch mcp status` with more stdio servers than its open-files limit holds, as on macOS, whose
// default `ulimit -n` is 256: the command runs in a shell that lowered the limit, the way a person
// meets it. Every server ends connected or failed with a message that says what to change, the
// command ends without a stack trace, and no server process outlives it.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EpochRun, epoch } from './epoch-process.js';
import { processesWith } from './processes.js';

const TINY_SERVER = fileURLToPath(new URL('./fixtures/tiny-server.sh', import.meta.url));
const SERVERS = 80;
const LIMIT = 256;
// On each server's command line, so what is left of them can be found afterwards.
const MARKER = `epoch-descriptor-test-${randomUUID()}`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-descriptors-'));
});

afterAll(async () => {
  for (const pid of await processesWith(MARKER)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  await rm(dir, { recursive: true, force: true });
});

interface StatusJson {
  readonly servers: ReadonlyArray<{
    readonly name: string;
    readonly state: string;
    error?: { code: string; message: string };
  }>;
}

/** `epoch mcp status --json` under `ulimit -n <limit>`, set by the shell that execs node. */
function statusUnderLimit(file: string, limit: number): Promise<EpochRun> {
  return epoch(['mcp', 'status', '--json', '--config', file], { EPOCH_HOME: join(dir, 'home') }, [
    'sh',
    '-c',
    `ulimit -n ${limit}; exec "$0" "$@"`,
  ]);
}

describe('epoch mcp status within the open-files limit', () => {
  it(`${SERVERS} stdio servers under ulimit -n ${LIMIT}: each connected or failed with what to change, none left running`, async () => {
    const servers = Object.fromEntries(
      Array.from({ length: SERVERS }, (_, i) => [
        `s${i}`,
        { command: 'sh', args: [TINY_SERVER, MARKER] },
      ]),
    );
    const file = join(dir, 'mcp.json');
    await writeFile(file, JSON.stringify({ servers }));

    const { code, out, err } = await statusUnderLimit(file, LIMIT);

    expect(err).not.toMatch(/\n\s+at /);
    const { servers: statuses } = JSON.parse(out) as StatusJson;
    expect(statuses).toHaveLength(SERVERS);
    const connected = statuses.filter(({ state }) => state === 'connected');
    const failed = statuses.filter(({ state }) => state === 'failed');
    expect(connected.length + failed.length).toBe(SERVERS);
    // The limit holds some of them: the test is about the ones it cannot.
    expect(connected.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    for (const { name, error } of failed) {
      expect(error?.code).toBe('too_many_open_files');
      expect(error?.message).toContain(`MCP server "${name}"`);
      expect(error?.message).toMatch(/too many open files/i);
      expect(error?.message).toContain('ulimit -n');
      expect(error?.message).toContain('fewer servers');
    }
    expect(code).not.toBe(0);
    expect(await processesWith(MARKER)).toEqual([]);
  }, 60_000);
});
