// `epoch mcp call --arg` and `epoch mcp tools` on a tool whose parameters are `$ref`s into `$defs`
// (the fixture server's `refs` catalog): each value is typed through its refs — a pointer, an
// anchor, a chain, the older `definitions`, escapes — and sent so; a ref that goes round in a
// circle or names nothing stops the call before anything is sent, naming the tool and the ref;
// the ref to another document (a listener on 127.0.0.1) is never fetched, by the call or the list.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtureServerEntry, startTripwire, type Tripwire } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let tripwire: Tripwire;
let file: string;
let record: string;

beforeAll(async () => {
  tripwire = await startTripwire();
  const home = process.env.EPOCH_HOME as string;
  file = join(home, 'mcp.json');
  record = join(home, 'received.jsonl');
  const server = fixtureServerEntry('refs', `--network-ref=${tripwire.origin}/airline.json`);
  await writeFile(
    file,
    JSON.stringify({ servers: { trips: { ...server, env: { RECORD_FILE: record } } } }),
  );
});

afterAll(async () => {
  // Last, after every command has ended: nothing went to the other document.
  expect(tripwire.hits()).toEqual([]);
  await tripwire.close();
});

const call = (...args: string[]) =>
  runCli(['mcp', 'call', '--config', file, 'trips', 'book_trip', ...args]);

/** The tools/call requests the server received so far. */
async function callsReceived(): Promise<number> {
  const lines = (await readFile(record, 'utf8')).split('\n').filter((line) => line !== '');
  return lines.filter((line) => JSON.parse(line).method === 'tools/call').length;
}

describe('epoch mcp call types --arg values through $ref', () => {
  it('a pointer, an anchor, a chain, definitions and an escaped pointer type each value; a ref to another document reads it as untyped', async () => {
    const run = await call(
      ...['--arg', 'from=1984', '--arg', 'to=true', '--arg', 'nights=3', '--arg', 'class=2'],
      ...['--arg', 'party={"adults": 2}', '--arg', 'insured=true', '--arg', 'airline=42'],
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    // The fixture answers with the arguments it was sent. Text that reads as JSON stays text
    // where the refs lead to a string: a guess without them would have sent 1984, true and 2.
    expect(JSON.parse(run.out)).toStrictEqual({
      from: '1984',
      to: 'true',
      nights: 3,
      class: '2',
      party: { adults: 2 },
      insured: true,
      // No type to read it by (the schema it names is not fetched): JSON where it parses.
      airline: 42,
    });
  });

  it('a value that does not fit the type its refs lead to is refused before anything is sent', async () => {
    const before = await callsReceived();
    for (const [arg, says] of [
      ['nights=three', '--arg nights must be a number'],
      ['insured=yes', '--arg insured must be true or false'],
      ['party=two', '--arg party must be JSON (an object)'],
    ] as const) {
      const run = await call('--arg', 'from=Paris', '--arg', 'to=Rome', '--arg', arg);
      expect(run.code).toBe(2);
      expect(run.err).toContain(says);
    }
    expect(await callsReceived()).toBe(before);
  });

  it('a cycle or a missing target stops the call, naming the tool and the refs', async () => {
    const before = await callsReceived();
    const circular = await call('--arg', 'from=Paris', '--arg', 'to=Rome', '--arg', 'circular=x');
    expect(circular.code).toBe(2);
    expect(circular.err).toContain(
      'tool "mcp__trips__book_trip": --arg circular cannot be read as its input schema says: its $refs go round in a circle (#/$defs/loop → #/$defs/round → #/$defs/loop)',
    );
    const lost = await call('--arg', 'from=Paris', '--arg', 'to=Rome', '--arg', 'lost=x');
    expect(lost.code).toBe(2);
    expect(lost.err).toContain(
      `tool "mcp__trips__book_trip": --arg lost cannot be read as its input schema says: $ref "#/$defs/nowhere" names nothing in the tool's input schema. Give it in --args '{"lost": ...}' instead`,
    );
    // --args is the way round it: taken as given.
    const given = await call('--args', '{"from": "Paris", "to": "Rome", "lost": "x"}');
    expect(given.code).toBe(0);
    expect(JSON.parse(given.out)).toStrictEqual({ from: 'Paris', to: 'Rome', lost: 'x' });
    expect(await callsReceived()).toBe(before + 1);
  });

  it('missing required parameters are named with the types their refs lead to', async () => {
    const run = await call('--arg', 'note=x');
    expect(run.code).toBe(2);
    expect(run.err).toContain('tool "mcp__trips__book_trip" needs from (string), to (string)');
  });
});

it("epoch mcp tools shows each $ref parameter's type and description, and says which refs lead nowhere", async () => {
  const run = await runCli(['mcp', 'tools', '--config', file, 'trips'], { columns: 200 });
  expect(run.code).toBe(0);
  const lines = run.out.split('\n').map((line) => line.trim());
  expect(lines).toEqual(
    expect.arrayContaining([
      'from: string (required) — A city, as the ticket names it',
      'to: string (required) — Where to',
      'nights: integer — Nights away',
      'class: "1" | "2"',
      'party: object — Who travels',
      'insured: boolean — Travel insurance',
      `airline: any — $ref "${tripwire.origin}/airline.json" is in another document, which is never fetched`,
      'circular: any — its $refs go round in a circle (#/$defs/loop → #/$defs/round → #/$defs/loop)',
      `lost: any — $ref "#/$defs/nowhere" names nothing in the tool's input schema`,
      'note: string',
    ]),
  );
});
