// `${VAR}` and `env_file` through the real `epoch` command, in its own process with its own
// environment: `list` and `get` without the variables (the written form, set / not set, never a
// value), `status` starting the servers with them (the one whose variable is unset fails naming it,
// the others connect), and no expanded or env_file value in anything it printed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureServerEntry } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

const TOKEN = 'sk-var-token-must-not-print-3q';
const FILE_SECRET = 'sk-envfile-must-not-print-8w';

let dir: string;
let config: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-vars-'));
  env = { EPOCH_HOME: join(dir, 'home') };
  await writeFile(join(dir, 'crash.env'), `# secrets\r\nFILE_SECRET=${FILE_SECRET}\r\n`);
  const ok = fixtureServerEntry('cli');
  // Prints what it was given to stderr and dies: its status shows that stderr, blanked.
  const crashing = {
    command: process.execPath,
    args: [
      '-e',
      'console.error("cannot start: " + process.argv[1] + " " + process.env.FILE_SECRET); process.exit(3)',
      '--',
      `--token=\${VARS_CLI_TOKEN}`,
    ],
    env_file: 'crash.env',
  };
  config = join(dir, 'mcp.json');
  await writeFile(
    config,
    [
      '{',
      '  // every secret is in the environment or in crash.env',
      '  "servers": {',
      `    "ok": ${JSON.stringify({ ...ok, env: { LEVEL: `\${VARS_CLI_LEVEL:-info}` } })},`,
      `    "crashing": ${JSON.stringify(crashing)},`,
      `    "unset": ${JSON.stringify({ ...ok, env: { API_KEY: `\${VARS_CLI_NEVER_SET}` } })}`,
      '  }',
      '}',
      '',
    ].join('\r\n'),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const withToken = () => ({ ...env, VARS_CLI_TOKEN: TOKEN });

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(FILE_SECRET);
  }
}

describe(`epoch with \${VAR} and env_file`, () => {
  it('get shows the written form and whether each variable is set, never its value', async () => {
    const set = await epoch(['mcp', 'get', 'crashing', '--config', config], withToken());
    expect(set.code).toBe(0);
    expect(set.out).toContain(`--token=\${VARS_CLI_TOKEN}`);
    expect(set.out).toContain(`\${VARS_CLI_TOKEN} in args[3]: set`);
    expect(set.out).toMatch(/env_file +line \d+ +.*crash\.env/);

    const unset = await epoch(['mcp', 'get', 'unset', '--config', config, '--json'], env);
    expect(unset.code).toBe(0);
    const fields = (
      JSON.parse(unset.out) as { fields: { field: string; value: unknown; variables?: unknown }[] }
    ).fields;
    const envField = fields.find((f) => f.field === 'env');
    expect(envField?.value).toEqual({ API_KEY: `\${VARS_CLI_NEVER_SET}` });
    expect(envField?.variables).toEqual([
      { name: 'VARS_CLI_NEVER_SET', in: 'env.API_KEY', set: false },
    ]);
    // The file's problem is said with its line, and the file is read all the same.
    const list = await epoch(['mcp', 'list', '--config', config], env);
    expect(list.code).toBe(0);
    expect(`${list.out}${list.err}`).toMatch(/mcp\.json:6:\d+.*VARS_CLI_NEVER_SET/);
    expect(list.out).toContain('crashing');

    const defaulted = await epoch(['mcp', 'get', 'ok', '--config', config], env);
    expect(defaulted.out).toContain(
      `\${VARS_CLI_LEVEL} in env.LEVEL: not set, so "info" (its default)`,
    );
    expectNoSecret(set.out, set.err, unset.out, unset.err, defaulted.out, defaulted.err);
  }, 60_000);

  it('status: the unset variable fails its server by name, the others start, nothing prints a secret', async () => {
    const run = await epoch(['mcp', 'status', '--json', '--config', config], withToken());
    const statuses = (
      JSON.parse(run.out) as {
        servers: {
          name: string;
          state: string;
          error?: { code: string; message: string };
          stderrTail?: string;
        }[];
      }
    ).servers;
    const byName = new Map(statuses.map((s) => [s.name, s]));
    expect(byName.get('ok')?.state).toBe('connected');
    expect(byName.get('unset')).toMatchObject({ state: 'failed', error: { code: 'env_unset' } });
    expect(byName.get('unset')?.error?.message).toContain('VARS_CLI_NEVER_SET is not set');
    // The crashing server was started with both secrets and printed them: blanked.
    const crashing = byName.get('crashing');
    expect(crashing?.state).toBe('failed');
    expect(crashing?.stderrTail).toContain('cannot start: --token=<redacted> <redacted>');
    expect(run.code).toBe(1);
    expectNoSecret(run.out, run.err);

    const text = await epoch(['mcp', 'status', '--config', config], withToken());
    expect(text.out).toContain('VARS_CLI_NEVER_SET');
    expectNoSecret(text.out, text.err);
  }, 120_000);
});

describe('add of an entry whose variable this shell has not set', () => {
  it('writes it (the variable is for where the server starts) and exits 1 naming the variable', async () => {
    const file = join(dir, 'add.json');
    const entry = { ...fixtureServerEntry('cli'), env: { API_KEY: `\${VARS_CLI_ADD_UNSET}` } };
    const run = await epoch(
      ['mcp', 'add-json', 'later', JSON.stringify(entry), '--config', file],
      env,
    );
    expect(run.out).toContain('Added later');
    expect(`${run.out}${run.err}`).toContain('VARS_CLI_ADD_UNSET');
    expect(run.code).toBe(1);
    const set = await epoch(['mcp', 'status', '--config', file], {
      ...env,
      VARS_CLI_ADD_UNSET: TOKEN,
    });
    expect(set.code).toBe(0);
    expectNoSecret(run.out, run.err, set.out, set.err);
  });
});
