// Searching what left the plugin for the secrets a test placed in a config: which values the
// policy promises to hide (MIN_SECRET_LENGTH), every string of every surface (statuses, errors,
// log lines) taken as it is, never as JSON, whose escapes would hide a leak; and an HTTP server
// that echoes the request it got, as a server's error page might.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MIN_SECRET_LENGTH, type SecretKind } from '@epoch-agent/infra';
import type { McpServerStatus } from '../../src/types.js';

/** A value the test placed, and what the policy promises for it. */
export interface Placed {
  readonly value: string;
  readonly kind: SecretKind;
  readonly field: string;
}

/**
 * The placed values the policy must hide: those long enough to be looked for, less any inside a
 * value that may be shown (a setting too short to be a secret): a test that drew the same text
 * for a password and for another server's tenant header sees it in the tenant, rightly shown.
 */
export function mustHide(placed: readonly Placed[]): Placed[] {
  const long = ({ value, kind }: Placed) => value.length >= MIN_SECRET_LENGTH[kind];
  const shown = placed.filter((entry) => !long(entry)).map(({ value }) => value);
  return placed.filter((entry) => long(entry) && !shown.some((text) => text.includes(entry.value)));
}

/** A URL's form of a value placed in it, and the value itself: a server may print either. */
export function inUrl(value: string, kind: SecretKind, field: string): Placed[] {
  const encoded = encodeURIComponent(value);
  return [{ value, kind, field }, ...(encoded === value ? [] : [{ value: encoded, kind, field }])];
}

/** Every text that left the plugin, by surface. */
export interface Surfaces {
  readonly stderrTail: string[];
  readonly statusMessage: string[];
  /** Everything else in a status: names, targets, server info. */
  readonly status: string[];
  readonly toolError: string[];
  readonly log: string[];
}

/** Every string in `value`, at any depth: JSON of it would hide a leak behind escapes. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

export function statusSurfaces(
  statuses: readonly McpServerStatus[],
): Omit<Surfaces, 'toolError' | 'log'> {
  const out = { stderrTail: [] as string[], statusMessage: [] as string[], status: [] as string[] };
  for (const status of statuses) {
    if ('stderrTail' in status) out.stderrTail.push(status.stderrTail);
    if ('error' in status) out.statusMessage.push(status.error.message);
    const rest = Object.entries(status).filter(([key]) => key !== 'stderrTail' && key !== 'error');
    out.status.push(...strings(rest.map(([, value]) => value)));
  }
  return out;
}

/** Which placed values, long enough to be looked for, appear on which surface. */
export function leaks(surfaces: Surfaces, placed: readonly Placed[]): string[] {
  return Object.entries(surfaces).flatMap(([surface, texts]: [string, string[]]) =>
    mustHide(placed)
      .filter(({ value }) => texts.some((text) => text.includes(value)))
      .map(({ value, field }) => `${surface} leaked ${field} ${JSON.stringify(value)}`),
  );
}

export function assertNoLeak(surfaces: Surfaces, placed: readonly Placed[]): void {
  const found = leaks(surfaces, placed);
  if (found.length > 0) throw new Error(`secrets left the plugin:\n${found.join('\n')}`);
}

/**
 * An HTTP server that answers every request with 500 and the request it got: its headers in the
 * status line's reason (which a status quotes whole), its URL and headers in the body.
 */
export async function echoingHttpServer(): Promise<{
  url: string;
  /** The URL and headers of every request it got: what the client really sent. */
  requests: { url: string; headers: Record<string, string | string[] | undefined> }[];
  close(): Promise<void>;
}> {
  const requests: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(500, `Echo ${req.rawHeaders.join(' ')}`, { 'content-type': 'text/plain' });
    // `<echo>`, which no test secret can blank (see the echo-secrets-server fixture).
    res.end(`<echo> ${req.method} ${req.url}\n${req.rawHeaders.join('\n')}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
