// What a server entry would run, as a person should see it before saying yes to it (McpLaunch), and
// the key an approval of it is stored under (launchKey): a hash of that launch, so approving a
// command approves that command only — a changed argument, URL or variable value asks again.
//
// The key is computed on the parsed config, so the order of keys and the spelling of the file
// (snake_case or camelCase, spaces, comments) cannot change it. It holds what decides what runs and
// where it sends things: transport, command, args, cwd, the env names and a hash of each value, the
// env_file path, the url, the header names and the headers helper's words. Timeouts, `enabled` and
// the tool choice are not a launch: changing them asks nothing. Values written with `${VAR}` are
// keyed expanded (the command that would run), except env values: they are keyed as written, so a
// token that rotates in the environment is not a new program, while a value written into the file
// is hashed like any other.
import { createHash } from 'node:crypto';
import { isCredentialName, REDACTED, redactArgs, redactUrl } from '@epoch-agent/infra';
import { assertNever, type McpLaunch, type McpServerConfig } from '../types.js';
import { type Environment, parseTemplate, variableValue } from './variables.js';

// Bump when what is hashed changes: every stored approval then asks again, which is the safe side.
const VERSION = 'mcp-launch/1';

/** Describes what `config` would run (its ${VAR}s expanded from `env`, default process.env). */
export function describeLaunch(config: McpServerConfig, env: Environment = process.env): McpLaunch {
  // A variable named like a credential shows as <redacted>; the rest of the text is what runs.
  const shown = (text: string) => expand(config, text, env, true);
  switch (config.transport) {
    case 'stdio': {
      const command = redactArgs([shown(config.command), ...config.args.map(shown)]);
      const downloads = downloadOf(command);
      return {
        transport: 'stdio',
        command,
        ...(config.cwd === undefined ? {} : { cwd: shown(config.cwd) }),
        envNames: Object.keys(config.env).toSorted(),
        ...(config.envFile === undefined ? {} : { envFile: config.envFile }),
        ...(downloads === undefined ? {} : { downloads }),
      };
    }
    case 'sse':
    case 'http': {
      const url = redactUrl(shown(config.url));
      return {
        transport: config.transport,
        url,
        headerNames: Object.keys(config.headers).toSorted(),
        // A remote server runs its code elsewhere; its headers helper runs here, and is shown.
        ...(config.headersHelper === undefined
          ? {}
          : { headersHelper: redactArgs(config.headersHelper) }),
      };
    }
    default:
      return assertNever(config, 'transport');
  }
}

/**
 * A stable hash of the effective launch: transport, command, args, cwd, env names and a hash of
 * each value, env_file path, url, header names, headers helper. Key order and formatting never
 * change it; any changed value does. `sha256:<hex>`.
 */
export function launchKey(config: McpServerConfig, env: Environment = process.env): string {
  const run = (text: string) => expand(config, text, env, false);
  let launch: readonly unknown[];
  switch (config.transport) {
    case 'stdio':
      launch = [
        'stdio',
        [run(config.command), ...config.args.map(run)],
        config.cwd === undefined ? null : run(config.cwd),
        Object.entries(config.env)
          .toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, value]) => [name, sha256(value)]),
        config.envFile ?? null,
      ];
      break;
    case 'sse':
    case 'http':
      launch = [config.transport, run(config.url), Object.keys(config.headers).toSorted()];
      // A program epoch runs, so part of what is approved; absent, the key is the one it always was.
      if (config.headersHelper !== undefined) launch = [...launch, config.headersHelper];
      break;
    default:
      return assertNever(config, 'transport');
  }
  return `sha256:${sha256(`${VERSION}\n${JSON.stringify(launch)}`)}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * `text` with its `${VAR}`s replaced as a start would replace them. An entry given in code has no
 * variables (its values are used as given). A variable that is unset stays as written: that start
 * fails naming it, and the person sees what it would need. With `hideSecrets`, a variable named
 * like a credential (`${API_TOKEN}`) shows as <redacted>.
 */
function expand(config: McpServerConfig, text: string, env: Environment, hideSecrets: boolean) {
  if (config.variables === undefined) return text;
  const template = parseTemplate(text);
  if (!template.ok) return text;
  return template.parts
    .map((part) => {
      if (part.kind === 'text') return part.text;
      const value = variableValue(part, env);
      if (value === undefined) return `\${${part.name}}`;
      return hideSecrets && isCredentialName(part.name) && value !== part.default
        ? REDACTED
        : value;
    })
    .join('');
}

// Launchers that fetch a package and run it, by the program's name (`/usr/bin/npx`, `npx.cmd`).
// `subcommand`: the argument that makes it one (`pipx run`, `uv tool run`); the package is then
// the first argument that is not an option.
const PACKAGE_RUNNERS: readonly {
  readonly program: string;
  readonly subcommand?: readonly string[];
  readonly launcher: string;
}[] = [
  { program: 'npx', launcher: 'npx' },
  { program: 'bunx', launcher: 'bunx' },
  { program: 'bun', subcommand: ['x'], launcher: 'bunx' },
  { program: 'uvx', launcher: 'uvx' },
  { program: 'uv', subcommand: ['tool', 'run'], launcher: 'uvx' },
  { program: 'pipx', subcommand: ['run'], launcher: 'pipx run' },
  { program: 'pnpm', subcommand: ['dlx'], launcher: 'pnpm dlx' },
  { program: 'yarn', subcommand: ['dlx'], launcher: 'yarn dlx' },
  { program: 'npm', subcommand: ['exec'], launcher: 'npm exec' },
];

const CONTAINER_RUNNERS = new Set(['docker', 'podman']);

// Options of `docker run` that take the next argument as their value, so that value is not
// mistaken for the image.
const DOCKER_VALUE_OPTIONS = new Set([
  '-a',
  '-e',
  '-h',
  '-l',
  '-m',
  '-p',
  '-u',
  '-v',
  '-w',
  '--add-host',
  '--attach',
  '--cap-add',
  '--cap-drop',
  '--cpus',
  '--device',
  '--dns',
  '--entrypoint',
  '--env',
  '--env-file',
  '--gpus',
  '--hostname',
  '--label',
  '--log-driver',
  '--log-opt',
  '--memory',
  '--mount',
  '--name',
  '--network',
  '--platform',
  '--publish',
  '--pull',
  '--restart',
  '--security-opt',
  '--shm-size',
  '--tmpfs',
  '--ulimit',
  '--user',
  '--volume',
  '--workdir',
]);

// Shells: a URL in their arguments is a script fetched and run (`sh -c "curl … | sh"`).
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'pwsh', 'powershell', 'cmd']);

// Interpreters: a URL as the script they run is code fetched and run (`deno run https://…`); a URL
// elsewhere in their arguments is only an address.
const INTERPRETERS = new Set(['deno', 'node', 'bun', 'python', 'python3', 'ruby', 'perl']);

