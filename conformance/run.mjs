// `npm run conformance` (it builds first): every client scenario of the official MCP conformance
// suite (`@modelcontextprotocol/conformance`, run on Node 22), against driver.mjs — the plugin on
// the machine's Node. Scenarios run one at a time: sse-retry measures the client's reconnect delay
// to the millisecond, and the box is small. Prints a table, then ends with the line
// `conformance: N passed, N failed`; exits 1 when any scenario failed that was not expected to.
//
// `node conformance/run.mjs [scenario ...]` runs only the scenarios named.
import { formatReport, formatSummary, notRun, verdict } from './report.mjs';
import { listClientScenarios, runScenario } from './scenario.mjs';

/** The whole run; a scenario is only started while there is time left for it. */
const DEADLINE_MS = 15 * 60_000;

async function main() {
  const started = performance.now();
  const known = await listClientScenarios();
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new Error(`no client scenario named ${unknown.join(', ')}; the runner knows: ${known}`);
  }
  const scenarios = asked.length > 0 ? asked : known;
  console.error(`conformance: ${scenarios.length} client scenarios`);
  const verdicts = [];
  for (const scenario of scenarios) {
    const elapsed = performance.now() - started;
    if (elapsed > DEADLINE_MS) {
      verdicts.push(notRun(scenario, DEADLINE_MS));
      continue;
    }
    const result = verdict(await runScenario(scenario));
    console.error(`conformance [${(elapsed / 1000).toFixed(0)} s]: ${scenario}: ${result.outcome}`);
    verdicts.push(result);
  }
  console.log(formatReport(verdicts));
  console.log(formatSummary(verdicts));
  return verdicts.every(({ outcome }) => outcome !== 'failed');
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
