// The suites `npm run conformance` runs, each the client scenarios of one runner at one spec
// version: the stable conformance package as it comes, and its 2026-07-28 build at each revision
// the plugin speaks, 2025-11-25 and 2026-07-28 (`--spec-version`). The same scenario can pass in
// one and fail in another, so a scenario is always named with its suite, `<suite> <scenario>`
// (`0.1.16 initialize`, `2026-07-28 auth/iss-supported`): in the table, on the command line and in
// expected-failures.mjs.
import { ALPHA_PACKAGE, ALPHA_RUNNER, STABLE_PACKAGE, STABLE_RUNNER, versionOf } from './paths.mjs';

/**
 * @typedef {{ name: string, runner: string, specVersion?: string, about: string }} Suite
 *   name: the stable package's version, or the spec version the 2026-07-28 build runs at.
 */

const stableVersion = versionOf(STABLE_PACKAGE);
const alphaVersion = versionOf(ALPHA_PACKAGE);

/** @type {Suite} */
export const STABLE = {
  name: stableVersion,
  runner: STABLE_RUNNER,
  about: `@modelcontextprotocol/conformance ${stableVersion}, every client scenario`,
};

/** @type {(specVersion: string) => Suite} */
const alphaAt = (specVersion) => ({
  name: specVersion,
  runner: ALPHA_RUNNER,
  specVersion,
  about: `@modelcontextprotocol/conformance ${alphaVersion} at --spec-version ${specVersion}`,
});

export const ALPHA_2025 = alphaAt('2025-11-25');
export const ALPHA_2026 = alphaAt('2026-07-28');

/** In the order they run. */
export const SUITES = [STABLE, ALPHA_2025, ALPHA_2026];

/** A scenario's name in the harness: `<suite> <scenario>`. */
export function scenarioName(suite, scenario) {
  return `${suite.name} ${scenario}`;
}
