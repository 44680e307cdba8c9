// @epoch-agent/cli: the `epoch` command, runnable in-process for hosts and tests.
export { type CliIo, type ExitCode, processIo } from './io.js';
export { main } from './main.js';
