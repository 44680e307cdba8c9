// The `epoch` command line: finds the command in the table, parses the options it declares, and
// runs it. Each command is a module of its own under commands/; adding one is a row of the table
// (commands/table.ts).
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mcpConfigPath, messageOf, terminalJson } from '@epoch-agent/infra';
import {
  type Command,
  CommandFailure,
  type CommandOption,
  fail,
  type Invocation,
  UsageError,
} from './command.js';
import { COMMANDS } from './commands/table.js';
import { type CliIo, EXIT, type ExitCode } from './io.js';
import { shownError } from './render/server-text.js';

const CONFIG_OPTION: CommandOption = {
  type: 'string',
  value: 'FILE',
  help: "the user mcp.json to use (default: the active profile's, from EPOCH_HOME and EPOCH_PROFILE)",
};
const HELP_OPTION: CommandOption = { type: 'boolean', short: 'h', help: 'show this help' };

export async function main(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [first = '', second = ''] = argv;
  if (first === '--version' || first === '-V') {
    io.out(`${await version()}\n`);
    return EXIT.ok;
  }
  const command =
    COMMANDS.find(({ words }) => words === `${first} ${second}`) ??
    COMMANDS.find(({ words }) => words === first);
  if (command === undefined) {
    const asked = argv.length === 0 || ['-h', '--help', 'help'].includes(first);
    const group = first === 'mcp' && (second === '' || ['-h', '--help', 'help'].includes(second));
    if (asked || group) {
      io.out(overview());
      return EXIT.ok;
    }
    return unknownCommand(argv, io);
  }
  const args = argv.slice(command.words.split(' ').length);
  let invocation: Invocation;
  try {
    const parsed = parse(command, args);
    if (parsed.values.help === true) {
      io.out(help(command));
      return EXIT.ok;
    }
    invocation = {
      ...parsed,
      configFile: command.readsConfig ? configFile(parsed.values, io) : '',
    };
  } catch (error) {
    // The parse failed, so --json is looked for in the words as given.
    return usage(command, io, error, args.includes('--json'));
  }
  try {
    const run = await command.load();
    const code = await run(invocation, io);
    return io.signal.aborted ? EXIT.interrupted : code;
  } catch (error) {
    if (io.signal.aborted) return EXIT.interrupted;
    if (error instanceof UsageError) return usage(command, io, error, invocation.json);
    if (error instanceof CommandFailure) {
      const failure = { code: error.code, message: error.message };
      return fail(io, invocation, EXIT.failed, failure, command.words);
    }
    throw error;
  }
}

/** A short line with the nearest command, not the whole help: the help is one command away. */
async function unknownCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [first = '', second = ''] = argv.filter((word) => !word.startsWith('-'));
  // Loaded only here: the guess comes with the config loader, which --help does not need.
  const { nearest } = await import('./did-you-mean.js');
  const words = COMMANDS.map((command) => command.words);
  const ofMcp = words.flatMap((w) => (w.startsWith('mcp ') ? [w.slice(4)] : []));
  // `epoch lsit` is most likely `epoch mcp list` with "mcp" left out.
  const guess =
    first === 'mcp'
      ? withMcp(nearest(second, ofMcp))
      : (nearest(first, words) ?? withMcp(nearest(first, ofMcp)));
  const typed = first === 'mcp' ? `mcp ${second}` : first;
  const help = first === 'mcp' ? 'epoch mcp --help' : 'epoch --help';
  const message = `unknown command "${typed}".${guess === undefined ? '' : ` Did you mean "epoch ${guess}"?`} Run "${help}" for the commands.`;
  if (argv.includes('--json')) {
    const error = { code: 'unknown_command', exit: EXIT.usage, message };
    io.err(`${terminalJson({ error })}\n`);
  } else io.err(`epoch: ${shownError(message)}\n`);
  return EXIT.usage;
}

function withMcp(word: string | undefined): string | undefined {
  return word === undefined ? undefined : `mcp ${word}`;
}

/** This package's version, from its package.json (dist/main.js is one level under it). */
async function version(): Promise<string> {
  const file = new URL('../package.json', import.meta.url);
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;
}

function parse(command: Command, args: readonly string[]): Omit<Invocation, 'configFile'> {
  const options: Record<string, CommandOption> = {
    ...command.options,
    ...(command.readsConfig ? { config: CONFIG_OPTION } : {}),
    help: HELP_OPTION,
  };
  // The server's own command line is not ours to parse: it is cut off as if `--` came before it.
  const own =
    command.serverCommandAt === undefined ? args : ownArgs(args, options, command.serverCommandAt);
  const { values, tokens } = parseArgs({
    args: [...own],
    options: Object.fromEntries(
      Object.entries(options).map(([name, { type, short, multiple }]) => [
        name,
        { type, ...(short === undefined ? {} : { short }), ...(multiple ? { multiple } : {}) },
      ]),
    ),
    allowPositionals: true,
    strict: true,
    tokens: true,
  });
  const terminator = tokens.find((token) => token.kind === 'option-terminator');
  const at = terminator?.index ?? own.length;
  const positionals = tokens.flatMap((token) => (token.kind === 'positional' ? [token] : []));
  return {
    operands: positionals.filter(({ index }) => index < at).map(({ value }) => value),
    rest: [...own.slice(at + 1), ...args.slice(own.length)],
    dashDash: terminator !== undefined,
    values,
    json: values.json === true,
  };
}

