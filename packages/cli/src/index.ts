// @epoch-agent/cli: the `epoch` command, runnable in-process for hosts and tests.
export { interruptSignal } from './interrupt.js';
export { type CliIo, EXIT, type ExitCode, processIo } from './io.js';
export { main } from './main.js';
