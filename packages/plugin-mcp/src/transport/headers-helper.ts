// A remote server's headers from a command (`headers_helper`) or from the host's function: asked
// before the connection's first request, again once after a 401 or 403 (the request is then sent
// once more, and what it meets is its answer), and again before a request once what it gave is
// older than HEADERS_HELPER_LIFETIME_MS. What it gives is a secret: the server's redaction policy
// learns every value before anything else sees it, and no message quotes what it printed.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { credentials, type Secret } from '@epoch-agent/infra';
import type { FetchLike } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import type { Scrubber } from '../secrets.js';
import type { RemoteServerConfig } from '../types.js';
import {
  HEADERS_HELPER_LIFETIME_MS,
  HEADERS_HELPER_MAX_OUTPUT_BYTES,
  HEADERS_HELPER_TIMEOUT_MS,
  type McpHeadersHelper,
  type McpHeadersReason,
} from './headers-helper-rules.js';

type GivenHeaders = Readonly<Record<string, string>>;

interface Given {
  readonly headers: GivenHeaders;
  readonly at: number;
  /** Counts the runs, so requests refused together share one new run. */
  readonly run: number;
}

export interface HeadersSourceOptions {
  readonly config: RemoteServerConfig<'sse' | 'http'>;
  readonly scrub: Scrubber;
  /** The host's function, asked when the entry has no `headers_helper`. */
  readonly host?: McpHeadersHelper | undefined;
  /** Tests shorten them; default HEADERS_HELPER_LIFETIME_MS and HEADERS_HELPER_TIMEOUT_MS. */
  readonly lifetimeMs?: number;
  readonly timeoutMs?: number;
}

/**
 * The headers a connection's requests carry beyond `headers`, and the fetch that puts them on;
 * undefined when the server has no helper (its entry's or the host's).
 */
export function headersSource(options: HeadersSourceOptions): HeadersSource | undefined {
  const { config, host, timeoutMs = HEADERS_HELPER_TIMEOUT_MS } = options;
  const words = config.headersHelper;
  // The entry's command wins over the host's function: it is what the person approved.
  if (words !== undefined) {
    return new HeadersSource(options, (reason) =>
      runHeadersHelper(config, words, reason, timeoutMs),
    );
  }
  if (host === undefined) return undefined;
  return new HeadersSource(options, (reason) => askHost(config, host, reason, timeoutMs));
}

type Ask = (reason: McpHeadersReason) => Promise<GivenHeaders>;

export class HeadersSource {
  readonly #options: HeadersSourceOptions;
  readonly #ask: Ask;
  #given: Given | undefined;
  #asking: Promise<Given> | undefined;
  #runs = 0;

  constructor(options: HeadersSourceOptions, ask: Ask) {
    this.#options = options;
    this.#ask = ask;
  }

  /** `inner` with the helper's headers on every request, and one more try after a 401 or 403. */
  fetch(inner: FetchLike): FetchLike {
    return async (url, init) => {
      const used = await this.#current();
      const response = await inner(url, this.#merged(init, used.headers).init);
      if (response.status !== 401 && response.status !== 403) return response;
      const next = await this.#renew(used.run);
      await response.body?.cancel().catch(() => {});
      const retry = this.#merged(init, next.headers);
      const again = await inner(url, retry.init);
      // A login's token refused is the OAuth layer's to answer (a refresh), not the helper's.
      if (again.status !== 401 || !retry.sentAuthorization) return again;
      // Its own credential refused twice: the usual verdict of a 401 (needsLogin, not retried),
      // in words that name what gave it rather than a login the server never asked for.
      await again.body?.cancel().catch(() => {});
      throw await refusedTwice(this.#options.config.name);
    };
  }

  #current(): Promise<Given> {
    const given = this.#given;
    const lifetime = this.#options.lifetimeMs ?? HEADERS_HELPER_LIFETIME_MS;
    if (given !== undefined && Date.now() - given.at < lifetime) {
      return Promise.resolve(given);
    }
    return this.#begin(given === undefined ? 'connect' : 'expired');
  }

  /** A new run after the headers of run `refused` were refused, unless one has begun since. */
  #renew(refused: number): Promise<Given> {
    const given = this.#given;
    if (this.#asking !== undefined) return this.#asking;
    if (given !== undefined && given.run > refused) return Promise.resolve(given);
    return this.#begin('refused');
  }

  #begin(reason: McpHeadersReason): Promise<Given> {
    this.#asking ??= this.#askOnce(reason).finally(() => {
      this.#asking = undefined;
    });
    return this.#asking;
  }

  async #askOnce(reason: McpHeadersReason): Promise<Given> {
    const headers = await this.#ask(reason);
    this.#options.scrub.learn(helperSecrets(headers));
    this.#runs += 1;
    this.#given = { headers, at: Date.now(), run: this.#runs };
    return this.#given;
  }

  /**
   * The request's headers with the helper's set over them: over `headers`, which the transport put
   * there, but never over a stored login's bearer token, which wins over `headers` too.
   */
  #merged(
    init: RequestInit | undefined,
    given: GivenHeaders,
  ): { readonly init: RequestInit; readonly sentAuthorization: boolean } {
    const headers = new Headers(init?.headers);
    const written = new Headers(this.#options.config.headers).get('authorization');
    const bearer = headers.get('authorization');
    const fromLogin = bearer !== null && bearer !== written;
    let sentAuthorization = false;
    for (const [name, value] of Object.entries(given)) {
      const authorization = name.toLowerCase() === 'authorization';
      if (fromLogin && authorization) continue;
      sentAuthorization ||= authorization;
      headers.set(name, value);
    }
    return { init: { ...init, headers }, sentAuthorization };
  }
}

