// What a server would run, said so a person can judge it before saying yes: the whole command line
// (or the URL), where it runs, the names of what it is given (never a value), and in plain words
// when starting it downloads code and runs it. `approve`, the inline question and `import` show
// the same lines.
import type { McpLaunch } from '@epoch-agent/runtime';
import { shownConfig as shownLine } from './config-text.js';
import { shellQuote } from './target.js';

/** The launch, a line per fact, each as `label: value` (no indent: the caller indents). */
export function launchLines(launch: McpLaunch): string[] {
  const lines: string[] = [];
  if (launch.command !== undefined) {
    lines.push(`runs: ${shownLine(launch.command.map(shellQuote).join(' '))}`);
  }
  if (launch.url !== undefined) lines.push(`${launch.transport} URL: ${shownLine(launch.url)}`);
  if (launch.cwd !== undefined) lines.push(`in: ${shownLine(launch.cwd)}`);
  if (launch.envNames !== undefined && launch.envNames.length > 0) {
    lines.push(`env: ${shownLine(launch.envNames.join(', '))} (values not shown)`);
  }
  if (launch.envFile !== undefined) lines.push(`env_file: ${shownLine(launch.envFile)}`);
  if (launch.headerNames !== undefined && launch.headerNames.length > 0) {
    lines.push(`headers: ${shownLine(launch.headerNames.join(', '))} (values not shown)`);
  }
  if (launch.headersHelper !== undefined) {
    const words = launch.headersHelper.map(shellQuote).join(' ');
    lines.push(`headers from: ${shownLine(words)} (runs here, before its requests)`);
  }
  const warning = downloadWarning(launch);
  if (warning !== undefined) lines.push(warning);
  return lines;
}

/** The plain warning for a launch that fetches code and runs it; undefined for one that does not. */
export function downloadWarning(launch: McpLaunch): string | undefined {
  if (launch.downloads === undefined) return undefined;
  const { launcher, what } = launch.downloads;
  return `Warning: starting it downloads code and runs it with your rights (${shownLine(launcher)}: ${shownLine(what)}); whoever publishes that decides what it does.`;
}
