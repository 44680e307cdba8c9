// Another client's JSON file (comments and trailing commas allowed) as a value: its nesting bounded
// before the parser, which recurses, sees it, and every key kept as the file's own, so a server
// called `__proto__` is a server like any other, not the prototype of the object that holds it.
import { describeSyntaxError } from '@epoch-agent/plugin-mcp/config';
import { createScanner, type Node, type ParseError, parseTree } from 'jsonc-parser';
import type { ClientFile } from './found-server.js';

/**
 * Deeper than this, a file is refused: a client's file needs a handful of levels (Claude Code's
 * ~/.claude.json about ten), and the parser's recursion overflows the stack a few thousand down.
 */
export const MAX_CLIENT_FILE_DEPTH = 256;

export type ClientJson =
  | { readonly ok: true; readonly value: unknown }
  | (ClientFile & { readonly ok: false; readonly problem: string });

/** The text as JSON with comments; a syntax error or nesting too deep is the file's problem. */
export function parseClientJson(text: string, file: ClientFile): ClientJson {
  const deep = tooDeepLine(text);
  if (deep !== undefined) {
    return {
      ...file,
      ok: false,
      problem: `${file.path}:${deep}: objects and lists nest more than ${MAX_CLIENT_FILE_DEPTH} levels deep there; nothing of it was imported. Fix the file, or import a file that holds only its servers with --file.`,
    };
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, allowEmptyContent: true });
  const first = errors[0];
  if (first !== undefined) {
    const before = text.slice(0, first.offset);
    const line = before.split('\n').length;
    const column = first.offset - before.lastIndexOf('\n');
    // The loader's words for it, not the parser's code; never the text, which may hold a token.
    return {
      ...file,
      ok: false,
      problem: `${file.path}:${line}:${column}: JSON syntax error: ${describeSyntaxError(first)}; nothing of it was imported. Fix it there, or import a file that holds only its servers with --file.`,
    };
  }
  return { ok: true, value: root === undefined ? undefined : nodeValue(root) };
}

/** The 1-based line of the first `{` or `[` deeper than the bound (a loop: no recursion). */
function tooDeepLine(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  // By the token's character (jsonc-parser's token kinds are a const enum); to the first token that
  // starts at the end of the text (after an unterminated `/*` the end token is not of length 0).
  for (scanner.scan(); scanner.getTokenOffset() < text.length; scanner.scan()) {
    if (scanner.getTokenLength() !== 1) continue;
    const char = text[scanner.getTokenOffset()];
    if (char === '{' || char === '[') {
      depth += 1;
      if (depth > MAX_CLIENT_FILE_DEPTH) return scanner.getTokenStartLine() + 1;
    } else if (char === '}' || char === ']') {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** The value of a node; recursion bounded by MAX_CLIENT_FILE_DEPTH. A key given twice: the last. */
function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key === undefined || value === undefined) continue;
        // Not `out[key] = …`: for `__proto__` that sets the prototype and the key is gone.
        Object.defineProperty(out, String(key.value), {
          value: nodeValue(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}
