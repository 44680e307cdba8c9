// A TypeScript host: the public surface of every package as a consumer writes against it, checked
// with skipLibCheck off, so every .d.ts the packages ship is checked too. Never run.

import { main } from '@epoch-agent/cli';
import { formatDiagnostic, mcpConfigPath } from '@epoch-agent/infra';
import { visibleText } from '@epoch-agent/infra/visible-text';
import { loadMcpConfig, McpRegistry, type McpServerStatus } from '@epoch-agent/plugin-mcp';
import { McpSchemaCache } from '@epoch-agent/plugin-mcp/cache';
import { parseMcpConfig } from '@epoch-agent/plugin-mcp/config';
import { StdioTransport } from '@epoch-agent/plugin-mcp/stdio';
import type { EpochTool, ToolResult } from '@epoch-agent/protocol';
import { buildRuntime } from '@epoch-agent/runtime';
import { toAnthropicToolResult, toOpenAIChatTools } from '@epoch-agent/runtime/adapters';
import { readMcpServers } from '@epoch-agent/runtime/config';
import { startWeb } from '@epoch-agent/web';

// The plugin-mcp README's example.
const { servers } = await loadMcpConfig(mcpConfigPath());
const registry = new McpRegistry();
const statuses: McpServerStatus[] = await registry.connectAll(servers, 'user');
const tools: EpochTool[] = registry.tools();
await registry.disconnectAll();

// The runtime README's example.
const runtime = await buildRuntime();
const result: ToolResult | undefined = await runtime.tools
  .tools()[0]
  ?.execute({}, { signal: AbortSignal.timeout(1_000) });
for (const diagnostic of runtime.diagnostics()) console.warn(formatDiagnostic(diagnostic));
// EMBEDDING.md's adapters.
const chatTools = toOpenAIChatTools(runtime.tools.tools(), { strict: true });
const toolResult = result === undefined ? undefined : toAnthropicToolResult('toolu_1', result);
await runtime.close();

export const used = [
  statuses,
  tools,
  result,
  chatTools,
  toolResult,
  visibleText,
  parseMcpConfig,
  McpSchemaCache,
  StdioTransport,
  readMcpServers,
  main,
  startWeb,
];