const URL_IN_TEXT = /https?:\/\/[^\s'"|;&)]+/;

/**
 * The command a wrapper runs, when `name` is one: `cmd /c npx -y pkg` (how Claude Desktop starts
 * npx on Windows), `env A=1 npx …`, `sh -c "exec npx -y pkg"`. A launcher behind one downloads all the
 * same. A shell's `-c` text is split at blanks: enough to see the program it names first.
 */
function wrapped(name: string, args: readonly string[]): readonly string[] | undefined {
  if (name === 'cmd' && /^\/[ck]$/i.test(args[0] ?? '')) return words(args.slice(1));
  if (name === 'exec') return args;
  if (name === 'env') {
    const start = args.findIndex((arg) => !arg.startsWith('-') && !arg.includes('='));
    return start === -1 ? undefined : args.slice(start);
  }
  if (SHELLS.has(name) && args[0] === '-c' && args[1] !== undefined) return words([args[1]]);
  return undefined;
}

function words(args: readonly string[]): readonly string[] {
  return args.flatMap((arg) => arg.split(/\s+/).filter((word) => word !== ''));
}

/** Whether running `command` (program, then arguments, as shown) downloads code, and what. */
function downloadOf(command: readonly string[]): McpLaunch['downloads'] {
  const [program = '', ...args] = command;
  const name = programName(program);
  const inner = wrapped(name, args);
  // Each unwrapping drops the wrapper's own words, so this ends.
  const behind = inner === undefined || inner.length === 0 ? undefined : downloadOf(inner);
  if (behind !== undefined) return behind;
  for (const runner of PACKAGE_RUNNERS) {
    if (runner.program !== name) continue;
    const sub = runner.subcommand ?? [];
    if (!sub.every((word, i) => args[i] === word)) continue;
    const rest = args.slice(sub.length);
    const yes = rest.some((arg) => arg === '-y' || arg === '--yes');
    const launcher = runner.program === 'npx' && yes ? 'npx -y' : runner.launcher;
    return { launcher, what: packageOf(rest) ?? 'a package' };
  }
  if (CONTAINER_RUNNERS.has(name) && args[0] === 'run') {
    const image = firstOperand(args.slice(1), DOCKER_VALUE_OPTIONS);
    return { launcher: `${name} run`, what: image ?? 'an image' };
  }
  if (SHELLS.has(name)) {
    const url = args.map((arg) => URL_IN_TEXT.exec(arg)?.[0]).find((found) => found !== undefined);
    if (url !== undefined) return { launcher: 'a script from a URL', what: url };
  }
  if (INTERPRETERS.has(name)) {
    const script = firstOperand(name === 'deno' && args[0] === 'run' ? args.slice(1) : args);
    if (script !== undefined && /^https?:\/\//.test(script)) {
      return { launcher: 'a script from a URL', what: script };
    }
  }
  return undefined;
}

/** `npx` for `/usr/local/bin/npx`, a Windows `npx.cmd` or `npx.exe`. */
function programName(program: string): string {
  const base = program.split(/[\\/]/).at(-1) ?? program;
  return base.replace(/\.(?:cmd|exe|bat|ps1)$/i, '').toLowerCase();
}

/** The package a package runner fetches: named by `-p`/`--package`/`--from`, else its first operand. */
function packageOf(args: readonly string[]): string | undefined {
  const named = args.findIndex((arg) => arg === '-p' || arg === '--package' || arg === '--from');
  if (named !== -1 && args[named + 1] !== undefined) return args[named + 1];
  const attached = args.find((arg) => /^--(?:package|from)=/.test(arg));
  if (attached !== undefined) return attached.slice(attached.indexOf('=') + 1);
  return firstOperand(args);
}

/** The first argument that is not an option, skipping the value of an option in `valued`. */
function firstOperand(
  args: readonly string[],
  valued: ReadonlySet<string> = new Set(),
): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (valued.has(arg)) i++;
  }
  return undefined;
}
