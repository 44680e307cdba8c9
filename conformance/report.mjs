// What a scenario run means for the plugin, and the table and summary `npm run conformance` prints.
// An expected failure is counted as neither passed nor failed, and said so on its own line: the
// final line's "passed" holds only scenarios the runner passed.
import { stripVTControlCharacters } from 'node:util';
import { EXPECTED_FAILURES } from './expected-failures.mjs';

const DETAIL_CHARS = 300;
const LOG_CHARS = 2_000;

/**
 * @typedef {'passed' | 'failed' | 'expected failure'} Outcome
 * @typedef {{ scenario: string, outcome: Outcome, detail: string, log: string }} Verdict
 *   log: what to read when it failed — the driver's output, or the runner's when it wrote no
 *   checks (it failed before or instead of running the driver).
 */

/**
 * @param {import('./scenario.mjs').ScenarioRun} run
 * @param {ReadonlyMap<string, import('./expected-failures.mjs').ExpectedFailure>} expectations
 *   the scenarios expected to fail: expected-failures.mjs's (a test gives its own)
 * @returns {Verdict}
 */
export function verdict(run, expectations = EXPECTED_FAILURES) {
  const expected = expectations.get(run.scenario);
  const log = run.checks.length === 0 ? run.output : run.driverOutput;
  const base = { scenario: run.scenario, log: log.slice(-LOG_CHARS) };
  if (expected === undefined) {
    return run.passed
      ? { ...base, outcome: 'passed', detail: '' }
      : { ...base, outcome: 'failed', detail: failedChecks(run.checks) };
  }
  if (run.passed) {
    return {
      ...base,
      outcome: 'failed',
      detail: `it passes now, though it is listed as failing because ${expected.reason}: take it out of conformance/expected-failures.mjs`,
    };
  }
  const instead = expected.confirm(run.checks);
  return instead === undefined
    ? { ...base, outcome: 'expected failure', detail: expected.reason }
    : {
        ...base,
        outcome: 'failed',
        detail: `expected to fail only because ${expected.reason}, but ${instead}. ${failedChecks(run.checks)}`,
      };
}

/** A verdict for a scenario the run's deadline left no time for. */
export function notRun(scenario, deadlineMs) {
  return {
    scenario,
    outcome: 'failed',
    detail: `not run: the whole run's deadline (${deadlineMs / 1000} s) had passed`,
    log: '',
  };
}

/** @param {Verdict[]} verdicts */
export function formatReport(verdicts) {
  const width = Math.max(...verdicts.map(({ scenario }) => scenario.length), 'scenario'.length);
  const rows = verdicts.map(
    ({ scenario, outcome, detail }) =>
      `${scenario.padEnd(width)}  ${outcome === 'expected failure' ? `expected failure: ${detail}` : outcome}`,
  );
  const failures = verdicts
    .filter(({ outcome }) => outcome === 'failed')
    .map(({ scenario, detail, log }) =>
      [`--- ${scenario}: ${detail}`, indent(stripVTControlCharacters(log).trim())]
        .filter((part) => part !== '')
        .join('\n'),
    );
  return [`${'scenario'.padEnd(width)}  result`, ...rows, ...failures].join('\n');
}

/** The last lines: expected failures (if any), then `conformance: N passed, N failed`. */
export function formatSummary(verdicts) {
  const count = (outcome) => verdicts.filter((verdict) => verdict.outcome === outcome).length;
  const expected = verdicts.filter(({ outcome }) => outcome === 'expected failure');
  const last = `conformance: ${count('passed')} passed, ${count('failed')} failed`;
  if (expected.length === 0) return last;
  const names = expected.map(({ scenario }) => scenario).join(', ');
  const plural = expected.length === 1 ? '' : 's';
  return `${expected.length} expected failure${plural} (see the table): ${names}\n${last}`;
}

function failedChecks(checks) {
  const bad = checks.filter(({ status }) => status === 'FAILURE' || status === 'WARNING');
  if (checks.length === 0) return 'the runner wrote no checks (its output is below)';
  if (bad.length === 0) {
    return 'every check passed, but the runner failed the scenario: the driver exited with an error or timed out (its output is below)';
  }
  const text = bad
    .map(
      ({ id, status, errorMessage }) => `${id} ${status}${errorMessage ? `: ${errorMessage}` : ''}`,
    )
    .join('; ');
  return text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS)}…` : text;
}

function indent(text) {
  if (text === '') return '';
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
