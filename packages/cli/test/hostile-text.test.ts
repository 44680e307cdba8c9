// A server that writes terminal escapes into every text it controls (hostile-text-server.mjs):
// the built `epoch` prints none of them raw — clear screen, window title, OSC 52 clipboard, C1 CSI,
// bidi override are all shown as visible escapes — while --json gives each text back exactly. A
// tool's title, description and parameter descriptions are shown as the model is given them: the
// escapes and the bidi characters are not in them at all.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rawControls } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

const SERVER = fileURLToPath(new URL('./fixtures/hostile-text-server.mjs', import.meta.url));
const HOSTILE_FILE = new URL('./fixtures/hostile-text.json', import.meta.url);
// How HOSTILE reads once escaped.
const SHOWN =
  '\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b31m\\u202eevil\\u2066 Logged in';
// What the model is given of HOSTILE in a tool's words: every escape sequence and bidi character gone.
const CLEAN = 'evil Logged in';

let dir: string;
let file: string;
let hostile: string;

beforeAll(async () => {
  hostile = JSON.parse(await readFile(HOSTILE_FILE, 'utf8')).text;
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-hostile-'));
  file = join(dir, `mcp-${randomUUID()}.json`);
  const servers = {
    hostile: { command: process.execPath, args: [SERVER], connect_timeout: 20 },
    dying: { command: process.execPath, args: [SERVER, '--die'], connect_timeout: 20 },
  };
  await writeFile(file, JSON.stringify({ servers }, null, 2));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) =>
  epoch(['mcp', ...argv, '--config', file], { EPOCH_HOME: join(dir, 'home') });

function expectNoRawControls(run: { out: string; err: string }): void {
  expect(rawControls(run.out)).toEqual([]);
  expect(rawControls(run.err)).toEqual([]);
}

describe('server text on the terminal', () => {
  it('status shows tool descriptions as the model gets them, the stderr tail with escapes visible', async () => {
    const result = await run('status');
    expectNoRawControls(result);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/^dying\s+user\s+stdio\s+failed/m);
    expect(result.out).toContain(`    starting ${SHOWN}`);
    expect(result.out).toMatch(/^ {2}mcp__hostile__say\S+ +Says evil Logged in$/m);
  });

  it('status --json keeps every text exactly: serverInfo, stderr tail', async () => {
    const result = await run('status', '--json');
    expectNoRawControls(result);
    const { servers } = JSON.parse(result.out);
    const byName = Object.fromEntries(servers.map((s: { name: string }) => [s.name, s]));
    expect(byName.hostile.serverInfo).toEqual({ name: `hostile ${hostile}`, version: hostile });
    expect(byName.dying.stderrTail).toContain(`starting ${hostile}`);
  });

  it('tools shows names with escapes visible, titles, descriptions and parameters as the model gets them', async () => {
    const human = await run('tools', 'hostile');
    expectNoRawControls(human);
    expect(human.out).toContain(
      `  Say ${CLEAN}\n      Says ${CLEAN}\n      text: string — what ${CLEAN}`,
    );
    // A line feed in a one-line field cannot start a line of its own.
    expect(human.out).not.toMatch(/^second line/m);

    const json = await run('tools', 'hostile', '--json');
    expectNoRawControls(json);
    const [server] = JSON.parse(json.out).servers;
    const say = server.tools.find((t: { title?: string }) => t.title === `Say ${CLEAN}`);
    expect(say.description).toBe(`Says ${CLEAN}\nsecond line`);
  });

  it("call: the tool list in an unknown tool's error, a tool's error and its result are escaped", async () => {
    const unknown = await run('call', 'hostile', 'nope');
    expectNoRawControls(unknown);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(`say${SHOWN}`);

    const boom = await run('call', 'hostile', 'boom');
    expectNoRawControls(boom);
    expect(boom.code).toBe(1);
    expect(boom.err).toContain(SHOWN);

    const boomJson = await run('call', 'hostile', 'boom', '--json');
    expectNoRawControls(boomJson);
    expect(JSON.parse(boomJson.err).error.message).toContain(hostile);

    const resources = await run('call', 'hostile', 'list_resources');
    expectNoRawControls(resources);
    // The list is JSON the plugin wrote: C0 is JSON-escaped there, the C1 CSI is shown.
    expect(resources.out).toContain('"name":"notes \\u001b[2J');
    expect(resources.out).toContain('\\x9b31m\\u202eevil');

    const names = JSON.parse((await run('tools', 'hostile', '--json')).out).servers[0].tools;
    const say = names.find((t: { title?: string }) => t.title === `Say ${CLEAN}`).name;
    const said = await run('call', 'hostile', say);
    expectNoRawControls(said);
    expect(said.out).toBe(`said ${SHOWN}\n`);
    const saidJson = await run('call', 'hostile', say, '--json');
    expectNoRawControls(saidJson);
    expect(JSON.parse(saidJson.out).content[0].text).toBe(`said ${hostile}`);
  });
});
