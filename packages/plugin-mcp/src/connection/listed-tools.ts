// The tools of a tools/list page, each checked on its own. The SDK checks a page as a whole, so one
// tool it finds malformed fails the list and with it the connect: real servers do send such tools
// (the reference GitLab server's `inputSchema` is `{"$schema": "…draft-07…"}`, without the
// `"type": "object"` the spec asks for). Here a page is read loosely and each tool checked against
// the spec's schema: one that fails (or whose name is empty) is left out with a warning naming the
// server, the tool and what is wrong, and the others are offered.
//
// An `inputSchema` with no `type` at all is read as an object with no declared properties first: a
// schema without `type` accepts any value, objects included, so this narrows nothing a call could
// send, and it is what such a server means.
import type { Logger } from '@epoch-agent/infra';
import { specTypeSchemas, type Tool } from '@modelcontextprotocol/client';
import { z } from 'zod';

/** A tools/list result whose tools are not checked yet: the page's other members as sent. */
export const LOOSE_TOOLS_PAGE = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** Whose list it is, for the warnings (paginate.ts's ListOwner). */
interface Owner {
  readonly server: string;
  readonly logger: Logger;
}

export async function listedTools(items: readonly unknown[], owner: Owner): Promise<Tool[]> {
  const tools: Tool[] = [];
  for (const [index, item] of items.entries()) {
    const checked = await specTypeSchemas.Tool['~standard'].validate(withObjectInput(item));
    if (checked.issues === undefined) {
      const tool = checked.value as Tool;
      // The spec's schema takes "": offered, it would be `mcp__<server>__`, and no call could name it.
      if (tool.name !== '') tools.push(tool);
      else {
        owner.logger.warn(
          `MCP server "${owner.server}": tool #${index + 1} is not offered: its name is empty, and a tool is called by its name. Ask the server's maintainers to fix its definition.`,
          { server: owner.server },
        );
      }
      continue;
    }
    const [issue] = checked.issues;
    const where = issue?.path?.map((key) => (typeof key === 'object' ? key.key : key)).join('.');
    owner.logger.warn(
      `MCP server "${owner.server}": tool ${nameOf(item, index)} is not offered: ${where === undefined || where === '' ? '' : `${where}: `}${issue?.message ?? 'not a valid tool'}. Ask the server's maintainers to fix its definition.`,
      { server: owner.server },
    );
  }
  return tools;
}

function withObjectInput(item: unknown): unknown {
  if (!isObject(item) || !isObject(item.inputSchema) || 'type' in item.inputSchema) return item;
  return { ...item, inputSchema: { ...item.inputSchema, type: 'object' } };
}

function nameOf(item: unknown, index: number): string {
  return isObject(item) && typeof item.name === 'string'
    ? JSON.stringify(item.name)
    : `#${index + 1} (no name)`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
