// A tool's arguments from the command line: `--args '<json object>'`, then each `--arg key=value`
// on top, the value read as the tool's input schema says (a string stays a string: `--arg n=007`
// for a string parameter is "007", for a number 7), through the parameter's `$ref`s where it has
// them. Missing required parameters are named before anything is sent; a name the schema does not
// have is sent as given (a schema may allow more than it lists) with a warning, since it is far
// more often a typo.
import type { EpochTool, JsonSchema } from '@epoch-agent/protocol';
import { followRefs, refProblemText, suggest } from '@epoch-agent/runtime/config';
import { UsageError } from '../command.js';
import { parameters } from '../render/tools.js';

export function toolArgs(
  tool: EpochTool,
  json: string | undefined,
  pairs: readonly string[],
  warn: (text: string) => void,
): Record<string, unknown> {
  const args: Record<string, unknown> = json === undefined ? {} : parseObject(json);
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError('--arg takes key=value: one of them has no name before "="');
    const key = pair.slice(0, at);
    args[key] = typed(key, pair.slice(at + 1), declaredType(tool, key));
  }
  const known = parameters(tool).map(({ name }) => name);
  // A schema that lists no properties says nothing about which names it takes.
  if (known.length > 0) {
    for (const key of Object.keys(args).filter((key) => !known.includes(key))) {
      const meant = suggest(key, known);
      warn(
        `epoch mcp call: warning: tool "${tool.name}" has no parameter "${key}"${meant === undefined ? '' : `; did you mean "${meant}"?`} It is sent as given. Its parameters: ${known.join(', ')}\n`,
      );
    }
  }
  const missing = parameters(tool).filter(({ name, required }) => required && !(name in args));
  if (missing.length > 0) {
    const list = missing.map(({ name, type }) => `${name} (${type})`).join(', ');
    throw new UsageError(
      `tool "${tool.name}" needs ${list}: give each as --arg name=value, or all as --args '{...}'`,
    );
  }
  return args;
}

function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text, which may hold a secret: not repeated.
    throw new UsageError(`--args is not valid JSON; give one object: --args '{"key": "value"}'`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`--args must be one JSON object: --args '{"key": "value"}'`);
  }
  return value as Record<string, unknown>;
}

/** The `type` the input schema gives parameter `key`, its `$ref`s followed; undefined for none. */
function declaredType(tool: EpochTool, key: string): unknown {
  const properties = tool.inputSchema.properties;
  const property: unknown =
    properties !== null && typeof properties === 'object' && Object.hasOwn(properties, key)
      ? (properties as JsonSchema)[key]
      : undefined;
  if (property === null || typeof property !== 'object') return undefined;
  const followed = followRefs(tool.inputSchema, property as JsonSchema);
  if (followed.kind === 'schema') return followed.schema.type;
  // Another document is never fetched: the value is read as one whose type the schema does not say.
  if (followed.code === 'remote') return undefined;
  // A ref that leads nowhere is the server's mistake; guessing a type would hide it.
  throw new UsageError(
    `tool "${tool.name}": --arg ${key} cannot be read as its input schema says: ${refProblemText(followed)}. Give it in --args '{"${key}": ...}' instead`,
  );
}

function typed(key: string, value: string, type: unknown): unknown {
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('string')) return value;
  if (types.includes('number') || types.includes('integer')) {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) {
      throw new UsageError(`--arg ${key} must be a number`);
    }
    if (!types.includes('number') && !Number.isInteger(number)) {
      throw new UsageError(`--arg ${key} must be a whole number (its schema says integer)`);
    }
    return number;
  }
  if (types.includes('boolean')) {
    if (value === 'true' || value === 'false') return value === 'true';
    throw new UsageError(`--arg ${key} must be true or false`);
  }
  if (types.includes('object') || types.includes('array')) {
    try {
      return JSON.parse(value);
    } catch {
      throw new UsageError(
        `--arg ${key} must be JSON (an ${types.includes('array') ? 'array' : 'object'})`,
      );
    }
  }
  // No type in the schema: JSON where it parses (numbers, true, objects), else the text itself.
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
