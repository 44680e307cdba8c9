// What a server is started with, made at each start (never when its file is read): its entry's
// `${VAR}`s expanded from the process environment of the moment and, for stdio, its `env_file`
// read. Every value that came from outside the file is kept by the server's redaction policy
// before anything is spawned or sent, so no message about the start can carry one.
import { credentials, isInfraError, readRegularFile, type Secret } from '@epoch-agent/infra';
import { type Environment, expandText } from '../config/variables.js';
import { McpError } from '../errors/mcp-error.js';
import { type Scrubber, serverRedactor, serverSecrets } from '../secrets.js';
import { assertNever, type McpServerConfig } from '../types.js';

/** A dotenv file holds a few dozen lines; anything past this is not one. */
export const MAX_ENV_FILE_BYTES = 1024 * 1024;

export type StartConfig =
  | { readonly ok: true; readonly config: McpServerConfig }
  | { readonly ok: false; readonly error: McpError };

/** Whether `config` starts as it is: no variable to expand, no env_file to read. */
export function startsAsWritten(config: McpServerConfig): boolean {
  return config.variables === undefined && (config.transport !== 'stdio' || !config.envFile);
}

/**
 * `config` as its server is started now. Never rejects: a variable that is not set or an
 * env_file that cannot be read is a failure naming it, and nothing is started.
 */
export async function startConfig(
  config: McpServerConfig,
  scrub: Scrubber,
  env: Environment = process.env,
): Promise<StartConfig> {
  if (startsAsWritten(config)) return { ok: true, config };
  const secrets: Secret[] = [];
  const expand = (field: string, text: string): string => {
    if (config.variables === undefined) return text;
    const expanded = expandText(text, env);
    if (!expanded.ok) throw unset(config, field, expanded.unset);
    for (const secret of credentials(expanded.values)) secrets.push(secret);
    const unfit = unfitCharacter(field, expanded.text);
    if (unfit !== undefined) throw unfitVariable(config, field, unfit);
    return expanded.text;
  };
  try {
    const expanded = expandFields(config, expand);
    if (expanded.transport === 'stdio' && expanded.envFile !== undefined) {
      const values = await readEnvFile(expanded.name, expanded.envFile);
      // One by one: an env_file may hold more values than a call takes arguments.
      for (const secret of credentials(Object.values(values))) secrets.push(secret);
      // The entry's own env wins over the file for a key both give.
      expanded.env = { ...values, ...expanded.env };
    }
    // Kept, not learned: an env_file of a hundred values must not push out its own first ones.
    scrub.keep([...serverSecrets(expanded as McpServerConfig), ...secrets]);
    return { ok: true, config: expanded as McpServerConfig };
  } catch (error) {
    if (error instanceof McpError) return { ok: false, error };
    throw error;
  }
}

/**
 * `config` as a start now would make it, its values' secrets taught to a policy of its own; an
 * unset variable or unreadable env_file throws. For what keys a server by its expanded URL (the
 * logins of `epoch mcp login` and `logout`).
 */
