// Requests to a server by its name: each finds the client the server has when it is made (after a
// reconfigure in progress), so a tool object a host holds never calls a client that was replaced.

import { messageOf } from '@epoch-agent/infra';
import type { JsonSchema, ToolProgress, ToolResult } from '@epoch-agent/protocol';
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import type { McpClient } from '../connection/client.js';
import { isMcpError, McpError } from '../errors/mcp-error.js';
import { type RequestTarget, waitUnlessAborted } from '../errors/unavailable.js';
import { type McpTaskRecord, markTaskRecord, removeTaskRecord } from '../tasks/task-records.js';
import type { TaskState as McpTaskState } from '../tasks/task-wire.js';
import { checkedToolResult } from '../tools/checked-result.js';
import type { McpToolBackend } from '../tools/epoch-tools.js';
import { assignToolNames } from '../tools/names.js';
import type { Entry, Servers } from './servers.js';
import type { McpServerPrompt } from './types.js';

/**
 * What a server's tools call: the client the server of that name has when the call is made (the
 * one a reconfigure gave it, a call waiting for its connect), never the one the tools were made
 * with. Rejects with a code when the server, or the tool on it, is gone.
 */
export function liveBackend(servers: Servers, server: string): McpToolBackend {
  return {
    callTool: (tool, args, signal, onProgress, context) =>
      ask(servers, { server, method: 'tools/call', tool }, signal, (client, entry) => {
        const schema = entry.offer?.schema;
        if (schema !== undefined && !schema.tools.some(({ name }) => name === tool)) {
          throw new McpError(
            'unknown_tool',
            `MCP server "${server}" no longer offers tool "${tool}" (its tools now: ${schema.tools.map(({ name }) => name).join(', ') || 'none'}).`,
            { server, tool },
          );
        }
        // A tool object a host took before its server changed it: not called until approved.
        const withheld = entry.offer?.withheld.find(({ name }) => name === tool);
        if (withheld !== undefined) {
          throw new McpError(
            'tool_withheld',
            `MCP server "${server}" tool "${tool}" is withheld: it is ${withheld.reason === 'new' ? 'new' : 'changed'} since its server's tools were approved, so it is not called until a person approves it.`,
            { server, tool },
          );
        }
        return client.callTool(tool, args, signal, onProgress, context);
      }),
    listResources: (signal) => resourcesFrom(servers, server, signal),
    listResourceTemplates: (signal) => resourceTemplatesFrom(servers, server, signal),
    readResource: (uri, signal) => resourceFrom(servers, server, uri, signal),
  };
}

/**
 * A request to one server's client; rejects for a server that is unknown or disabled. The
 * request's own promise when nothing is waited for (every call of a turn): no promise of ours in
 * between.
 */
function ask<T>(
  servers: Servers,
  target: RequestTarget,
  signal: AbortSignal | undefined,
  request: (client: McpClient, entry: Entry) => Promise<T>,
): Promise<T> {
  const replacing = servers.entries.get(target.server)?.replacing;
  if (replacing !== undefined) {
    return waitUnlessAborted(replacing, signal, target).then(() =>
      requestNow(servers, target, request),
    );
  }
  try {
    return requestNow(servers, target, request);
  } catch (error) {
    return Promise.reject(error);
  }
}

function requestNow<T>(
  servers: Servers,
  { server }: RequestTarget,
  request: (client: McpClient, entry: Entry) => Promise<T>,
): Promise<T> {
  const entry = servers.entries.get(server);
  if (entry === undefined) throw servers.unknown(server);
  if (entry.client === undefined) throw servers.notStarted(entry);
  return request(entry.client, entry);
}

/**
 * The prompts of every connected server that offers prompts, asked in parallel. A server whose
 * prompts/list fails is left out and logged; the others still answer.
 */
export async function connectedPrompts(
  servers: Servers,
  signal?: AbortSignal,
): Promise<McpServerPrompt[]> {
  const connected = [...servers.entries.values()].flatMap(({ config, client }) =>
    client?.state.kind === 'connected' ? [{ config, client }] : [],
  );
  const lists = await Promise.all(
    connected.map(async ({ config, client }): Promise<McpServerPrompt[]> => {
      try {
        return named(servers, config.name, await client.listPrompts(signal));
      } catch (error) {
        servers.logger.warn(messageOf(error), { server: config.name });
        return [];
      }
    }),
  );
  return lists.flat();
}

export function promptFrom(
  servers: Servers,
  server: string,
  name: string,
  args?: Record<string, string>,
  signal?: AbortSignal,
): Promise<GetPromptResult> {
  return ask(servers, { server, method: 'prompts/get' }, signal, (client) =>
    client.getPrompt(name, args, signal),
  );
}

