// Another client's variable references, written as ours: `${NAME}` (and `${NAME:-default}`) is
// read from the environment when the server starts, and `$$` is a literal `$`. Every `$` that is
// not a reference we can write is escaped, so it stays the text the other client meant.
import { basename } from 'node:path';

/**
 * How a client writes references: `none` has none (Claude Desktop, Codex); `claude-code` has ours
 * already; `shell` is `$NAME` and `${NAME}` (Gemini CLI); `editor` is `${env:NAME}`,
 * `${workspaceFolder}`, `${userHome}`, `${input:id}` (VS Code, Cursor, Windsurf).
 */
export type RefSyntax = 'none' | 'claude-code' | 'shell' | 'editor';

const PATTERNS: Readonly<Record<RefSyntax, RegExp>> = {
  none: /\$/g,
  'claude-code': /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$/g,
  shell: /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$/g,
  editor: /\$\{([^}]*)\}|\$/g,
};

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A VS Code input (`inputs` of its mcp.json) that a value asks for with `${input:id}`. */
export interface EditorInput {
  readonly id: string;
  readonly password: boolean;
}

export interface RefContext {
  readonly syntax: RefSyntax;
  readonly home: string;
  /** The workspace folder, for a project's file; undefined for a user file. */
  readonly workspace: string | undefined;
  readonly separator: string;
  readonly inputs: ReadonlyMap<string, EditorInput>;
}

/** `value` (of field `where`, e.g. `env.API_KEY`) with its references written as ours. */
export function translateRefs(
  value: string,
  where: string,
  context: RefContext,
  note: (text: string) => void,
): string {
  let escaped = false;
  const out = value.replace(PATTERNS[context.syntax], (match, braced?: string, bare?: string) => {
    if (match === '$') {
      escaped = true;
      return '$$';
    }
    if (context.syntax === 'claude-code') return match;
    if (context.syntax === 'shell') return `\${${braced ?? bare}}`;
    // One that means nothing here has said so in its own note, and stays as text.
    return editorRef(braced ?? '', where, context, note) ?? `$${match}`;
  });
  if (escaped) {
    note(
      `${where}: each "$" that is not a variable epoch can read is written "$$" (epoch reads \${NAME} as a variable).`,
    );
  }
  return out;
}

/** One `${…}` of an editor's: ours, or undefined when it means nothing outside the editor. */
function editorRef(
  inner: string,
  where: string,
  context: RefContext,
  note: (text: string) => void,
): string | undefined {
  const [kind = '', ...rest] = inner.split(':');
  const arg = rest.join(':');
  if (kind === 'env' && NAME.test(arg)) return `\${${arg}}`;
  if (kind === 'input') {
    const input = context.inputs.get(arg);
    const variable = variableName(arg);
    const what =
      input?.password === true ? 'a password the editor asks for' : 'an input the editor asks for';
    note(
      `${where}: "\${input:${arg}}" is ${what}; it is written as \${${variable}}: set ${variable} in the environment epoch runs in.`,
    );
    return `\${${variable}}`;
  }
  if (inner === 'userHome') return context.home;
  if (inner === 'pathSeparator' || inner === '/') return context.separator;
  if (inner === 'workspaceFolder' || inner === 'workspaceFolderBasename') {
    if (context.workspace !== undefined) {
      return inner === 'workspaceFolder' ? context.workspace : basename(context.workspace);
    }
    note(
      `${where}: "\${${inner}}" has no meaning outside a workspace (this is a user file); it is kept as text: replace it with a path by hand.`,
    );
    return undefined;
  }
  note(
    `${where}: "\${${inner}}" is the other client's own variable; it is kept as text: replace it by hand.`,
  );
  return undefined;
}

/** An input's id as an environment variable's name: `api-key` -> `API_KEY`. */
export function variableName(id: string): string {
  const name = id.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return /^[0-9]/.test(name) || name === '' ? `_${name}` : name;
}
