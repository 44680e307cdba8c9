// A server's tools as the model is given them: the name it sees, the title, the annotation hints
// as badges, the description, and the parameters.
import type { ToolView } from '../src/api-types.js';
import { formatTokens, serverText } from './text.js';

type Hint = Exclude<keyof ToolView['annotations'], 'title'>;

// Every hint MCP defines, so a new one added to ToolAnnotations fails to compile here. Absent
// means unknown, not false: no badge.
const BADGES: Record<Hint, { readonly true: string; readonly false: string }> = {
  readOnlyHint: { true: 'read-only', false: 'writes' },
  destructiveHint: { true: 'destructive', false: 'non-destructive' },
  idempotentHint: { true: 'idempotent', false: 'not idempotent' },
  openWorldHint: { true: 'open world', false: 'closed world' },
};

interface Props {
  /** The server's name, to tell a tool name it chose from one made unique for the model. */
  readonly server: string;
  readonly tools: readonly ToolView[];
}

export function ToolList({ server, tools }: Props) {
  if (tools.length === 0) return null;
  return (
    <details class="tools">
      <summary>Tools ({tools.length})</summary>
      <ul>
        {tools.map((tool) => (
          <li key={tool.name} data-tool={tool.name}>
            <div class="tool-head">
              <code class="tool-name">{tool.name}</code>
              {tool.title !== undefined && <span class="title">{serverText(tool.title)}</span>}
              {(Object.keys(BADGES) as Hint[]).map((hint) => {
                const value = tool.annotations[hint];
                if (value === undefined) return null;
                return (
                  <span key={hint} class={`badge ${hint} ${String(value)}`}>
                    {BADGES[hint][value ? 'true' : 'false']}
                  </span>
                );
              })}
              <span class="cost">≈ {formatTokens(tool.contextTokens)}</span>
            </div>
            {tool.name !== `mcp__${server}__${tool.serverName}` && (
              <p class="raw">
                <code>{serverText(tool.serverName)}</code> on the server
              </p>
            )}
            {tool.description !== '' && <p class="description">{serverText(tool.description)}</p>}
            {tool.parameters.length > 0 && (
              <table class="parameters">
                <tbody>
                  {tool.parameters.map((p) => (
                    <tr key={p.name}>
                      <th scope="row">
                        <code>{serverText(p.name)}</code>
                        {p.required && <span class="required">required</span>}
                      </th>
                      <td>
                        <code>{serverText(p.type)}</code>
                      </td>
                      <td>{p.description === undefined ? null : serverText(p.description)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
