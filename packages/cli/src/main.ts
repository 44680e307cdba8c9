// The `epoch` command line: parses argv and dispatches to one command module.
import { parseArgs } from 'node:util';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { CliIo, ExitCode } from './io.js';
import { mcpList } from './mcp-list.js';

const USAGE = `Usage:
  epoch mcp list [--config FILE] [--json]   show the MCP servers a config file defines, and its problems

FILE defaults to the active profile's mcp.json (EPOCH_HOME, EPOCH_PROFILE).
`;

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
  if (command === 'mcp list') {
    let file: string;
    try {
      file = values.config ?? mcpConfigPath(io.env);
    } catch (error) {
      io.err(`epoch: ${(error as Error).message}\n`);
      return 2;
    }
    return mcpList({ file, json: values.json ?? false }, io);
  }
  io.err(`epoch: unknown command "${command}".\n\n${USAGE}`);
  return 2;
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
