// A readable diff of two definitions of one tool (the pinned one and the one the server gives
// now): both as indented JSON with sorted keys, compared line by line, for a person deciding
// whether to approve the change.
import type { McpToolDefinition } from './definition.js';

export interface McpDefinitionLine {
  readonly kind: 'same' | 'removed' | 'added';
  readonly text: string;
}

// The lines a longest-common-subsequence table may span between the common head and tail: its
// cost is their product, so a huge definition (a server may send megabytes) cannot take quadratic
// time. Past it the middle shows as all removed, then all added.
const MAX_TABLE_CELLS = 4_000_000;

/** Both definitions as indented JSON (keys sorted), line by line; `before` undefined: all added. */
export function definitionDiff(
  before: McpToolDefinition | undefined,
  after: McpToolDefinition,
): McpDefinitionLine[] {
  const added = lines(after);
  if (before === undefined) return added.map((text) => ({ kind: 'added', text }));
  return diffLines(lines(before), added);
}

function lines(definition: McpToolDefinition): string[] {
  return JSON.stringify(sorted(definition), null, 2).split('\n');
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).toSorted();
  return Object.fromEntries(
    keys.map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}

function diffLines(a: readonly string[], b: readonly string[]): McpDefinitionLine[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const same = (text: string): McpDefinitionLine => ({ kind: 'same', text });
  const middle = middleDiff(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}

function middleDiff(a: readonly string[], b: readonly string[]): McpDefinitionLine[] {
  const removed = (text: string): McpDefinitionLine => ({ kind: 'removed', text });
  const added = (text: string): McpDefinitionLine => ({ kind: 'added', text });
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_TABLE_CELLS) {
    return [...a.map(removed), ...b.map(added)];
  }
  // common[i * width + j]: the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const common = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i * width + j] =
        a[i] === b[j]
          ? (common[(i + 1) * width + j + 1] as number) + 1
          : Math.max(common[(i + 1) * width + j] as number, common[i * width + j + 1] as number);
    }
  }
  const out: McpDefinitionLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i] as string });
      i++;
      j++;
    } else if ((common[(i + 1) * width + j] as number) >= (common[i * width + j + 1] as number)) {
      out.push(removed(a[i++] as string));
    } else {
      out.push(added(b[j++] as string));
    }
  }
  while (i < n) out.push(removed(a[i++] as string));
  while (j < m) out.push(added(b[j++] as string));
  return out;
}