/** One server's prompts (every page), each with its name; empty when it declared none. */
export function promptsFrom(
  servers: Servers,
  server: string,
  signal?: AbortSignal,
): Promise<McpServerPrompt[]> {
  return ask(servers, { server, method: 'prompts/list' }, signal, async (client) =>
    named(servers, server, await client.listPrompts(signal)),
  );
}

/** Prompts with their `mcp__<server>__<prompt>` names, held to the tool names' length. */
function named(servers: Servers, server: string, prompts: readonly Prompt[]): McpServerPrompt[] {
  const names = assignToolNames({
    server,
    tools: prompts.map(({ name }) => name),
    reserved: [],
    nameOptions: { maxLength: servers.toolNameMaxLength },
  });
  return prompts.map((prompt, i) => ({ server, name: names[i] as string, prompt }));
}

/** One server's resources (every page); empty when it declared none. */
export function resourcesFrom(
  servers: Servers,
  server: string,
  signal?: AbortSignal,
): Promise<Resource[]> {
  return ask(servers, { server, method: 'resources/list' }, signal, (client) =>
    client.listResources(signal),
  );
}

/** One server's resource templates (every page); empty when it declared no resources. */
export function resourceTemplatesFrom(
  servers: Servers,
  server: string,
  signal?: AbortSignal,
): Promise<ResourceTemplateType[]> {
  return ask(servers, { server, method: 'resources/templates/list' }, signal, (client) =>
    client.listResourceTemplates(signal),
  );
}

export function resourceFrom(
  servers: Servers,
  server: string,
  uri: string,
  signal?: AbortSignal,
): Promise<ReadResourceResult> {
  return ask(servers, { server, method: 'resources/read' }, signal, (client) =>
    client.readResource(uri, signal),
  );
}

/** tasks/get of one of a server's tasks (its record removed when the server no longer knows it). */
export function taskFrom(
  servers: Servers,
  server: string,
  taskId: string,
  signal?: AbortSignal,
): Promise<McpTaskState> {
  return forgetGone(
    server,
    taskId,
    ask(servers, { server, method: 'tasks/get' }, signal, (client) =>
      client.getTask(taskId, signal),
    ),
  );
}

/**
 * One of a server's tasks followed to its result (its record then says how it ended), whole, as
 * a call's `executeUncut` gives it: checked against the tool's outputSchema, when the server's
 * list declares one, as a call's result is.
 */
export function taskResultFrom(
  servers: Servers,
  record: Pick<McpTaskRecord, 'server' | 'tool' | 'taskId'>,
  signal?: AbortSignal,
  onProgress?: (progress: ToolProgress) => void,
): Promise<ToolResult> {
  const { server, tool, taskId } = record;
  const following = ask(servers, { server, method: 'tasks/get', tool }, signal, async (client) => {
    const result = await client.taskResult(taskId, tool, signal, onProgress);
    // The list of the connection the result came by: the tool as its server declares it now.
    const state = client.state;
    const declared =
      state.kind === 'connected' ? state.tools.find(({ name }) => name === tool) : undefined;
    return checkedToolResult(
      declared?.outputSchema as JsonSchema | undefined,
      result,
      `MCP server "${server}" tool "${tool}"`,
    );
  });
  return forgetGone(server, taskId, following);
}

/**
 * tasks/cancel of one of a server's tasks: the task as the server says the cancel left it
 * (`cancelled`, or still settling), its record saying the same. A task that had already ended is
 * `task_ended` (nothing was cancelled; its record says how it ended).
 */
export function cancelTaskOf(
  servers: Servers,
  server: string,
  taskId: string,
  signal?: AbortSignal,
): Promise<McpTaskState> {
  const cancelling = ask(servers, { server, method: 'tasks/cancel' }, signal, async (client) => {
    const { task, ended } = await client.cancelTask(taskId, signal);
    await markTaskRecord(server, task).catch(() => {});
    if (!ended) return task;
    const how =
      task.status === 'cancelled' ? 'was already cancelled' : `had already ${task.status}`;
    throw new McpError(
      'task_ended',
      `Task "${taskId}" of MCP server "${server}" ${how}, its server says: nothing was cancelled.`,
      { server },
    );
  });
  return forgetGone(server, taskId, cancelling);
}

/** `asked`, whose `task_gone` (its server no longer knows the task) removes the task's record. */
async function forgetGone<T>(server: string, taskId: string, asked: Promise<T>): Promise<T> {
  try {
    return await asked;
  } catch (error) {
    if (!isMcpError(error, 'task_gone')) throw error;
    await removeTaskRecord(server, taskId);
    throw new McpError('task_gone', `${error.message} Its record is removed.`, {
      server,
      cause: error.cause,
    });
  }
}
