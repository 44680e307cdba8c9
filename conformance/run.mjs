// `npm run conformance` (it builds first): every client scenario of every suite of the official MCP
// conformance suite (suites.mjs: the stable package, and its 2026-07-28 build at 2025-11-25 and at
// 2026-07-28; the runners on Node 22), against driver.mjs — the plugin on the machine's Node.
// Scenarios run one at a time: sse-retry measures the client's reconnect delay to the millisecond,
// and the box is small. Prints one table, then ends with the line `conformance: N passed, N failed`;
// exits 1 when any scenario failed that was not expected to.
//
// `node conformance/run.mjs [name ...]` runs only what is named: a suite (`2026-07-28`, every
// scenario of it) or one scenario with its suite (`'2026-07-28 auth/iss-supported'`).
import { formatReport, formatSummary, notRun, verdict } from './report.mjs';
import { listClientScenarios, runScenario } from './scenario.mjs';
import { SUITES, scenarioName } from './suites.mjs';

/**
 * The whole run; a scenario is only started while there is time left for it. A scenario takes
 * about a second, and one that hangs is ended after a minute (scenario.mjs): room for a loaded
 * box and a few hangs, not for every one of about 80 scenarios hanging.
 */
const DEADLINE_MS = 20 * 60_000;

async function main() {
  const started = performance.now();
  const known = [];
  for (const suite of SUITES) {
    for (const scenario of await listClientScenarios(suite)) {
      known.push({ suite, scenario, name: scenarioName(suite, scenario) });
    }
  }
  const chosen = choose(known, process.argv.slice(2));
  console.error(`conformance: ${chosen.length} client scenarios`);
  const verdicts = [];
  for (const { suite, scenario, name } of chosen) {
    const elapsed = performance.now() - started;
    if (elapsed > DEADLINE_MS) {
      verdicts.push(notRun(name, DEADLINE_MS));
      continue;
    }
    const result = verdict(await runScenario(suite, scenario));
    console.error(`conformance [${(elapsed / 1000).toFixed(0)} s]: ${name}: ${result.outcome}`);
    verdicts.push(result);
  }
  const suites = SUITES.filter((suite) => chosen.some((entry) => entry.suite === suite));
  console.log(suites.map(({ name, about }) => `suite ${name}: ${about}`).join('\n'));
  console.log(formatReport(verdicts));
  console.log(formatSummary(verdicts));
  return verdicts.every(({ outcome }) => outcome !== 'failed');
}

/** Every scenario when nothing is asked; else those of each suite or scenario named, in order. */
function choose(known, asked) {
  if (asked.length === 0) return known;
  const chosen = asked.flatMap((name) => {
    const matches = known.filter((entry) => entry.suite.name === name || entry.name === name);
    if (matches.length > 0) return matches;
    throw new Error(
      `no suite or client scenario named "${name}": name a suite (${SUITES.map((suite) => suite.name).join(', ')}) or a scenario with its suite, e.g. "${known[0]?.name}"`,
    );
  });
  return [...new Set(chosen)];
}

main().then(
  (ok) => {
    process.exitCode = ok ? 0 : 1;
  },
  (error) => {
    console.error(
      `conformance: ${error instanceof Error ? (error.stack ?? error.message) : error}`,
    );
    process.exitCode = 1;
  },
);