/**
 * The words before the server's command word (the operand at index `at`): options of ours are
 * skipped with their values, and the first `--` ends the search (what follows it is the server's
 * anyway). All of them when that word is a URL.
 */
function ownArgs(
  args: readonly string[],
  options: Readonly<Record<string, CommandOption>>,
  at: number,
): readonly string[] {
  const takesValue = (flag: string): boolean => {
    const long = flag.startsWith('--');
    const option = long
      ? options[flag.slice(2)]
      : Object.values(options).find(({ short }) => short === flag.slice(1));
    return option?.type === 'string';
  };
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return args;
    if (arg.startsWith('-') && arg !== '-') {
      // `--env=A=1` and `-eA=1` carry their value; `--env A=1` and `-e A=1` take the next word.
      if (!arg.includes('=') && (arg.startsWith('--') || arg.length === 2) && takesValue(arg)) i++;
      continue;
    }
    // A URL is a remote server's, not a command: options may follow it, as claude takes them.
    if (operands === at) return /^https?:\/\//i.test(arg) ? args : args.slice(0, i);
    operands++;
  }
  return args;
}

function configFile(values: Invocation['values'], io: CliIo): string {
  const given = values.config;
  if (typeof given === 'string') return inExistingDirectory(given);
  try {
    return mcpConfigPath(io.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * A file named with --config must be in a directory that exists: a typo (`/nonexistent/dir/`) would
 * otherwise be created, directories and all, by the first command that writes. Only the profile's
 * own directory (EPOCH_HOME) is epoch's to make.
 */
function inExistingDirectory(file: string): string {
  const directory = dirname(resolve(file));
  if (!statSync(directory, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(
      `--config ${file}: the directory ${directory} does not exist; create it first, or name a file in a directory that does`,
    );
  }
  return file;
}

function usage(command: Command, io: CliIo, error: unknown, json: boolean): ExitCode {
  const message = problem(command, error);
  if (json) {
    const failure = { code: 'usage', exit: EXIT.usage, message, usage: usageLine(command) };
    io.err(`${terminalJson({ error: failure })}\n`);
  } else {
    io.err(
      // The message may name what a server offers (its tools): never raw to a terminal.
      `epoch ${command.words}: ${shownError(message)}.\nUsage: ${usageLine(command)}\nRun "epoch ${command.words} --help" for more.\n`,
    );
  }
  return EXIT.usage;
}

const SCOPE_OPTIONS = ['--scope', '-s'];
const NO_SCOPES =
  "--scope is for the commands that write a new server (add, add-json, import: user or project); this one reads every server, your mcp.json's and the project's .epoch/mcp.json's alike. Choose the profile with EPOCH_PROFILE=<name> before the command, or any file with --config FILE";

// parseArgs words its errors for programmers; an unknown option is the one a person most often
// meets, typically a server's own option put before "--".
function problem(command: Command, error: unknown): string {
  const message = messageOf(error);
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return message.replace(/\.$/, '');
  const option = /'([^']+)'/.exec(message)?.[1] ?? 'an option';
  // claude's and gemini's habit on a command that takes none: say which ones do.
  if (command.readsConfig && SCOPE_OPTIONS.includes(option)) return NO_SCOPES;
  const takesArgv = command.serverCommandAt !== undefined;
  return `unknown option "${option}"${takesArgv ? `; if it is for the server's own command, put it after the command word: epoch ${command.words} <name> <command> ${option} ...` : ''}`;
}

function usageLine(command: Command): string {
  return `epoch ${command.words} ${command.synopsis}`.trimEnd();
}

function overview(): string {
  const width = Math.max(...COMMANDS.map(({ words }) => words.length));
  const rows = COMMANDS.map(({ words, summary }) => `  epoch ${words.padEnd(width)}  ${summary}`);
  return `Usage: epoch <command> [options]\n\nCommands:\n${rows.join('\n')}\n\nRun "epoch <command> --help" for its options, e.g. "epoch mcp add --help"; "epoch --version" for the version.\nExit codes: 0 ok, 1 failed, 2 wrong command line, 3 needs "epoch mcp login", 4 server unreachable, 130 interrupted, 141 stdout closed early (| head).\n`;
}

function help(command: Command): string {
  const options: [string, CommandOption][] = [
    ...Object.entries(command.options),
    ...(command.readsConfig ? [['config', CONFIG_OPTION] as [string, CommandOption]] : []),
    ['help', HELP_OPTION],
  ];
  const flags = options.map(([name, option]) => {
    const short = option.short === undefined ? '    ' : `-${option.short}, `;
    const value = option.value === undefined ? '' : ` ${option.value}`;
    return [`${short}--${name}${value}`, option.help] as const;
  });
  const width = Math.max(...flags.map(([flag]) => flag.length));
  const lines = flags.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
  const details = command.details === undefined ? '' : `\n${command.details.trimEnd()}\n`;
  return `Usage: ${usageLine(command)}\n\n${command.summary}\n\nOptions:\n${lines.join('\n')}\n${details}`;
}