async function refusedTwice(server: string): Promise<McpError> {
  const { UnauthorizedError } = await import('@modelcontextprotocol/client');
  const why =
    'it refused the Authorization its headers helper gave (HTTP 401), also from a second run';
  // The cause is the SDK's "unauthorized", as a refused OAuth login's is: the same verdict.
  return new McpError(
    'needs_login',
    `MCP server "${server}" needs other credentials: ${why}. Check what the helper prints, then reconnect it.`,
    { server, cause: new UnauthorizedError(why) },
  );
}

/** Each value, and its part after an auth scheme (`Bearer x` hides a bare `x` too). */
function helperSecrets(headers: GivenHeaders): Secret[] {
  return credentials(
    Object.values(headers).flatMap((value) => [
      value,
      /^[A-Za-z][\w.-]*[ \t]+(.+)$/s.exec(value)?.[1],
    ]),
  );
}

function failed(config: RemoteServerConfig<'sse' | 'http'>, what: string): McpError {
  const server = config.name;
  return new McpError(
    'headers_helper_failed',
    `MCP server "${server}": its headers helper ${what}, so the request was not sent to it.`,
    { server },
  );
}

async function askHost(
  config: RemoteServerConfig<'sse' | 'http'>,
  host: McpHeadersHelper,
  reason: McpHeadersReason,
  timeoutMs: number,
): Promise<GivenHeaders> {
  const signal = AbortSignal.timeout(timeoutMs);
  const late = new Promise<'late'>((resolve) =>
    signal.addEventListener('abort', () => resolve('late'), { once: true }),
  );
  let given: unknown;
  try {
    given = await Promise.race([
      host({ server: config.name, url: config.url, reason, signal }),
      late,
    ]);
  } catch {
    // The host's error is the host's own: its text may quote what it fetched.
    throw failed(config, "(the host's function) threw");
  }
  if (given === 'late') {
    throw failed(config, `(the host's function) did not answer within ${timeoutMs / 1000} s`);
  }
  if (given === undefined) return {};
  return checked(config, given, "(the host's function) gave");
}

/** Runs the command without a shell, bounded in time and output, and reads its headers. */
function runHeadersHelper(
  config: RemoteServerConfig<'sse' | 'http'>,
  words: readonly string[],
  reason: McpHeadersReason,
  timeoutMs: number,
): Promise<GivenHeaders> {
  const [program = '', ...args] = words;
  const said = `"${program}"`;
  return new Promise<GivenHeaders>((resolve, reject) => {
    let child: ChildProcessByStdio<null, Readable, null>;
    try {
      child = spawn(program, args, {
        shell: false,
        stdio: ['ignore', 'pipe', 'ignore'],
        // Its own process group, so a timeout ends whatever it started too.
        detached: process.platform !== 'win32',
        windowsHide: true,
        env: {
          ...process.env,
          EPOCH_MCP_SERVER_NAME: config.name,
          EPOCH_MCP_SERVER_URL: config.url,
          EPOCH_MCP_HEADERS_REASON: reason,
        },
      });
    } catch {
      // Node's own words here quote the arguments, which may carry a secret.
      reject(failed(config, `${said} could not be started`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(failed(config, why));
    };
    // Settled at once, not at its end: whatever it started may hold its stdout open for a while.
    const stop = (why: string): void => {
      fail(why);
      kill(child.pid);
    };
    const timer = setTimeout(
      () => stop(`${said} did not finish within ${timeoutMs / 1000} s and was stopped`),
      timeoutMs,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > HEADERS_HELPER_MAX_OUTPUT_BYTES) {
        stop(
          `${said} printed more than ${HEADERS_HELPER_MAX_OUTPUT_BYTES / 1024} KiB and was stopped`,
        );
        return;
      }
      chunks.push(chunk);
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'ENOENT'
          ? `${said} was not found (a bare name is looked up on PATH; a path is relative to the file that names it)`
          : `${said} could not be started (${error.code ?? 'error'})`,
      ),
    );
    child.once('close', (code, signal) => {
      if (code !== 0) {
        fail(`${said} ${code === null ? `was ended by ${signal}` : `exited with code ${code}`}`);
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        fail(`${said} printed something that is not JSON`);
        return;
      }
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        resolve(checked(config, parsed, `${said} printed`));
      } catch (error) {
        reject(error);
      }
    });
  });
}

// RFC 9110 token characters: what a header name may be.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A JSON object of header names and string values, none able to break a request. */
function checked(
  config: RemoteServerConfig<'sse' | 'http'>,
  value: unknown,
  gave: string,
): GivenHeaders {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw failed(config, `${gave} no JSON object of headers (e.g. {"Authorization": "Bearer …"})`);
  }
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(value)) {
    // A name is no secret and is needed to fix it; it is shown only when it is a header name.
    if (!HEADER_NAME.test(name)) throw failed(config, `${gave} a key that is not a header name`);
    if (typeof header !== 'string') {
      throw failed(config, `${gave} a value for "${name}" that is not a string`);
    }
    if (/[\r\n\0]/.test(header)) {
      throw failed(config, `${gave} a value for "${name}" that holds a line break or NUL`);
    }
    headers[name] = header;
  }
  return headers;
}

function kill(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
