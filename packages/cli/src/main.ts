// The `epoch` command line: parses argv and dispatches to one command module.
import { parseArgs } from 'node:util';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { CliIo, ExitCode } from './io.js';
import { mcpList } from './mcp-list.js';
import { mcpLogin } from './mcp-login.js';
import { mcpLogout } from './mcp-logout.js';
import { mcpStatus } from './mcp-status.js';

const USAGE = `Usage:
  epoch mcp list [--config FILE] [--json]     show the MCP servers a config file defines, and its problems
  epoch mcp status [--config FILE] [--json]   connect to each of them, show its state and its tools
  epoch mcp login <name> [--config FILE]      log in to remote server <name> with OAuth (in a browser)
  epoch mcp logout <name> [--config FILE]     delete <name>'s stored OAuth login and revoke its tokens

FILE defaults to the active profile's mcp.json (EPOCH_HOME, EPOCH_PROFILE).
`;

/** What a command gets from the command line. `name` is the server, for commands that take one. */
interface Invocation {
  readonly file: string;
  readonly json: boolean;
  readonly name: string;
}

interface Command {
  /** It takes a server name (`<name>`) after the command words. */
  readonly takesName: boolean;
  /** It can print JSON (`--json`). */
  readonly json: boolean;
  readonly run: (invocation: Invocation, io: CliIo) => Promise<ExitCode>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  'mcp list': {
    takesName: false,
    json: true,
    run: ({ file, json }, io) => mcpList({ file, json }, io),
  },
  'mcp status': {
    takesName: false,
    json: true,
    run: ({ file, json }, io) => mcpStatus({ file, json }, io),
  },
  'mcp login': {
    takesName: true,
    json: false,
    run: ({ file, name }, io) => mcpLogin({ file, name }, io),
  },
  'mcp logout': {
    takesName: true,
    json: false,
    run: ({ file, name }, io) => mcpLogout({ file, name }, io),
  },
};

export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.err(`epoch: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  // Every command is two words; what follows is its operand.
  const words = positionals.slice(0, 2).join(' ');
  const operands = positionals.slice(2);
  const command = Object.hasOwn(COMMANDS, words) ? COMMANDS[words] : undefined;
  if (command === undefined) {
    io.err(`epoch: unknown command "${positionals.join(' ')}".\n\n${USAGE}`);
    return 2;
  }
  const wanted = command.takesName ? 1 : 0;
  if (operands.length !== wanted) {
    io.err(
      `epoch: ${
        command.takesName
          ? `"epoch ${words}" takes the name of one server from your mcp.json: epoch ${words} <name>`
          : `"epoch ${words}" takes no server name (got "${operands.join(' ')}")`
      }.\n\n${USAGE}`,
    );
    return 2;
  }
  if (values.json && !command.json) {
    io.err(`epoch: "epoch ${words}" has no --json output.\n\n${USAGE}`);
    return 2;
  }
  let file: string;
  try {
    file = values.config ?? mcpConfigPath(io.env);
  } catch (error) {
    io.err(`epoch: ${(error as Error).message}\n`);
    return 2;
  }
  return command.run({ file, json: values.json ?? false, name: operands[0] ?? '' }, io);
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
