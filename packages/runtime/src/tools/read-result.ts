// `mcp_read_result`: how the model reads the rest of a tool result that was cut to its server's
// max_output_tokens, a piece at a time, by the id the cut note gave it. It reads only what this
// process saved (McpRegistry.savedResults, by id: never a path the model names), each answer held
// to the cap the result was cut to. Offered from the first cut result on (assembly/mcp-tool-groups.ts),
// so a process whose results always fit never spends a definition on it.
import { CHARS_PER_TOKEN } from '@epoch-agent/infra';
import type { McpSavedResults } from '@epoch-agent/plugin-mcp';
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';

export const READ_RESULT_TOOL_NAME = 'mcp_read_result';

/** The ToolRegistry group the tool is offered in: the runtime's, never a host's or a server's. */
export const RESULTS_GROUP = 'runtime:results';

/** What a header line of an answer may take, so that the piece and it fit the cap together. */
const HEADER_CHARS = 400;

/** The longest id echoed back in an error: the model's argument, not ours. */
const ECHOED_ID_CHARS = 40;

export function readResultTool(saved: McpSavedResults): EpochTool {
  return {
    name: READ_RESULT_TOOL_NAME,
    title: 'Read the rest of a cut tool result',
    description:
      'Read a piece of a tool result that was too long and was cut: its note gives the id and ' +
      'the offset to read on from. Returns that many characters from the offset (at most what ' +
      'one result may take) and the offset of the next piece. Read only what you need.',
    inputSchema: {
      type: 'object',
      properties: {
        id: {
          type: 'string',
          description: 'The id the cut result\'s note gives, e.g. "3fa2c1d0".',
        },
        offset: {
          type: 'integer',
          minimum: 0,
          description: 'Characters to skip, as the note says; omit to start at the beginning.',
        },
        length: {
          type: 'integer',
          minimum: 1,
          description: 'How many characters at most; omit for as many as one answer takes.',
        },
      },
      required: ['id'],
      additionalProperties: false,
    },
    annotations: {
      title: 'Read the rest of a cut tool result',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async execute(args) {
      const { id, offset = 0, length } = args;
      if (typeof id !== 'string' || id === '') {
        return failed('"id" is required: the id a cut result\'s note gives.');
      }
      const result = saved.get(id);
      if (result === undefined) {
        return failed(
          `no result ${JSON.stringify(id.slice(0, ECHOED_ID_CHARS))} was saved by this process: use the id a cut result's note gives.`,
        );
      }
      if (!isCount(offset)) return failed('"offset" must be a whole number, 0 or more.');
      if (length !== undefined && (!isCount(length) || length === 0)) {
        return failed('"length" must be a whole number, 1 or more, or left out.');
      }
      const most = Math.max(1, result.maxTokens * CHARS_PER_TOKEN - HEADER_CHARS);
      let piece: Awaited<ReturnType<McpSavedResults['read']>>;
      try {
        piece = await saved.read(result, offset, Math.min(length ?? most, most));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return failed(
          code === 'ENOENT'
            ? `result "${id}" is no longer saved (saved results are kept for 7 days and 100 MB in all): call the tool again.`
            : `result "${id}" could not be read (${typeof code === 'string' ? code : 'an unknown error'}).`,
        );
      }
      const about = `result "${id}" of MCP server "${result.server}" tool "${result.tool}"`;
      const next =
        piece.end < piece.total
          ? `read on with {"id": "${id}", "offset": ${piece.end}}`
          : 'this is its end';
      const header = `[Characters ${piece.offset} to ${piece.end} of ${piece.total} of ${about}; ${next}.]`;
      return { content: [{ type: 'text', text: `${header}\n${piece.text}` }] };
    },
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function failed(problem: string): ToolResult {
  return {
    content: [{ type: 'text', text: `${READ_RESULT_TOOL_NAME}: ${problem}` }],
    isError: true,
  };
}
