// `epoch mcp reconnect <name>`: connects one server afresh — its cached tool list forgotten — and
// says how that went. What a person runs after fixing a server, or to see its live tools again.
// A server that does not connect is tried again a few times (the runtime's reconnect series);
// each failed try is told on stderr as it happens, so a person sees why it takes a while, and the
// end says what failed and what to do next, in terms of this command line.
import { terminalJson } from '@epoch-agent/infra';
import { isMcpError, type McpServerStatus } from '@epoch-agent/runtime';
import { fail, type Invocation, operands } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { withAdvice } from '../render/advice.js';
import { counted } from '../render/counted.js';
import { shownError, shownStderr } from '../render/server-text.js';
import { withRuntime } from '../session.js';
import { indent } from './add-server.js';
import { exitOfError, exitOfState } from './exit-of.js';
import { findServer } from './server-lookup.js';
import { statusDetail } from './server-status.js';

/** `epoch mcp reconnect`: its table entry (words, options, help) is in table.ts. */
export function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  const [name = ''] = operands(invocation, 'name');
  return withRuntime(io, invocation, { connectOnly: [name] }, async (runtime) => {
    const server = findServer(runtime.servers(), runtime.diagnostics(), name, runtime.configFile);
    const tries = watchTries(name, io, invocation.json);
    const stop = runtime.mcp.onStatus(tries.onStatus);
    let status: McpServerStatus;
    try {
      status = await runtime.mcp.reconnect(name);
    } catch (error) {
      // A server turned off has nothing to reconnect: the message says how to turn it on.
      if (!isMcpError(error)) throw error;
      const message = withAdvice(error.code, error.message, server);
      const failure = { code: error.code, message, server: name };
      return fail(io, invocation, exitOfError(error.code), failure, 'mcp reconnect');
    } finally {
      stop();
    }
    if (invocation.json) io.out(`${terminalJson(status, 2)}\n`);
    else if (status.state === 'failed' && tries.failed() > 0) {
      io.out(gaveUp(status, tries, runtime.configFile));
    } else {
      const tools = status.state === 'connected' ? `, ${counted(status.toolCount, 'tool')}` : '';
      io.out(
        `${[`${name}: ${status.state}${tools}`, ...statusDetail(status, server)].join('\n')}\n`,
      );
    }
    const exit = exitOfState(status.state);
    return exit === EXIT.ok && status.state !== 'connected' ? EXIT.unreachable : exit;
  });
}

interface Tries {
  readonly onStatus: (status: McpServerStatus) => void;
  /** How many tries failed and were tried again. */
  readonly failed: () => number;
  /** What the last of them failed with. */
  readonly lastError: () => string;
}

/** One stderr line per try that failed and will be tried again (none with --json). */
function watchTries(name: string, io: CliIo, json: boolean): Tries {
  let failed = 0;
  let lastError = '';
  return {
    onStatus: (status) => {
      if (status.name !== name || status.state !== 'reconnecting') return;
      failed += 1;
      const { attempt, attempts, nextAttemptAt } = status.reconnect;
      const said =
        status.error.message === lastError
          ? ''
          : `\n${indent(shownError(status.error.message), '  ')}`;
      lastError = status.error.message;
      if (json) return;
      const wait = (Math.max(0, nextAttemptAt - Date.now()) / 1000).toFixed(1);
      io.err(
        `${name}: try ${failed} failed; trying again in ${wait} s (retry ${attempt} of ${attempts})${said}\n`,
      );
    },
    failed: () => failed,
    lastError: () => lastError,
  };
}

/** The end of a series that never connected: what failed, and what a person does now. */
function gaveUp(status: McpServerStatus & { state: 'failed' }, tries: Tries, file: string): string {
  const { name } = status;
  const stderr = shownStderr(status.stderrTail);
  return [
    `${name}: failed; it did not connect in ${tries.failed() + 1} tries.`,
    `  ${shownError(tries.lastError())}`,
    ...(stderr === '' ? [] : ['  stderr (last lines):', indent(stderr, '    ')]),
    `Fix its entry in ${file} ("epoch mcp get ${name}" shows how epoch reads it), then run "epoch mcp reconnect ${name}" again.`,
    '',
  ].join('\n');
}
