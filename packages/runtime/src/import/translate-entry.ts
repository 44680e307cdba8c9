// One server of another client's file, translated field by field into an entry of ours. Each client
// gives a Record of rules for the fields it has; a field without a rule is named in a note, never
// dropped in silence, and so is a value of the wrong type.
import { isAbsolute } from 'node:path';
import { type RefContext, translateRefs } from './variable-refs.js';

/** The entry being built, and what is said about it. */
export class EntryDraft {
  readonly entry: Record<string, unknown> = {};
  readonly notes: string[] = [];
  readonly #refs: RefContext;
  readonly #platform: NodeJS.Platform;

  constructor(refs: RefContext, platform: NodeJS.Platform) {
    this.#refs = refs;
    this.#platform = platform;
  }

  get platform(): NodeJS.Platform {
    return this.#platform;
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** A string the server reads (command, args, env, cwd, url, headers), its variables as ours. */
  text(value: string, where: string): string {
    return translateRefs(value, where, this.#refs, (text) => this.note(text));
  }

  /** `value` must be a string; its text, or undefined with a note. */
  string(value: unknown, field: string): string | undefined {
    if (typeof value === 'string') return this.text(value, field);
    this.note(`${field} is not a string, so it was not imported.`);
    return undefined;
  }

  strings(value: unknown, field: string): string[] | undefined {
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      return value.map((item: string, index) => this.text(item, `${field}[${index}]`));
    }
    this.note(`${field} is not a list of strings, so it was not imported.`);
    return undefined;
  }

  /** An object of strings (env, headers), each value's variables as ours. */
  stringMap(value: unknown, field: string): Record<string, string> | undefined {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.note(`${field} is not an object of strings, so it was not imported.`);
      return undefined;
    }
    const out: [string, string][] = [];
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string') out.push([key, this.text(item, `${field}.${key}`)]);
      else this.note(`${field}.${key} is not a string, so it was not imported.`);
    }
    // fromEntries, not `out[key] = …`, which drops a key called `__proto__`.
    return Object.fromEntries(out);
  }

  /**
   * Adds `values` to the object field `field` of the entry (env, headers); `from` is the client's
   * field they were written in, which a note about them names (Codex's `bearer_token_env_var`).
   */
  merge(field: string, values: Readonly<Record<string, string>>, from: string = field): void {
    const had = this.entry[field];
    this.entry[field] = { ...(typeof had === 'object' ? had : {}), ...values };
    if (field === 'headers' && !this.headersFrom.includes(from)) this.headersFrom.push(from);
  }

  /** The client's fields the entry's headers came from, in the order they were read. */
  readonly headersFrom: string[] = [];
}

export type FieldRule = (value: unknown, draft: EntryDraft) => void;

/** The rules of a client: one per field its format has. */
export type FieldRules = Readonly<Record<string, FieldRule>>;

/** A field our entries have under the same meaning: copied, its strings translated. */
export const COMMON_RULES: FieldRules = {
  command: (value, draft) => set(draft, 'command', draft.string(value, 'command')),
  args: (value, draft) => set(draft, 'args', draft.strings(value, 'args')),
  env: (value, draft) => {
    const env = draft.stringMap(value, 'env');
    if (env !== undefined) draft.merge('env', env);
  },
  cwd: (value, draft) => {
    const cwd = draft.string(value, 'cwd');
    // One that holds a variable is said about in the variable's note.
    if (cwd !== undefined && !isAbsolute(cwd) && !cwd.includes('$')) {
      draft.note(
        `cwd "${cwd}" is relative: epoch reads it relative to its own mcp.json's directory.`,
      );
    }
    set(draft, 'cwd', cwd);
  },
  url: (value, draft) => set(draft, 'url', draft.string(value, 'url')),
  headers: (value, draft) => {
    const headers = draft.stringMap(value, 'headers');
    if (headers !== undefined) draft.merge('headers', headers);
  },
  type: (value, draft) => transport(value, draft, 'type'),
  transport: (value, draft) => transport(value, draft, 'transport'),
  disabled: (value, draft) => {
    if (typeof value === 'boolean') draft.entry.enabled = !value;
    else draft.note('disabled is not true or false, so it was not imported.');
  },
  enabled: (value, draft) => {
    if (typeof value === 'boolean') draft.entry.enabled = value;
    else draft.note('enabled is not true or false, so it was not imported.');
  },
};

