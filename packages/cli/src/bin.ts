#!/usr/bin/env node
import { watchOutput } from './closed-output.js';
import { interruptSignal } from './interrupt.js';
import { EXIT, processIo } from './io.js';
import { guardLibraryConsole } from './library-console.js';
import { main } from './main.js';

const err = (text: string) => void (process.stderr.writable && process.stderr.write(text));
guardLibraryConsole(err);
const output = watchOutput(process.stdout, process.stderr);
// Ctrl-C and a closed stdout stop a command the same way: its servers closed and reaped.
const stop = new AbortController();
for (const signal of [interruptSignal(err), output.signal]) {
  signal.addEventListener('abort', () => stop.abort(signal.reason), { once: true });
}
const code = await main(process.argv.slice(2), processIo(stop.signal));
process.exitCode = output.closed() ? EXIT.outputClosed : code;
// The reader may leave while the last lines are still on their way out.
output.signal.addEventListener('abort', () => {
  process.exitCode = EXIT.outputClosed;
});
