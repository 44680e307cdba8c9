// The client scenarios the plugin fails on purpose, by their names with their suites
// (suites.mjs), each with the reason and a test that it failed for that reason and no other: a
// driver that crashed or never called the tool fails the same scenario, and must count as a
// failure, not hide behind the expectation.
import { ALPHA_2025, STABLE, scenarioName } from './suites.mjs';

/**
 * @typedef {import('./scenario.mjs').Check} Check
 * @typedef {{ reason: string, confirm(checks: Check[]): string | undefined }} ExpectedFailure
 *   confirm: undefined when the checks show the expected reason, else what they show instead.
 */

/** @type {ExpectedFailure} */
const ELICITATION = {
  reason: "the plugin does not implement elicitation (seed: won't do)",
  confirm(checks) {
    const capabilities = initializeParams(checks)?.capabilities;
    if (capabilities === undefined) {
      return 'the checks hold no initialize request, so the client never got as far as the tool';
    }
    if ('elicitation' in capabilities) {
      return 'the client declared the elicitation capability, which the plugin must not do';
    }
    const asked = checks.some(
      (check) => check.id === 'client-elicitation-sep1034-general' && check.status === 'FAILURE',
    );
    return asked
      ? undefined
      : 'the server never reported its elicitation request, so the tool was not called';
  },
};

/** @type {ReadonlyMap<string, ExpectedFailure>} */
export const EXPECTED_FAILURES = new Map(
  // The 2025-11-25 revision's server asks for elicitation with a request of its own; the 2026-07-28
  // revision has no such scenario.
  [STABLE, ALPHA_2025].map((suite) => [
    scenarioName(suite, 'elicitation-sep1034-client-defaults'),
    ELICITATION,
  ]),
);

// The scenario's server logs every request it receives, the initialize body included.
function initializeParams(checks) {
  const request = checks.find(
    (check) => check.id === 'incoming-request' && check.details?.mcpMethod === 'initialize',
  );
  const params = request?.details?.body?.params;
  return typeof params === 'object' && params !== null ? params : undefined;
}
