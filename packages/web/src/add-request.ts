// POST /api/mcp's body, checked field by field before anything touches the file: what the "add
// server" form says (a name, a transport, a command with its arguments or a URL, env variables)
// becomes the runtime's AddServerInput, or one message per field that is wrong. The runtime checks
// again (the name, and that the server would load); this layer only makes sure the request is the
// form's shape, so each mistake lands under the input it came from.
import { type AddServerInput, SERVER_NAME_PATTERN } from '@epoch-agent/runtime';
import type { AddServerField } from './api-types.js';
import { envNameProblem } from './form-rules.js';

export type FieldErrors = Partial<Record<AddServerField, string>>;

export type AddRequestCheck =
  | { readonly ok: true; readonly input: AddServerInput }
  | { readonly ok: false; readonly fields: FieldErrors };

const TRANSPORTS = ['stdio', 'sse', 'http'] as const;

export function checkAddRequest(body: unknown): AddRequestCheck {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return {
      ok: false,
      fields: { name: 'the request body must be a JSON object: { name, transport, … }' },
    };
  }
  const b = body as { readonly [key: string]: unknown };
  const fields: FieldErrors = {};
  const name = typeof b.name === 'string' ? b.name : '';
  if (name === '') fields.name = 'give the server a name.';
  else if (!SERVER_NAME_PATTERN.test(name)) {
    fields.name = `"${name}" can only use letters, digits, "_" and "-": it becomes part of tool names (mcp__<server>__<tool>) that model providers restrict.`;
  }
  const transport = TRANSPORTS.find((t) => t === b.transport);
  if (transport === undefined) {
    fields.transport = `the transport must be one of ${TRANSPORTS.join(', ')}.`;
    return { ok: false, fields };
  }
  const given = (field: AddServerField) => b[field] !== undefined && b[field] !== '';
  if (transport === 'stdio') {
    const command = typeof b.command === 'string' ? b.command.trim() : '';
    if (command === '') fields.command = 'give the command that starts the server.';
    const args = b.args ?? [];
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      fields.args = 'the arguments must be a list of strings.';
    }
    const env = checkEnv(b.env ?? {});
    if (typeof env === 'string') fields.env = env;
    if (given('url')) fields.url = 'a stdio server has no URL: give a command instead.';
    if (Object.keys(fields).length > 0 || typeof env === 'string') return { ok: false, fields };
    return { ok: true, input: { name, transport, command, args: args as string[], env } };
  }
  const url = typeof b.url === 'string' ? b.url.trim() : '';
  if (url === '') fields.url = `give the URL of the ${transport} server.`;
  else if (!/^https?:\/\//i.test(url)) fields.url = 'the URL must start with http:// or https://.';
  if (given('command') || (Array.isArray(b.args) && b.args.length > 0)) {
    fields.command = `a ${transport} server runs no command: give its URL instead.`;
  }
  if (b.env !== undefined && Object.keys(Object(b.env)).length > 0) {
    fields.env = `a ${transport} server takes no env variables; its headers (for example Authorization) are written by hand in mcp.json.`;
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, input: { name, transport, url } };
}

/** The env map, or what is wrong with it. */
function checkEnv(env: unknown): Record<string, string> | string {
  if (env === null || typeof env !== 'object' || Array.isArray(env)) {
    return 'env must be an object of variable names to values.';
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const problem = envNameProblem(key);
    if (problem !== undefined) return problem;
    // The value is a secret: the message names the variable, never what it holds.
    if (typeof value !== 'string') return `the value of ${key} must be a string.`;
    out[key] = value;
  }
  return out;
}
