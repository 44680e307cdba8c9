// examples/host runs as a host would: a child process of its own, on the built packages, with a
// scripted model and a scripted person (the answers to a server's question, written to its stdin
// as a person would type them). Its output shows each step, and once it has exited no server it
// started is left.
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

// The reference server's form, field by field, as the person answers it: Enter takes a default or
// leaves an optional field out, a choice is its number, and a value out of range is asked again.
const ANSWERS = [
  'Ada Lovelace', // name
  'y', // check
  '', // firstLine: its default
  'ada@example.org', // email
  '', // homepage
  '', // birthdate
  '500', // integer: more than its maximum, so asked again
  '7',
  '', // number: its default
  '3', // untitledSingleSelectEnum: Joey
  '', // the last four: their defaults
  '',
  '',
  '',
  'y', // send
];

it('the example host assembles, runs a scripted tool loop with a cancel, progress and a question to the person, applies a config edit and closes with nothing left', async () => {
  const run = `example-host-test-${process.pid}-${Date.now()}`;
  const running = promisify(execFile)(process.execPath, [HOST], {
    env: { ...process.env, EPOCH_EXAMPLE_RUN: run },
    timeout: 120_000,
  });
  running.child.stdin?.end(`${ANSWERS.join('\n')}\n`);
  const { stdout, stderr } = await running;
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
  // The question reached the person, naming the server, its source and the call that asked.
  expect(lines).toContain(
    'question from acme__everything (host server) during tool trigger-elicitation-request (call toolu_5)',
  );
  expect(stderr).toContain('Integer must be at most 100');
  // The server got what the person typed, and the defaults of what they left empty.
  expect(stdout).toMatch(
    /trigger-elicitation-request: ✅ User provided the requested information! User inputs: - Name: Ada Lovelace - Agreed to terms: true - Email: ada@example\.org - Favorite Integer: 7 - Favorite Number: 3\.14/,
  );
  expect(stdout).toContain('"untitledSingleSelectEnum": "Joey"');
  expect(lines).toContain(`approval asked: second (new), runs ${process.execPath}`);
  expect(lines).toContain('config applied: added servers second');
  expect(lines).toContain('tools added: mcp__second__whoami, mcp__second__lookup');
  expect(lines.at(-1)).toBe('closed');
  expect(await processesWith(`EPOCH_EXAMPLE_RUN=${run}`)).toEqual([]);
}, 180_000);