export async function startedOrThrow(config: McpServerConfig): Promise<McpServerConfig> {
  if (startsAsWritten(config)) return config;
  const started = await startConfig(config, serverRedactor(config));
  if (!started.ok) throw started.error;
  return started.config;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function expandFields(
  config: McpServerConfig,
  expand: (field: string, text: string) => string,
): Mutable<McpServerConfig> {
  const map = (field: string, values: Readonly<Record<string, string>>) =>
    Object.fromEntries(
      Object.entries(values).map(([key, text]) => [key, expand(`${field}.${key}`, text)]),
    );
  // The expanded config is a start's own: the variables are spent, so it never expands again.
  const { variables: _, ...rest } = config;
  switch (rest.transport) {
    case 'stdio': {
      const cwd = rest.cwd === undefined ? undefined : expand('cwd', rest.cwd);
      if (cwd !== undefined && !isAbsolute(cwd)) {
        throw new McpError(
          'env_unset',
          `MCP server "${config.name}" was not started: its "cwd" holds a variable and did not come out as an absolute directory. Make the variable hold an absolute path, or write the directory without a variable.`,
          { server: config.name },
        );
      }
      return {
        ...rest,
        command: expand('command', rest.command),
        args: rest.args.map((arg, i) => expand(`args[${i}]`, arg)),
        env: map('env', rest.env),
        ...(cwd === undefined ? {} : { cwd }),
      };
    }
    case 'sse':
    case 'http':
      return { ...rest, url: expand('url', rest.url), headers: map('headers', rest.headers) };
    default:
      return assertNever(rest, 'transport');
  }
}

function isAbsolute(path: string): boolean {
  return /^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(path);
}

function unset(config: McpServerConfig, field: string, variable: string): McpError {
  return new McpError(
    'env_unset',
    `MCP server "${config.name}" was not started: "${field}" uses \${${variable}}, and ${variable} is not set. Set it in the environment epoch runs in (e.g. export ${variable}=...), or give it a default in the file: \${${variable}:-value}.`,
    { server: config.name },
  );
}

/**
 * What a value that came from the environment holds that its field cannot carry: a NUL anywhere
 * (the OS ends a C string there, and Node refuses the spawn with a message about the command), or
 * a line break in a header (fetch refuses it with a message that quotes the value). The loader
 * refuses them where they are written; these came in with a variable.
 */
function unfitCharacter(field: string, text: string): string | undefined {
  if (text.includes('\0')) return 'a NUL character (\\u0000)';
  if (field.startsWith('headers.') && /[\r\n]/.test(text)) return 'a line break';
  return undefined;
}

function unfitVariable(config: McpServerConfig, field: string, unfit: string): McpError {
  const names = [
    ...new Set(config.variables?.filter((use) => use.field === field).map((use) => use.name)),
  ];
  const uses = names.map((name) => `\${${name}}`).join(', ');
  const where = field.startsWith('headers.')
    ? 'a header'
    : "a process's command, arguments or environment";
  return new McpError(
    'env_value_invalid',
    `MCP server "${config.name}" was not started: "${field}" uses ${uses}, and the value holds ${unfit}, which ${where} cannot carry. Set ${names.join(', ')} to a value without it.`,
    { server: config.name },
  );
}

let dotenv: Promise<typeof import('dotenv')> | undefined;

/** The file's variables. Only a regular file is read (a FIFO would block the start for ever). */
async function readEnvFile(name: string, envFile: string): Promise<Record<string, string>> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(envFile, MAX_ENV_FILE_BYTES);
  } catch (error) {
    throw new McpError(
      'env_file_unreadable',
      `MCP server "${name}" was not started: its env_file ${envFile} ${whyUnreadable(error)}. Fix the file or the "env_file" path (relative to the config file's directory).`,
      { server: name },
    );
  }
  dotenv ??= import('dotenv');
  // Its values are read as written: a `${VAR}` in the file is text (only the config expands them).
  const values = (await dotenv).parse(bytes);
  for (const [variable, value] of Object.entries(values)) {
    // Named, never shown: the value is a secret. Spawning would fail with a message about the
    // command instead.
    if (variable.includes('\0') || value.includes('\0')) {
      const what = variable.includes('\0') ? 'a variable name' : `the value of ${variable}`;
      throw new McpError(
        'env_value_invalid',
        `MCP server "${name}" was not started: ${what} in its env_file ${envFile} holds a NUL character (\\u0000), which no process's environment can carry. Remove it from the file.`,
        { server: name },
      );
    }
  }
  return values;
}

function whyUnreadable(error: unknown): string {
  if (isInfraError(error, 'not_a_file')) return 'is not a regular file';
  if (isInfraError(error, 'too_large')) {
    return `is larger than ${MAX_ENV_FILE_BYTES / (1024 * 1024)} MiB, more than a dotenv file holds`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  return `cannot be read (${code ?? 'error'})`;
}
