// The `epoch` command line: parses argv and dispatches to one command module.
import { parseArgs } from 'node:util';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { CliIo, ExitCode } from './io.js';
import { mcpList } from './mcp-list.js';
import { mcpStatus } from './mcp-status.js';

const USAGE = `Usage:
  epoch mcp list [--config FILE] [--json]     show the MCP servers a config file defines, and its problems
  epoch mcp status [--config FILE] [--json]   connect to each of them, show its state and its tools

FILE defaults to the active profile's mcp.json (EPOCH_HOME, EPOCH_PROFILE).
`;

const COMMANDS = { 'mcp list': mcpList, 'mcp status': mcpStatus } as const;

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
  const command = positionals.join(' ');
  if (!isCommand(command)) {
    io.err(`epoch: unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  let file: string;
  try {
    file = values.config ?? mcpConfigPath(io.env);
  } catch (error) {
    io.err(`epoch: ${(error as Error).message}\n`);
    return 2;
  }
  return COMMANDS[command]({ file, json: values.json ?? false }, io);
}

function isCommand(command: string): command is keyof typeof COMMANDS {
  return Object.hasOwn(COMMANDS, command);
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
