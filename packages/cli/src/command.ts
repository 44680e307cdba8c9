// What one command of the `epoch` table is, what it is given, and how it says a command line is
// wrong. The dispatcher (main.ts) parses the options a command declares, so every command gets the
// same parsing, the same `--help` and the same usage errors; the table (commands/table.ts) holds
// what that needs, and each command's code is loaded only when it runs.

import { terminalJson } from '@epoch-agent/infra';
import type { CliIo, EXIT, ExitCode } from './io.js';
import { shownError } from './render/server-text.js';

export interface CommandOption {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Given more than once, each time with exactly one value (`-e A=1 -e B=2`). */
  readonly multiple?: boolean;
  /** The value's placeholder in help: `FILE`, `KEY=VALUE`. */
  readonly value?: string;
  readonly help: string;
}

export interface Command {
  /** The words after `epoch`: `mcp add`. */
  readonly words: string;
  /** What follows the words in the usage line: `<name> [--json]`. */
  readonly synopsis: string;
  /** One line, for `epoch --help`. */
  readonly summary: string;
  /** The rest of `--help`: rules, examples. */
  readonly details?: string;
  readonly options: Readonly<Record<string, CommandOption>>;
  /**
   * Takes a server's command line: the operand at this index (`add <name> <command>`: 1) is its
   * command word, and it and everything after it are the server's, as after `--` (`-y` included),
   * so `--` is needed only when the command word itself starts with `-`. A URL there is no
   * command: options may follow it.
   */
  readonly serverCommandAt?: number;
  /** It reads a user mcp.json (`--config FILE`, default the active profile's). */
  readonly readsConfig: boolean;
  /** Loads the command's code: its `run`, from its module under commands/. */
  readonly load: () => Promise<CommandRun>;
}

export type CommandRun = (invocation: Invocation, io: CliIo) => Promise<ExitCode>;

export interface Invocation {
  /** The words after the command's, before `--`. */
  readonly operands: readonly string[];
  /**
   * Everything after `--`, untouched (args that start with `-` included); for a command with
   * `serverCommandAt`, from the server's command word on.
   */
  readonly rest: readonly string[];
  /** Whether `--` was given at all. */
  readonly dashDash: boolean;
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  /** `--config`, or the active profile's mcp.json; empty for a command that reads none. */
  readonly configFile: string;
  /** `--json` was given: output (and errors, on stderr) are JSON. */
  readonly json: boolean;
}

/** The command line is wrong: exit 2, with the message and the command's usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The command line is right, and what it works on is not (a config file with errors): exit 1,
 * with a code a script reads under --json.
 */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function stringOption(invocation: Invocation, name: string): string | undefined {
  const value = invocation.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function stringOptions(invocation: Invocation, name: string): readonly string[] {
  const value = invocation.values[name];
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
}

/** Exactly these operands, by name for the message: `operands(inv, 'name', 'tool')`. */
export function operands(invocation: Invocation, ...names: string[]): string[] {
  const given = invocation.operands;
  if (given.length < names.length) {
    const missing = names.slice(given.length).map((name) => `<${name}>`);
    throw new UsageError(`missing ${missing.join(' ')}`);
  }
  if (given.length > names.length) {
    const takes =
      names.length === 0
        ? 'it takes no arguments'
        : `it takes ${names.map((n) => `<${n}>`).join(' ')}`;
    throw new UsageError(`unexpected "${given.slice(names.length).join(' ')}": ${takes}`);
  }
  return [...given];
}

/**
 * A command's failure, the way its caller asked for output: a line on stderr, or with `--json`
 * one JSON object `{ "error": { code, exit, message, ... } }` a script can parse.
 */
export function fail(
  io: CliIo,
  invocation: Pick<Invocation, 'json'>,
  exit: Exclude<ExitCode, typeof EXIT.ok>,
  failure: { readonly code: string; readonly message: string; readonly [key: string]: unknown },
  words: string,
): ExitCode {
  // A message carries what servers said (their errors, tool names): never raw to a terminal.
  if (invocation.json) io.err(`${terminalJson({ error: { ...failure, exit } })}\n`);
  else io.err(`epoch ${words}: ${shownError(failure.message)}\n`);
  return exit;
}
