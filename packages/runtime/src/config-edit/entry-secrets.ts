// The secrets of one server's entry as written, and the entry's text with each of them replaced by
// a placeholder: what a front end may show of the entry (the connectors page's editor and its
// "copy"), and how an edited text gets its secrets back. Pure: text in, text out.
//
// A secret is what the redacted view hides (`redact`, `redactArgs`, `redactUrl`): every value
// under `env` or `headers` or under a credential-named key, a credential argument, a URL with
// credentials, a query or a fragment; and any other string holding one of those values. A
// placeholder names where the value was (`"<secret: env.API_KEY>"`), so a value left as its
// placeholder — even moved to another key — is written back exactly as it was in the file, escapes
// included. A comment inside the entry that holds a secret value or reads like it is about one
// (a commented-out token is common) is a placeholder too (`// <secret comment 1>`).
import { formatPath, isCredentialName, type PathSegment, redactArgs } from '@epoch-agent/infra';
import { getNodeValue, type Node, visit } from 'jsonc-parser';

/** What was hidden, by its placeholder: the original text of each secret in the file. */
export interface EntrySecrets {
  /** `<secret: env.API_KEY>` -> the string's token as written (quotes and escapes included). */
  readonly strings: ReadonlyMap<string, string>;
  /** `<secret comment 1>` -> the comment as written. */
  readonly comments: ReadonlyMap<string, string>;
}

export interface RedactedEntry {
  /** The entry's text, each secret replaced by its placeholder. */
  readonly text: string;
  readonly secrets: EntrySecrets;
}

const SECRET_MAPS = new Set(['env', 'headers']);
// Shorter values are too common to hide wherever they appear (`"1"`, `"info"`).
const MIN_CONTAINED = 6;
const ABOUT_A_SECRET =
  /token|secret|passw|api[-_ ]?key|bearer|authori[sz]ation|credential|private[-_ ]?key/i;
const PLACEHOLDER = /^<secret: (.+)>$/;
const COMMENT_PLACEHOLDER = /^(?:\/\/ ?|\/\* ?)(<secret comment \d+>)(?: ?\*\/)?$/;

export function stringPlaceholder(path: readonly PathSegment[]): string {
  return `<secret: ${formatPath(path)}>`;
}

/** Whether a value of an entry is a placeholder of a secret, which only the editor can resolve. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** `node` (an entry's object in `text`) with its secrets replaced by placeholders. */
export function redactEntry(text: string, node: Node): RedactedEntry {
  const start = node.offset;
  const entry = getNodeValue(node) as unknown;
  const args = argsOf(entry);
  const hiddenArgs = args === undefined ? undefined : redactArgs(args);
  const found: { node: Node; path: PathSegment[] }[] = [];
  const others: { node: Node; path: PathSegment[] }[] = [];
  walkStrings(node, [], false, (string, path, underSecretKey) => {
    const value = String(string.value);
    const index = path[1];
    const isArg = path.length === 2 && path[0] === 'args' && typeof index === 'number';
    const secret =
      underSecretKey ||
      (isArg && hiddenArgs !== undefined && hiddenArgs[index] !== value) ||
      urlHasSecret(value);
    (secret ? found : others).push({ node: string, path });
  });
  const values = found.map(({ node: n }) => String(n.value));
  for (const other of others) {
    const value = String(other.node.value);
    if (values.some((v) => v.length >= MIN_CONTAINED && value.includes(v))) found.push(other);
  }

  const edits: { from: number; to: number; text: string }[] = [];
  const strings = new Map<string, string>();
  for (const { node: n, path } of found) {
    const placeholder = stringPlaceholder(path);
    strings.set(placeholder, text.slice(n.offset, n.offset + n.length));
    edits.push({ from: n.offset, to: n.offset + n.length, text: JSON.stringify(placeholder) });
  }
  const comments = new Map<string, string>();
  const span = text.slice(start, start + node.length);
  visit(span, {
    onComment: (offset, length) => {
      const comment = span.slice(offset, offset + length);
      const secret =
        ABOUT_A_SECRET.test(comment) ||
        values.some((v) => v.length >= MIN_CONTAINED && comment.includes(v));
      if (!secret) return;
      const placeholder = `<secret comment ${comments.size + 1}>`;
      comments.set(placeholder, comment);
      const shown = comment.startsWith('//') ? `// ${placeholder}` : `/* ${placeholder} */`;
      edits.push({ from: start + offset, to: start + offset + length, text: shown });
    },
  });
  return {
    text: applyEdits(text, start, start + node.length, edits),
    secrets: { strings, comments },
  };
}

