// What libraries write to the console in the `epoch` process: the MCP SDK warns there, quoting an
// authorization server's error text whole (JSON-quoted, which leaves C1 controls and bidi
// characters raw). It reaches the user's terminal, so it passes the rule everything a server says
// passes: controls visible, cut to a bound.
import { format } from 'node:util';
import { visibleText } from '@epoch-agent/infra';

/** console.warn and console.error write their text, made visible and bounded, through `err`. */
export function guardLibraryConsole(err: (text: string) => void): void {
  const write = (...args: unknown[]) => err(`${visibleText(format(...args), { lines: true })}\n`);
  console.warn = write;
  console.error = write;
}
