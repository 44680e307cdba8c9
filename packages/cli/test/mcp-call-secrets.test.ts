// `epoch mcp call` of a tool that says back its environment, in a real `epoch` process with a real
// stdio server: the values its entry gave it (an expanded `${VAR}`, a literal `env` value, an
// env_file value) are printed blanked, as text and as --json, and in the progress line drawn on a
// real pseudo-terminal (util-linux `script`), as the saved copy of a cut result is.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch, startEpoch } from './epoch-process.js';

const ENV_ECHO = fileURLToPath(
  new URL('../../web/test/fixtures/env-echo-server.mjs', import.meta.url),
);
const VAR_TOKEN = 'sk-call-var-token-must-not-print-2x';
const LITERAL = 'sk-call-literal-must-not-print-6t';
const FILE_SECRET = 'sk-call-envfile-must-not-print-1q';

let dir: string;
let config: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'epoch-cli-call-secrets-'));
  env = { EPOCH_HOME: join(dir, 'home'), CALL_SECRETS_TOKEN: VAR_TOKEN, NO_COLOR: '1' };
  await writeFile(join(dir, 'call.env'), `FILE_SECRET=${FILE_SECRET}\n`);
  config = join(dir, 'mcp.json');
  const entry = {
    command: process.execPath,
    args: [ENV_ECHO],
    env: { API_KEY: `Bearer \${CALL_SECRETS_TOKEN}`, SERVICE_TOKEN: LITERAL },
    env_file: 'call.env',
  };
  await writeFile(config, JSON.stringify({ servers: { echo: entry } }, null, 2));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ARGS = '{"names": ["API_KEY", "SERVICE_TOKEN", "FILE_SECRET"]}';
const CALL = ['mcp', 'call', 'echo', 'environment', '--args', ARGS];

// Runs the command on a pseudo-terminal of its own: stdout and stderr are the terminal, which
// `script` copies to its stdout.
const ON_A_TERMINAL = [
  'bash',
  '-c',
  'exec script -qfec "$(printf "%q " "$@")" /dev/null',
  'on-a-terminal',
];

function expectBlanked(...texts: string[]): void {
  const all = texts.join('\n');
  for (const secret of [VAR_TOKEN, LITERAL, FILE_SECRET]) expect(all).not.toContain(secret);
  // The tool did say them back: each in its place, blanked.
  expect(all).toContain('API_KEY=<redacted>');
  expect(all).toContain('SERVICE_TOKEN=<redacted>');
  expect(all).toContain('FILE_SECRET=<redacted>');
}

describe('epoch mcp call of a tool that echoes its environment', () => {
  it('prints the result with the secret values of its entry blanked', async () => {
    const run = await epoch([...CALL, '--config', config], env);
    expect(run.code).toBe(0);
    expectBlanked(run.out, run.err);
    expect(run.out).toContain('for you');
  }, 60_000);

  it('prints it blanked with --json too', async () => {
    const run = await epoch([...CALL, '--json', '--config', config], env);
    expect(run.code).toBe(0);
    expectBlanked(run.out, run.err);
    const result = JSON.parse(run.out) as { structuredContent: { values: object } };
    expect(result.structuredContent.values).toEqual({
      API_KEY: '<redacted>',
      SERVICE_TOKEN: '<redacted>',
      FILE_SECRET: '<redacted>',
    });
  }, 60_000);

  it.skipIf(!existsSync('/usr/bin/script'))(
    'draws its progress line on a terminal blanked',
    async () => {
      const run = await startEpoch(
        [...CALL, '--config', config],
        { ...env, TERM: 'xterm' },
        ON_A_TERMINAL,
      ).done;
      expect(run.code).toBe(0);
      expectBlanked(run.out, run.err);
      // The line cuts the message to fit beside the count: not even the start of a secret shows.
      expect(run.out).not.toContain('sk-call-var');
      // The line the server's report drew.
      expect(run.out).toMatch(/1\/2.*reading API_KEY=<redacted>/);
    },
    60_000,
  );
});