export type Restored =
  | { readonly ok: true; readonly text: string }
  /** A placeholder the file has no secret for; `path` is where it is in the entry. */
  | { readonly ok: false; readonly placeholder: string; readonly path: string };

/** `node` (an entry's object in `text`) with each placeholder put back to the secret it stands for. */
export function restoreSecrets(text: string, node: Node, secrets: EntrySecrets): Restored {
  const edits: { from: number; to: number; text: string }[] = [];
  let missing: { placeholder: string; path: string } | undefined;
  walkStrings(node, [], false, (string, path) => {
    const value = String(string.value);
    if (!isPlaceholder(value)) return;
    const original = secrets.strings.get(value);
    if (original === undefined) missing ??= { placeholder: value, path: formatPath(path) };
    else edits.push({ from: string.offset, to: string.offset + string.length, text: original });
  });
  const start = node.offset;
  const span = text.slice(start, start + node.length);
  visit(span, {
    onComment: (offset, length) => {
      const placeholder = COMMENT_PLACEHOLDER.exec(span.slice(offset, offset + length))?.[1];
      const original = placeholder === undefined ? undefined : secrets.comments.get(placeholder);
      if (placeholder !== undefined && original === undefined) {
        missing ??= { placeholder, path: 'a comment' };
      }
      if (original !== undefined) {
        edits.push({ from: start + offset, to: start + offset + length, text: original });
      }
    },
  });
  if (missing !== undefined) return { ok: false, ...missing };
  return { ok: true, text: applyEdits(text, start, start + node.length, edits) };
}

/** The path of the first placeholder among `entry`'s strings, or undefined. */
export function placeholderPath(entry: unknown, at: PathSegment[] = []): string | undefined {
  if (typeof entry === 'string') return isPlaceholder(entry) ? formatPath(at) : undefined;
  if (entry === null || typeof entry !== 'object') return undefined;
  const members: [PathSegment, unknown][] = Array.isArray(entry)
    ? entry.map((item, index) => [index, item])
    : Object.entries(entry);
  for (const [key, value] of members) {
    const found = placeholderPath(value, [...at, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

function walkStrings(
  node: Node,
  path: PathSegment[],
  underSecretKey: boolean,
  see: (string: Node, path: PathSegment[], underSecretKey: boolean) => void,
): void {
  switch (node.type) {
    case 'string':
      see(node, path, underSecretKey);
      return;
    case 'object':
      for (const member of node.children ?? []) {
        const [key, value] = member.children ?? [];
        if (key === undefined || value === undefined) continue;
        const name = String(key.value);
        const secret = underSecretKey || SECRET_MAPS.has(name) || isCredentialName(name);
        walkStrings(value, [...path, name], secret, see);
      }
      return;
    case 'array':
      for (const [index, item] of (node.children ?? []).entries()) {
        walkStrings(item, [...path, index], underSecretKey, see);
      }
      return;
    default:
      return;
  }
}

function argsOf(entry: unknown): string[] | undefined {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const { args } = entry as { args?: unknown };
  if (!Array.isArray(args)) return undefined;
  // Not strings: the loader refuses them; their strings are still read in their places.
  return args.map((arg) => (typeof arg === 'string' ? arg : ''));
}

/** A URL that carries credentials, a query or a fragment: the parts redactUrl hides. */
function urlHasSecret(value: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '';
  } catch {
    return false;
  }
}

/** text[from, to) with the (non-overlapping) edits made. */
function applyEdits(
  text: string,
  from: number,
  to: number,
  edits: readonly { from: number; to: number; text: string }[],
): string {
  let out = '';
  let at = from;
  for (const edit of [...edits].sort((a, b) => a.from - b.from)) {
    out += text.slice(at, edit.from) + edit.text;
    at = edit.to;
  }
  return out + text.slice(at, to);
}
