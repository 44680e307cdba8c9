// A server's tools as the model sees them: the name the ToolRegistry resolved, title, the
// annotations the permission system reads, the parameters; and what the list costs in context.
import type { EpochTool } from '@epoch-agent/protocol';
import type { McpEpochTool } from '@epoch-agent/runtime';
import {
  estimateToolTokens,
  type ToolParameter,
  toolParameters,
} from '@epoch-agent/runtime/config';
import { cutCells } from './cells.js';
import { shownLine } from './server-text.js';

/**
 * About how many tokens of every request the tools' definitions take: a provider sends each
 * tool's name, description and input schema with every turn (estimated as everything else is).
 */
export function contextTokens(tools: readonly EpochTool[]): number {
  return tools.reduce((sum, tool) => sum + estimateToolTokens(tool), 0);
}

/**
 * The hints as badges, the ones a person deciding what to allow looks for. A hint the server did
 * not give is unknown, so it is not shown; one a read-only tool implies (not destructive,
 * idempotent) is not repeated, nor is "closed world", the safe default of a tool that says nothing.
 */
export function badges(tool: EpochTool): string[] {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
  const readOnly = readOnlyHint === true;
  const out: string[] = [];
  if (readOnly) out.push('read-only');
  if (destructiveHint === true) out.push('destructive');
  if (destructiveHint === false && !readOnly) out.push('not destructive');
  if (idempotentHint === true && !readOnly) out.push('idempotent');
  if (openWorldHint === true) out.push('open world');
  // A long call the server runs as a task: `epoch mcp call` follows it, `epoch mcp tasks` lists it.
  if ((tool as Partial<McpEpochTool>).taskSupport === 'required') out.push('task');
  return out;
}

/**
 * The top-level properties of the input schema as the runtime reads them (`$ref`s followed),
 * required ones first, each in schema order.
 */
export function parameters(tool: EpochTool): ToolParameter[] {
  const all = toolParameters(tool.inputSchema);
  return [...all.filter((p) => p.required), ...all.filter((p) => !p.required)];
}

/**
 * The tool as lines: name, title, how the model gets it (`(off)`, `(on demand)`), and badges; its
 * description's first line; one per parameter, with what is wrong with its `$ref` if anything.
 * Everything in them but the marks is the server's text, shown by shownLine. `onServer` is the
 * tool's own name on its server. Lines are cut to
 * `width` cells (a terminal's; infinite for a pipe, whose reader wants them whole).
 */
export function renderTool(
  tool: EpochTool,
  width: number,
  how: ToolOffer,
  onServer: string,
): string[] {
  const title = tool.title === undefined || tool.title === tool.name ? '' : `  ${tool.title}`;
  const marks = badges(tool).map((badge) => `[${badge}]`);
  // A name the provider rules changed (`grüße` -> `gr__e`) is said as the server has it too: it is
  // the one the server's docs use, and the one --tool takes.
  const renamed = tool.name.endsWith(`__${onServer}`) ? '' : ` (on the server: ${onServer})`;
  const name = `  ${shownLine(`${tool.name}${renamed}${title}`)}${OFFER_MARK[how]}`;
  const head = [name, ...marks].join('  ');
  const about = firstLine(tool.description);
  const lines = [head];
  if (about !== '') lines.push(cutCells(`      ${shownLine(about)}`, width));
  for (const p of parameters(tool)) {
    // A broken `$ref` is said beside the `any` it leaves, so the type is not taken at its word.
    const notes = [p.description, p.problem].filter(Boolean).join('; ');
    const text = `${p.name}: ${p.type}${p.required ? ' (required)' : ''}${notes === '' ? '' : ` — ${notes}`}`;
    lines.push(cutCells(`      ${shownLine(text)}`, width));
  }
  return lines;
}

/**
 * How the model gets a tool: one by one in every request, found on demand (deferred behind
 * mcp_search_tools), or not at all (turned off by the user).
 */
export type ToolOffer = 'offered' | 'on demand' | 'off';

const OFFER_MARK: Record<ToolOffer, string> = {
  offered: '',
  'on demand': ' (on demand)',
  off: ' (off)',
};

/**
 * A server's tools as status and list count them: `15`, `15, 3 off` when the user turned some off,
 * `15, 2 withheld` when some changed since they were approved (list, which connects nothing, knows
 * of none).
 */
export function toolCount(offered: number, off: number, withheld = 0): string {
  const more = [off === 0 ? '' : `${off} off`, withheld === 0 ? '' : `${withheld} withheld`];
  return [`${offered}`, ...more.filter((text) => text !== '')].join(', ');
}

/** The first line of a description, trimmed: what a one-line listing shows of it. */

export function firstLine(description: string): string {
  return description.trim().split('\n')[0]?.trim() ?? '';
}

/**
 * How to offer the model a tool the user turned off again, one of them the example: `--tool`
 * takes the tool's own name on its server, not the prefixed one listed.
 */
export function enableHint(server: string, example: string): string {
  return `Turn a tool marked (off) back on with: epoch mcp enable ${server} --tool ${shownLine(example)}\n`;
}
