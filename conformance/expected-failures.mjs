// The client scenarios the plugin fails on purpose, by their names with their suites
// (suites.mjs), each with the reason and a test that it failed for that reason and no other: a
// driver that crashed or never called the tool fails the same scenario, and must count as a
// failure, not hide behind the expectation. There are none now: the last, elicitation's
// (`elicitation-sep1034-client-defaults`), passes since the plugin puts a server's questions to a
// person (README "Servers that ask you").

/**
 * @typedef {import('./scenario.mjs').Check} Check
 * @typedef {{ reason: string, confirm(checks: Check[]): string | undefined }} ExpectedFailure
 *   confirm: undefined when the checks show the expected reason, else what they show instead.
 */

/** @type {ReadonlyMap<string, ExpectedFailure>} */
export const EXPECTED_FAILURES = new Map();
