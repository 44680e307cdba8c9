// examples/host runs as a host would: a child process of its own, on the built packages, with a
// scripted model. Its output shows each step, and once it has exited no server it started is left.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const HOST = fileURLToPath(new URL('../../../examples/host/host.mjs', import.meta.url));

/** Pids of the processes whose environment holds `entry` (each server the example started has it). */
async function processesWith(entry: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const environ = await readFile(`/proc/${name}/environ`, 'utf8').catch(() => '');
    if (environ.split('\0').includes(entry)) pids.push(Number(name));
  }
  return pids;
}

it('the example host assembles, runs a scripted tool loop with a cancel and progress, applies a config edit and closes with nothing left', async () => {
  const run = `example-host-test-${process.pid}-${Date.now()}`;
  const { stdout } = await promisify(execFile)(process.execPath, [HOST], {
    env: { ...process.env, EPOCH_EXAMPLE_RUN: run },
    timeout: 120_000,
  });
  const lines = stdout.trim().split('\n');
  expect(lines).toContain('server acme__everything: connected');
  expect(lines).toContain('server fixture: connected');
  expect(lines).toContain('mcp__acme__everything__get-sum: The sum of 19 and 23 is 42.');
  expect(lines).toContain('mcp__fixture__echo: hello');
  expect(stdout).toMatch(/mcp__fixture__slow \(error\): .*stopped by the user/);
  // Its two steps reported while it ran, before its result.
  expect(stdout).toMatch(
    / {2}progress 1\/2[^\n]*\n {2}progress 2\/2[^\n]*\n[^\n]*trigger-long-running-operation: Long running operation completed/,
  );
  expect(lines).toContain(`approval asked: second (new), runs ${process.execPath}`);
  expect(lines).toContain('config applied: added servers second');
  expect(lines).toContain('tools added: mcp__second__whoami, mcp__second__lookup');
  expect(lines.at(-1)).toBe('closed');
  expect(await processesWith(`EPOCH_EXAMPLE_RUN=${run}`)).toEqual([]);
}, 180_000);