const TRANSPORTS: Readonly<Record<string, 'stdio' | 'sse' | 'http'>> = {
  stdio: 'stdio',
  sse: 'sse',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
};

function transport(value: unknown, draft: EntryDraft, field: string): void {
  const kind = typeof value === 'string' ? TRANSPORTS[value] : undefined;
  if (kind === undefined) {
    draft.note(
      `${field} ${JSON.stringify(value)} is not a transport epoch has (stdio, sse, http), so it was not imported.`,
    );
    return;
  }
  draft.entry.transport = kind;
}

export function set(draft: EntryDraft, field: string, value: unknown): void {
  if (value !== undefined) draft.entry[field] = value;
}

/** A field that has no setting of ours: the note says why, once. */
export function notMapped(why: string): FieldRule {
  return (_value, draft) => draft.note(why);
}

/** Milliseconds of another client as our seconds. */
export function seconds(field: string, ours: string, unit: 'ms' | 's'): FieldRule {
  return (value, draft) => {
    if (typeof value !== 'number' || !(value > 0)) {
      draft.note(`${field} is not a positive number, so it was not imported.`);
      return;
    }
    draft.entry[ours] = unit === 'ms' ? value / 1000 : value;
  };
}

/** A list of tool names: include_tools or exclude_tools. */
export function toolList(field: string, ours: 'include_tools' | 'exclude_tools'): FieldRule {
  return (value, draft) => {
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      draft.entry[ours] = value;
    } else draft.note(`${field} is not a list of tool names, so it was not imported.`);
  };
}

/** `raw` (one server of the client's file) translated by `rules`; unknown fields are notes. */
export function translateEntry(raw: unknown, rules: FieldRules, draft: EntryDraft): void {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    draft.note('the entry is not an object, so there is nothing to import.');
    return;
  }
  for (const [field, value] of Object.entries(raw)) {
    const rule = Object.hasOwn(rules, field) ? rules[field] : undefined;
    if (rule === undefined) draft.note(`${field} is not imported: epoch has no such setting.`);
    else rule(value, draft);
  }
  stdioHeadersNote(draft);
  windowsNote(draft);
}

/**
 * Headers are sent to a server reached by URL; one that runs a command (stdio) gets none. Kept,
 * they would make the entry one the loader refuses, blamed on "headers", a field the person may
 * never have written: they are left out, and the note names the client's own fields.
 */
function stdioHeadersNote(draft: EntryDraft): void {
  const { entry } = draft;
  const stdio =
    entry.url === undefined && (entry.transport === undefined || entry.transport === 'stdio');
  if (!stdio || entry.headers === undefined || entry.command === undefined) return;
  delete entry.headers;
  const fields = draft.headersFrom.join(', ');
  const verb = draft.headersFrom.length === 1 ? 'is' : 'are';
  draft.note(
    `${fields} ${verb} not imported: ${draft.headersFrom.length === 1 ? 'it is' : 'they are'} for a server reached by URL, and this one runs a command (stdio), which is sent no headers.`,
  );
}

/** A Windows command is kept as written; off Windows, the note says it will not run here. */
function windowsNote(draft: EntryDraft): void {
  const { command } = draft.entry;
  if (typeof command !== 'string' || draft.platform === 'win32') return;
  const windows =
    /^[A-Za-z]:[\\/]/.test(command) ||
    command.includes('\\') ||
    /^cmd(\.exe)?$/i.test(command) ||
    /\.(exe|cmd|bat)$/i.test(command);
  if (!windows) return;
  draft.note(
    `command "${command}" is a Windows command, kept as written: it cannot run on this machine (${draft.platform}); write the program it starts (e.g. "npx") instead.`,
  );
}
