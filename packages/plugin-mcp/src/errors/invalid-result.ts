// An answer the SDK found not valid MCP, told in a line: each field that is wrong and what is wrong
// with it. The SDK's message holds its validator's issues as indented JSON (twenty lines for two
// fields), which a status shows whole; a person needs the field path and the complaint.
import { visibleText } from '@epoch-agent/infra';

/** Issues named before "and N more". */
const MAX_ISSUES = 3;
/** Each complaint and path is a server's doing in part (an enum's values, a key): kept short. */
const MAX_PART = 200;

interface Issue {
  readonly path?: readonly unknown[];
  readonly message?: unknown;
}

/**
 * "Invalid result for tools/list: [{…"path": ["tools"], "message": "…"}]" as "tools: …"; a
 * message of any other form as it is, its controls made visible.
 */
export function invalidResultText(message: string): string {
  const prefix = /^Invalid result for [^:]*: /.exec(message)?.[0] ?? '';
  const issues = issuesOf(message.slice(prefix.length));
  if (issues === undefined) return visibleText(message);
  const told = issues.slice(0, MAX_ISSUES).map(({ path = [], message: said }) => {
    const field = path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`));
    const where = field.join('').replace(/^\./, '') || 'the result';
    return visibleText(`${where}: ${String(said ?? 'not valid')}`, { max: MAX_PART });
  });
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
  return `${told.join('; ')}${more}`;
}

function issuesOf(text: string): readonly Issue[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isIssue(value: unknown): value is Issue {
  return (
    typeof value === 'object' &&
    value !== null &&
    (!('path' in value) || Array.isArray((value as Issue).path))
  );
}
