// `epoch web`: the connectors page on 127.0.0.1, over the same runtime the agent runs on, until
// Ctrl-C. The URL it prints carries this launch's key: only the person who started it can use it.
// It is printed as soon as the files are read: the servers connect behind it, and the page shows
// each one connecting until it settles, so nothing about them is printed here.
import { isWebError, startWeb } from '@epoch-agent/web';
import { fail, type Invocation, operands, stringOption, UsageError } from '../command.js';
import { type CliIo, EXIT, type ExitCode } from '../io.js';
import { rootsOf } from './root-dirs.js';

/** `epoch web`: its table entry (words, options, help) is in table.ts. */
export async function run(invocation: Invocation, io: CliIo): Promise<ExitCode> {
  operands(invocation);
  const port = portOf(stringOption(invocation, 'port'));
  const roots = rootsOf(invocation);
  let running: Awaited<ReturnType<typeof startWeb>>;
  try {
    running = await startWeb({
      port,
      configFile: invocation.configFile,
      signal: io.signal,
      ...(roots === undefined ? {} : { registry: { roots } }),
    });
  } catch (error) {
    if (!isWebError(error)) throw error;
    return fail(io, invocation, EXIT.failed, { code: error.code, message: error.message }, 'web');
  }
  try {
    io.out(
      `The connectors page of ${invocation.configFile}:\n\n  ${running.url}\n\nCtrl-C stops it and every MCP server.\n`,
    );
    if (invocation.values.open === true && io.openUrl !== undefined) {
      // Not the URL above: the opener's command line is there for every local user to read.
      await io
        .openUrl(running.oneTimeUrl())
        .catch(() => io.err('epoch web: no browser could be opened; open the URL above.\n'));
    }
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return EXIT.interrupted;
  } finally {
    await running.close();
  }
}

function portOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new UsageError(
      `--port must be a port number from 1 to 65535 (got ${JSON.stringify(text)})`,
    );
  }
  return port;
}
