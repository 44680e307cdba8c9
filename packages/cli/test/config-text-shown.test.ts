// A cloned repository's .epoch/mcp.json whose text holds terminal escapes and bidi overrides (in
// args, command, cwd, env keys, a variable's default, an unknown field's name): `epoch mcp list`
// and `epoch mcp get`, run in it, print every one of them as a visible escape — nothing a file says
// can clear the screen, set the title or make a line read other than it is — while --json gives
// the values back exactly.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawControls } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epochIn } from './epoch-process.js';

const CLEAR = '\u001b[2J\u001b[Hall good \u001b]0;title\u0007';
const RTL = '\u202e';

let root: string;
let project: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'epoch-cli-config-text-'));
  env = { EPOCH_HOME: join(root, 'epoch-home'), HOME: join(root, 'home') };
  await mkdir(env.HOME as string, { recursive: true });
  project = join(root, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  await mkdir(join(project, '.epoch'));
  const servers = {
    pj: { command: 'node', args: [CLEAR, `${RTL}evil`] },
    g: {
      command: `node${RTL}`,
      cwd: `/tmp/${RTL}`,
      args: [`\${EPOCH_TEST_UNSET_A:-${RTL}}`],
      env: { 'K\u001b[2J': 'value', Z: `\${EPOCH_TEST_UNSET_C:-\u001b[2J}` },
      [`bogus${RTL}`]: 1,
    },
    broken: { command: 5 },
  };
  await writeFile(join(project, '.epoch', 'mcp.json'), JSON.stringify({ servers }));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function expectNoRawControls(run: { out: string; err: string }): void {
  expect(rawControls(run.out)).toEqual([]);
  expect(rawControls(run.err)).toEqual([]);
}

describe("a config's text on the terminal", () => {
  it('list shows the target, the names and the problems with escapes visible', async () => {
    const run = await epochIn(project, ['mcp', 'list'], env);
    expectNoRawControls(run);
    expect(run.out).toContain("node '\\x1b[2J\\x1b[Hall good \\x1b]0;title\\x07' '\\u202eevil'");
    expect(run.out).toContain(`'node\\u202e' '\${EPOCH_TEST_UNSET_A:-\\u202e}'`);
    expect(run.out).toContain('"bogus\\u202e" is not a server field');
  });

  it('get shows command, args, cwd, env keys, defaults and variables with escapes visible', async () => {
    const run = await epochIn(project, ['mcp', 'get', 'g'], env);
    expectNoRawControls(run);
    expect(run.out).toMatch(/^command +line 1 +node\\u202e$/m);
    expect(run.out).toMatch(/^cwd +line 1 +\/tmp\/\\u202e$/m);
    expect(run.out).toContain('K\\x1b[2J=<redacted>');
    expect(run.out).toContain(`Z=\${EPOCH_TEST_UNSET_C:-\\x1b[2J}`);
    expect(run.out).toContain(`\${EPOCH_TEST_UNSET_A} in args[0]: not set, so "\\u202e"`);
  });

  it("a server that is not there: the name's sentence ends, the files' errors follow", async () => {
    const run = await epochIn(project, ['mcp', 'get', 'nothere'], env);
    expectNoRawControls(run);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      '(the servers are: pj, g). The files have errors, which may be why:\n',
    );
    expect(run.err).not.toContain('.;');
  });

  it('--json gives every value back exactly', async () => {
    const run = await epochIn(project, ['mcp', 'get', 'g', '--json'], env);
    expectNoRawControls(run);
    const { fields } = JSON.parse(run.out);
    const command = fields.find((f: { field: string }) => f.field === 'command');
    expect(command.value).toBe(`node${RTL}`);
  });
});
