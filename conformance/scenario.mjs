// One client scenario of one suite (suites.mjs), run by that suite's official runner against the
// driver: the runner starts the scenario's server (on 127.0.0.1, through the loopback preload),
// runs the driver with the server's URL (and, at a spec version, tells it which one), and writes
// the checks it made to checks.json. Each scenario gets its own temp dir, which holds those results
// and the driver's EPOCH_HOME (so no token or cache outlives the scenario), and is removed
// afterwards.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { DRIVER, DRIVER_NODE, LOOPBACK_PRELOAD, RUNNER_NODE } from './paths.mjs';
import { scenarioName } from './suites.mjs';

/** How long the runner lets the driver run before it kills it and fails the scenario. */
const CLIENT_TIMEOUT_MS = 30_000;
/** The whole scenario, runner included; past it the runner's process group is killed. */
const SCENARIO_TIMEOUT_MS = CLIENT_TIMEOUT_MS + 30_000;
const OUTPUT_TAIL_CHARS = 4_000;

/**
 * @typedef {{ id: string, name: string, status: string, description?: string,
 *   errorMessage?: string, details?: Record<string, unknown> }} Check
 * @typedef {import('./suites.mjs').Suite} Suite
 * @typedef {{ scenario: string, passed: boolean, checks: Check[], output: string,
 *   driverOutput: string }} ScenarioRun
 *   scenario: its name with its suite's; output: the runner's (the tail); driverOutput: what the
 *   driver printed.
 */

/** Every client scenario of `suite`, in its runner's order, by the runner's names. */
export async function listClientScenarios(suite) {
  const { code, output } = await runRunner(suite, ['list', '--client', ...specVersion(suite)], {});
  if (code !== 0) throw new Error(`the runner could not list its scenarios:\n${output}`);
  return output
    .split('\n')
    .map((line) => /^\s+- (\S+)/.exec(line)?.[1])
    .filter((name) => name !== undefined);
}

/** @returns {Promise<ScenarioRun>} passed: the runner's verdict (exit code 0). */
export async function runScenario(suite, scenario) {
  const dir = await mkdtemp(join(os.tmpdir(), 'epoch-conformance-'));
  try {
    const results = join(dir, 'results');
    const { code, output } = await runRunner(
      suite,
      [
        'client',
        '--command',
        `${shellQuote(DRIVER_NODE)} ${shellQuote(DRIVER)}`,
        '--scenario',
        scenario,
        ...specVersion(suite),
        '--timeout',
        String(CLIENT_TIMEOUT_MS),
        '--output-dir',
        results,
      ],
      { EPOCH_HOME: join(dir, 'home') },
    );
    const { checks, driverOutput } = await readResults(results);
    return {
      scenario: scenarioName(suite, scenario),
      passed: code === 0 && checks !== undefined,
      checks: checks ?? [],
      output,
      driverOutput,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The runner's `--spec-version`, for a suite that runs at one. */
function specVersion(suite) {
  return suite.specVersion === undefined ? [] : ['--spec-version', suite.specVersion];
}

function runRunner(suite, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(RUNNER_NODE, ['--import', LOOPBACK_PRELOAD, suite.runner, ...args], {
      env: { ...process.env, ...env },
      // Its own process group, so a kill takes the driver (the runner's child) down with it.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      output += `\nconformance: the runner took longer than ${SCENARIO_TIMEOUT_MS} ms; killed.`;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch (error) {
        if (error?.code !== 'ESRCH') throw error;
      }
    }, SCENARIO_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

// The runner writes `<output dir>/<scenario>-<timestamp>/` (checks.json, and the driver's
// stdout.txt and stderr.txt), and auth scenarios are named `auth/...`, so it sits one or two
// levels down.
async function readResults(results) {
  let entries;
  try {
    entries = await readdir(results, { recursive: true });
  } catch (error) {
    if (error?.code === 'ENOENT') return { checks: undefined, driverOutput: '' };
    throw error;
  }
  const checksFile = entries.find((entry) => entry.endsWith('checks.json'));
  if (checksFile === undefined) return { checks: undefined, driverOutput: '' };
  const dir = join(results, dirname(checksFile));
  const [checks, stdout, stderr] = await Promise.all(
    ['checks.json', 'stdout.txt', 'stderr.txt'].map((file) => readFile(join(dir, file), 'utf8')),
  );
  return { checks: JSON.parse(checks), driverOutput: `${stdout}${stderr}` };
}

// The runner hands the command to a shell after splitting it on spaces and joining it back, so
// quoting survives and a path with a space in it still reaches the shell as one word.
function shellQuote(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
