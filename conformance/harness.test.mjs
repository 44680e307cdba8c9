// The conformance harness itself, on real runs of the official runner: it runs on Node 22 while
// the driver (the plugin) runs on the machine's Node, its scenario servers listen on 127.0.0.1
// only, a passing scenario counts as passed, and the elicitation scenario counts as an expected
// failure only while it fails for the reason given.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { listeningAddresses } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';
import { LOOPBACK_PRELOAD, RUNNER, RUNNER_NODE } from './paths.mjs';
import { formatSummary, verdict } from './report.mjs';
import { listClientScenarios, runScenario } from './scenario.mjs';

/** A scenario starts Node 22, the runner, its servers and the driver: room for a loaded box. */
const SCENARIO_TEST_TIMEOUT_MS = 120_000;
const ELICITATION = 'elicitation-sep1034-client-defaults';

describe('conformance harness', () => {
  it('runs the runner on Node 22, which lists 26 client scenarios', async () => {
    expect(execFileSync(RUNNER_NODE, ['--version'], { encoding: 'utf8' })).toMatch(/^v22\./);
    const scenarios = await listClientScenarios();
    expect(scenarios).toHaveLength(26);
    expect(scenarios).toEqual(expect.arrayContaining(['initialize', 'sse-retry', ELICITATION]));
  });

  it('a scenario server of the runner listens on 127.0.0.1 only', async () => {
    // Without --command the runner starts the scenario's server, prints its URL and waits.
    const runner = spawn(
      RUNNER_NODE,
      ['--import', LOOPBACK_PRELOAD, RUNNER, 'client', '--scenario', 'tools_call'],
      { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const url = await serverUrl(runner.stdout);
      expect(url.hostname).toBe('localhost');
      expect(listeningAddresses(Number(url.port))).toEqual(['127.0.0.1']);
    } finally {
      process.kill(-runner.pid, 'SIGKILL');
      await once(runner, 'exit');
    }
  });

  it(
    'initialize passes, with the driver on the machine Node',
    async () => {
      const run = await runScenario('initialize');
      expect(run.checks).toContainEqual(
        expect.objectContaining({ id: 'mcp-client-initialization', status: 'SUCCESS' }),
      );
      expect(run.driverOutput).toContain(`the driver on Node ${process.version}`);
      expect(run.passed).toBe(true);
      expect(verdict(run).outcome).toBe('passed');
    },
    SCENARIO_TEST_TIMEOUT_MS,
  );

  it(
    'elicitation-sep1034-client-defaults is an expected failure only while the client neither declares nor answers elicitation',
    async () => {
      const run = await runScenario(ELICITATION);
      expect(run.passed).toBe(false);
      const expected = verdict(run);
      expect(expected).toMatchObject({
        outcome: 'expected failure',
        detail: "the plugin does not implement elicitation (seed: won't do)",
      });
      expect(formatSummary([expected]).split('\n')).toEqual([
        `1 expected failure (see the table): ${ELICITATION}`,
        'conformance: 0 passed, 0 failed',
      ]);

      // The same run, had the scenario passed: the expectation is stale, and that is a failure.
      expect(verdict({ ...run, passed: true })).toMatchObject({ outcome: 'failed' });
      // The same run, had the client declared the capability it does not implement.
      const declared = run.checks.map((check) =>
        check.details?.mcpMethod === 'initialize' && check.id === 'incoming-request'
          ? withElicitationDeclared(check)
          : check,
      );
      expect(verdict({ ...run, checks: declared })).toMatchObject({ outcome: 'failed' });
      // The same run, had the driver never called the tool.
      const notAsked = run.checks.filter(({ id }) => id !== 'client-elicitation-sep1034-general');
      expect(verdict({ ...run, checks: notAsked })).toMatchObject({ outcome: 'failed' });
    },
    SCENARIO_TEST_TIMEOUT_MS,
  );
});

async function serverUrl(stdout) {
  for await (const line of createInterface({ input: stdout })) {
    const match = /^Server URL: (\S+)/.exec(line);
    if (match?.[1] !== undefined) return new URL(match[1]);
  }
  throw new Error('the runner ended without printing its server URL');
}

function withElicitationDeclared(check) {
  const { body } = check.details;
  const params = { ...body.params, capabilities: { ...body.params.capabilities, elicitation: {} } };
  return { ...check, details: { ...check.details, body: { ...body, params } } };
}
