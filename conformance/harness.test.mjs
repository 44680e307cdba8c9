// The conformance harness itself, on real runs of the official runners: they run on Node 22 while
// the driver (the plugin) runs on the machine's Node, each suite lists the scenarios it should,
// their scenario servers listen on 127.0.0.1 only, a passing scenario counts as passed (a 2025 and
// a 2026-07-28 one; the elicitation one of both 2025 suites: the driver's person presses OK on the
// pre-filled form), and a scenario listed as an expected failure counts as one only while it fails
// for the reason given.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { listeningAddresses } from '@epoch-agent/testkit';
import { describe, expect, it } from 'vitest';
import { LOOPBACK_PRELOAD, RUNNER_NODE } from './paths.mjs';
import { formatSummary, verdict } from './report.mjs';
import { listClientScenarios, runScenario } from './scenario.mjs';
import { ALPHA_2025, ALPHA_2026, STABLE, SUITES } from './suites.mjs';

/** A scenario starts Node 22, the runner, its servers and the driver: room for a loaded box. */
const SCENARIO_TEST_TIMEOUT_MS = 120_000;
const ELICITATION = 'elicitation-sep1034-client-defaults';

describe('conformance harness', () => {
  it('runs the runners on Node 22, and each suite lists its client scenarios', async () => {
    expect(execFileSync(RUNNER_NODE, ['--version'], { encoding: 'utf8' })).toMatch(/^v22\./);
    expect(SUITES.map(({ name }) => name)).toEqual(['0.1.16', '2025-11-25', '2026-07-28']);
    const stable = await listClientScenarios(STABLE);
    expect(stable).toHaveLength(26);
    expect(stable).toEqual(expect.arrayContaining(['initialize', 'sse-retry', ELICITATION]));
    const at2025 = await listClientScenarios(ALPHA_2025);
    expect(at2025).toHaveLength(19);
    expect(at2025).toEqual(
      expect.arrayContaining(['initialize', ELICITATION, 'json-schema-2020-12-preservation']),
    );
    const at2026 = await listClientScenarios(ALPHA_2026);
    expect(at2026).toHaveLength(33);
    expect(at2026).toEqual(
      expect.arrayContaining([
        'sep-2322-client-request-state',
        'http-custom-headers',
        'auth/iss-supported',
      ]),
    );
    // Scenarios of the 2025 era alone are not in the 2026-07-28 suite.
    expect(at2026).not.toContain('initialize');
  });

  it.each([
    ['the stable runner', STABLE.runner],
    ['the runner of the 2026-07-28 build', ALPHA_2026.runner],
  ])('a scenario server of %s listens on 127.0.0.1 only', async (_, runnerFile) => {
    // Without --command the runner starts the scenario's server, prints its URL and waits.
    const runner = spawn(
      RUNNER_NODE,
      ['--import', LOOPBACK_PRELOAD, runnerFile, 'client', '--scenario', 'tools_call'],
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
    '0.1.16 initialize passes, with the driver on the machine Node',
    async () => {
      const run = await runScenario(STABLE, 'initialize');
      expect(run.scenario).toBe('0.1.16 initialize');
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
    '2026-07-28 sep-2322-client-request-state passes: the server asked for input, and the 2026 era was spoken',
    async () => {
      const run = await runScenario(ALPHA_2026, 'sep-2322-client-request-state');
      expect(run.scenario).toBe('2026-07-28 sep-2322-client-request-state');
      const passed = run.checks.filter(({ status }) => status === 'SUCCESS').map(({ id }) => id);
      expect(passed).toEqual(
        expect.arrayContaining([
          'sep-2322-client-request-state-echoed',
          'sep-2322-client-jsonrpc-id-different',
          'sep-2322-client-no-state-omitted',
        ]),
      );
      expect(run.driverOutput).toContain(`the driver on Node ${process.version}`);
      expect(run.passed).toBe(true);
      expect(verdict(run).outcome).toBe('passed');
    },
    SCENARIO_TEST_TIMEOUT_MS,
  );

  it.each([STABLE, ALPHA_2025])(
    '$name elicitation-sep1034-client-defaults passes: elicitation declared, the server got every default',
    async (suite) => {
      const run = await runScenario(suite, ELICITATION);
      expect(initializeParams(run.checks)?.capabilities?.elicitation).toEqual({
        form: {},
        url: {},
      });
      const defaults = run.checks.filter(({ id }) =>
        /^client-elicitation-sep1034-\w+-default$/.test(id),
      );
      expect(defaults.map(({ status }) => status)).toEqual(Array(5).fill('SUCCESS'));
      expect(run.driverOutput).toContain(
        'asks (form, during tool "test_client_elicitation_defaults")',
      );
      expect(verdict(run).outcome).toBe('passed');

      // Listed as an expected failure, it would count as one only while it fails for its reason.
      const reason = 'a reason the checks show';
      const listed = (confirm) => new Map([[run.scenario, { reason, confirm }]]);
      const failed = { ...run, passed: false };
      const expected = verdict(
        failed,
        listed(() => undefined),
      );
      expect(expected).toMatchObject({ outcome: 'expected failure', detail: reason });
      expect(formatSummary([expected]).split('\n')).toEqual([
        `1 expected failure (see the table): ${run.scenario}`,
        'conformance: 0 passed, 0 failed',
      ]);
      // Passing, the expectation is stale: a failure that says to take it out.
      expect(
        verdict(
          run,
          listed(() => undefined),
        ),
      ).toMatchObject({ outcome: 'failed' });
      // Failing for another reason than the one given: a failure.
      expect(
        verdict(
          failed,
          listed(() => 'the tool was never called'),
        ),
      ).toMatchObject({
        outcome: 'failed',
      });
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

// The scenario's server logs every request it receives, the initialize body included.
function initializeParams(checks) {
  const request = checks.find(
    (check) => check.id === 'incoming-request' && check.details?.mcpMethod === 'initialize',
  );
  return request?.details?.body?.params;
}
