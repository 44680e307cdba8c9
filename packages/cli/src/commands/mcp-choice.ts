// `epoch mcp enable|disable <name> [--tool T]...`: a server, or some of its tools, on or off in
// the user's mcp.json — the server's own entry, or `overrides` for a plugin's or the host's — as a
// text edit of the one field or list element that says so, so off then on gives back the file's
// bytes. Nothing is started to make the edit: the agent and `epoch mcp status` follow the file.
import { terminalJson } from '@epoch-agent/infra';
import {
  type ChoiceEdit,
  isMcpConfigWriteError,
  isRuntimeError,
  type RuntimeChoiceSet,
  serverPrefix,
  TOOL_NAME_PREFIX,
} from '@epoch-agent/runtime';
import { type CommandRun, fail, operands, stringOptions, UsageError } from '../command.js';
import { EXIT } from '../io.js';
import { shownLine } from '../render/server-text.js';
import { withRuntime } from '../session.js';
import { problemsFound } from './server-lookup.js';
import { failWrite } from './write-failure.js';

type Outcome =
  | { readonly kind: 'set'; readonly result: RuntimeChoiceSet; readonly serverOff: boolean }
  | { readonly kind: 'unknown'; readonly message: string; readonly fileErrors: boolean };

/** `epoch mcp enable` (true) and `epoch mcp disable` (false): their table entries are in table.ts. */
export function choose(enabled: boolean): CommandRun {
  const words = enabled ? 'mcp enable' : 'mcp disable';
  return async (invocation, io) => {
    const [name = ''] = operands(invocation, 'name');
    const tools = stringOptions(invocation, 'tool');
    // An empty name would be written into the list, and match no tool.
    if (tools.includes('')) throw new UsageError('--tool takes a tool name; one of them is empty');
    const prefixed = tools.find((tool) => tool.startsWith(TOOL_NAME_PREFIX));
    if (prefixed !== undefined) {
      // The name the model sees, copied from `epoch mcp tools`: the lists hold the server's own.
      const ofServer = serverPrefix(name);
      const own = prefixed.startsWith(ofServer) ? ` ("${prefixed.slice(ofServer.length)}")` : '';
      throw new UsageError(
        `--tool takes a tool's name on its server${own}, not the name the model sees ("${prefixed}")`,
      );
    }
    const edit: ChoiceEdit =
      tools.length === 0 ? { kind: 'server', enabled } : { kind: 'tools', tools, enabled };
    let outcome: Outcome;
    try {
      outcome = await withRuntime(io, invocation, { connectOnly: [] }, async (runtime) => {
        try {
          const result = await runtime.setServerChoice(name, edit);
          const serverOff = runtime.server(name)?.config.choice.enabled === false;
          return { kind: 'set', result, serverOff };
        } catch (error) {
          if (!isRuntimeError(error, 'unknown_server')) throw error;
          // A file that does not load has no servers: its errors may be why the name is unknown,
          // and then the file, not the command line, is what is wrong.
          const problems = problemsFound(runtime.diagnostics());
          const message = `${error.message}${problems}`;
          return { kind: 'unknown', message, fileErrors: problems !== '' };
        }
      });
    } catch (error) {
      if (!isMcpConfigWriteError(error)) throw error;
      return failWrite(io, invocation, error, words);
    }
    if (outcome.kind === 'unknown') {
      const failure = { code: 'unknown_server', message: outcome.message, server: name };
      return fail(io, invocation, outcome.fileErrors ? EXIT.failed : EXIT.usage, failure, words);
    }
    const { result, serverOff } = outcome;
    if (invocation.json) {
      const { file, line, changes, changed } = result;
      io.out(`${terminalJson({ file, line, changes, changed }, 2)}\n`);
      return EXIT.ok;
    }
    const verb = enabled ? 'Enabled' : 'Disabled';
    io.out(edit.kind === 'server' ? serverLine(name, verb, result) : toolLines(name, verb, result));
    // Tools turned on are still not offered while their server is off: say so, not "done".
    if (edit.kind === 'tools' && enabled && serverOff) {
      io.out(`${name} itself is turned off: turn it on with "epoch mcp enable ${name}".\n`);
    }
    return EXIT.ok;
  };
}

/** `Disabled github in /…/mcp.json:7 (set "enabled": false).`, or that it was already so. */
function serverLine(name: string, verb: string, { file, changes }: RuntimeChoiceSet): string {
  return changes
    .map(({ line, text, changed }) =>
      changed
        ? `${verb} ${name} in ${file}:${line} (${shownLine(text)}).\n`
        : `Nothing changed in ${file}:${line}: ${shownLine(text)}.\n`,
    )
    .join('');
}

/** A head line, then one `file:line: what` per tool edit, or per tool that was already so. */
function toolLines(name: string, verb: string, { file, changes, changed }: RuntimeChoiceSet) {
  const head = changed ? `${verb} tools of ${name}:` : `Nothing changed for tools of ${name}:`;
  const lines = changes.map(({ line, text }) => `  ${file}:${line}: ${shownLine(text)}`);
  return `${[head, ...lines].join('\n')}\n`;
}
