// A server's tools: those the model is given, under the name it sees, and those the user turned
// off, greyed, so they can be turned back on. Each with its switch, the title, the annotation hints
// as badges, the description, the parameters (with where a `$ref` one got its type) and what it
// costs (or would) in the context; its full schemas and its "Try" form on demand (tool-details.tsx).
// While "Find a tool" filters the page, only the tools that match are listed, open. The rows are
// rendered only while the list is open: a server's dozens of tools are a few thousand elements.
import { useRef, useState } from 'preact/hooks';
import type { ParameterView, ServerView, ToolView } from '../src/api-types.js';
import type { Api } from './api.js';
import { type ChoiceOutcome, ChoiceSwitch } from './choice-switch.js';
import { useGoneTools } from './gone-tools.js';
import { Markdown } from './markdown.js';
import { formatTokens, serverText } from './text.js';
import { ToolDetails } from './tool-details.js';
import type { ToolMatch } from './tool-filter.js';

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
  readonly server: ServerView;
  readonly api: Api;
  /** The server's PUT paths start here (`/api/mcp/<name>`). */
  readonly path: string;
  /** "Find a tool": only the tools that match are listed; undefined lists them all. */
  readonly match?: ToolMatch | undefined;
}

export function ToolList({ server, api, path, match }: Props) {
  const offered = new Set(server.tools.map((tool) => tool.serverName));
  const listed = [...server.tools, ...server.toolsOff];
  const { gone, dismiss } = useGoneTools(path, listed);
  const goneNames = new Set(gone.map((tool) => tool.serverName));
  const all = useFirstSeenOrder([...listed, ...gone]);
  // Opened by the person, kept apart from the filter's opening, so clearing it closes what it opened.
  const [opened, setOpened] = useState(false);
  const tools = match === undefined ? all : all.filter(match);
  if (tools.length === 0) return null;
  const off = server.toolsOff.length;
  const open = opened || match !== undefined;
  return (
    <details
      class="tools"
      open={open}
      onToggle={(e) => {
        if (match === undefined) setOpened(e.currentTarget.open);
      }}
    >
      <summary>
        {match === undefined ? (
          <>
            Tools ({listed.length}
            {off > 0 && `, ${off} off`})
          </>
        ) : (
          `Tools (${tools.length} of ${listed.length} match)`
        )}
      </summary>
      {open && (
        <ul>
          {tools.map((tool) => (
            <ToolRow
              key={tool.serverName}
              tool={tool}
              on={offered.has(tool.serverName)}
              gone={goneNames.has(tool.serverName) ? () => dismiss(tool) : undefined}
              server={server}
              api={api}
              path={`${path}/tools/${encodeURIComponent(tool.serverName)}`}
            />
          ))}
        </ul>
      )}
    </details>
  );
}

interface RowProps {
  readonly tool: ToolView;
  readonly on: boolean;
  /** The tool left the server's list while its Try was open: how to let it go. */
  readonly gone: (() => void) | undefined;
  readonly server: ServerView;
  readonly api: Api;
  /** The tool's path in the API (`/api/mcp/<server>/tools/<tool>`). */
  readonly path: string;
}

function ToolRow({ tool, on, gone, server, api, path }: RowProps) {
  const [outcome, setOutcome] = useState<ChoiceOutcome>();
  const isOn = (view: ServerView) => view.tools.some((t) => t.serverName === tool.serverName);
  return (
    <li
      data-tool={tool.name}
      data-offered={String(on)}
      {...(gone === undefined ? {} : { 'data-gone': 'true' })}
      class={on ? '' : 'off'}
    >
      <div class="tool-head">
        {gone === undefined && (
          <ChoiceSwitch
            api={api}
            path={`${path}/enabled`}
            server={server}
            isOn={isOn}
            label={`Tool ${serverText(tool.serverName)} of ${server.name}`}
            onOutcome={setOutcome}
          />
        )}
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
        {tool.task && (
          <span
            class="badge task"
            title="A long call: the server runs it as a task, followed to its end"
          >
            task
          </span>
        )}
        {on && tool.onDemand && (
          <span
            class="badge on-demand"
            title="Over the tool budget: the model finds it with mcp_search_tools"
          >
            on demand
          </span>
        )}
        <span class="cost">
          {gone !== undefined
            ? ''
            : !on
              ? `off: would add ≈ ${formatTokens(tool.contextTokens)}`
              : tool.onDemand
                ? `if offered, would add ≈ ${formatTokens(tool.contextTokens)}`
                : `≈ ${formatTokens(tool.contextTokens)}`}
        </span>
      </div>
      {outcome?.kind === 'saved' && (
        <p class="notice" role="status">
          {outcome.text}
        </p>
      )}
      {outcome?.kind === 'refused' && (
        <p class="problem" role="alert">
          {serverText(outcome.message)}
        </p>
      )}
      {tool.name !== `mcp__${server.name}__${tool.serverName}` && (
        <p class="raw">
          <code>{serverText(tool.serverName)}</code> on the server
        </p>
      )}
      {tool.description !== '' && <Markdown class="description" text={tool.description} />}
      {tool.parameters.length > 0 && (
        <table class="parameters">
          <tbody>
            {tool.parameters.map((p) => (
              <tr key={p.name}>
                <th scope="row">
                  <code>{serverText(p.name)}</code>
                  {p.required && (
                    <>
                      {' '}
                      <span class="required">required</span>
                    </>
                  )}
                </th>
                <td>
                  <code>{serverText(p.type)}</code>
                  <RefNote parameter={p} />
                </td>
                <td>{p.description === undefined ? null : serverText(p.description)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {gone !== undefined && (
        <p class="problem gone">
          {serverText(tool.serverName)} is no longer in {server.name}'s tool list, so it cannot be
          run; what you typed in its Try is kept below.{' '}
          <button type="button" onClick={gone}>
            Dismiss
          </button>
        </p>
      )}
      <ToolDetails
        api={api}
        path={path}
        name={tool.name}
        offered={on || gone !== undefined}
        gone={gone !== undefined}
        server={server}
      />
    </li>
  );
}

/**
 * Where a parameter defined by `$ref` got its type and description (the refs followed), or why it
 * has none: a ref that goes round in a circle, names nothing, or is in a document never fetched.
 */
function RefNote({ parameter }: { readonly parameter: ParameterView }) {
  if (parameter.problem !== undefined) {
    return <span class="ref problem">{serverText(parameter.problem)}</span>;
  }
  if (parameter.refs === undefined) return null;
  return (
    <span class="ref">
      from <code>{serverText(parameter.refs.join(' → '))}</code>
    </span>
  );
}

/**
 * The tools in the order the page first saw them: one turned off keeps its place instead of
 * moving to the end under the pointer (the view lists the offered ones first).
 */
function useFirstSeenOrder(tools: readonly ToolView[]): readonly ToolView[] {
  const seen = useRef(new Map<string, number>());
  for (const tool of tools) {
    if (!seen.current.has(tool.serverName)) seen.current.set(tool.serverName, seen.current.size);
  }
  const place = (tool: ToolView) => seen.current.get(tool.serverName) as number;
  return [...tools].sort((a, b) => place(a) - place(b));
}
