// The code examples of EMBEDDING.md (repo root), verbatim, one function per block: this file is
// typechecked with the tests (tsconfig.test.json), so an example that stops compiling fails the
// build. Not run: the examples start servers with npx. Keep the two in step.
import { delimiter, dirname } from 'node:path';
import { formatDiagnostic } from '@epoch-agent/infra';
import type { EpochTool } from '@epoch-agent/protocol';
import { buildRuntime, isRuntimeError } from '@epoch-agent/runtime';

export async function buildingTheRuntime(myBuiltinTools: EpochTool[]) {
  const runtime = await buildRuntime({
    hostCapabilities: {
      namespace: 'acme',
      mcpServers: {
        search: { command: 'npx', args: ['-y', '@acme/search-mcp'], connectTimeout: 30 },
        docs: { transport: 'http', url: 'https://mcp.acme.example/docs' },
      },
    },
  });

  // The host's own tools are one more group next to the servers' `mcp:<server>` groups.
  runtime.tools.setGroup('builtin', myBuiltinTools);

  // Everything to hand to the agent loop, under the names the model will see:
  // mcp__acme__search__<tool>, mcp__acme__docs__<tool>, the plugins' and the user's servers' tools.
  const tools = runtime.tools.tools();

  for (const status of runtime.mcp.statuses()) {
    console.log(status.source, status.name, status.state); // e.g. "host acme__search connected"
  }
  for (const diagnostic of runtime.diagnostics()) {
    console.warn(`[${diagnostic.source}] ${formatDiagnostic(diagnostic)}`);
  }

  await runtime.close(); // on exit: every server closed, every process tree reaped
  return tools;
}

export async function badNamespace() {
  try {
    await buildRuntime({ hostCapabilities: { namespace: 'acme:tools', mcpServers: {} } });
  } catch (error) {
    if (isRuntimeError(error, 'invalid_host_namespace')) {
      console.error(error.message, error.data.namespace); // names the namespace and the pattern
    }
    throw error;
  }
}

export async function callWithPermission(
  tool: EpochTool,
  args: { readonly [key: string]: unknown },
  signal: AbortSignal,
  allowed: (judged: EpochTool) => Promise<boolean>,
) {
  // mcp_call_tool is judged as the deferred tool its arguments name; every other tool as itself.
  const judged = tool.delegate?.(args) ?? tool;
  if (!(await allowed(judged))) {
    return { content: [{ type: 'text' as const, text: `The user did not allow ${judged.name}.` }] };
  }
  return tool.execute(args, { signal });
}

export async function events() {
  const runtime = await buildRuntime();
  runtime.mcp.onStatus((status) => {
    if (status.state === 'failed') console.warn(`${status.name}: ${status.error.message}`);
  });
  runtime.mcp.onToolsChanged((event) => {
    console.log(`${event.server} (${event.source}) changed its tools (${event.reason})`);
  });
  runtime.tools.onChange((change) => {
    // The agent loop's tool set is fixed for a turn: take runtime.tools.tools() at the next one.
    if (change.kind === 'budget') console.log(`tool budget now ${change.tokens} tokens`);
    else console.log(`tool group ${change.group} ${change.kind}`);
  });
  for (const collision of runtime.tools.collisions()) console.warn(collision.message);
}

export async function applying() {
  const runtime = await buildRuntime();
  // ... the user edited mcp.json (by hand, or through the connectors page) ...
  const applied = await runtime.applyMcpConfig();
  console.log(
    applied.added,
    applied.removed,
    applied.reconnected,
    applied.choiceChanged,
    applied.unchanged,
  );
  for (const diagnostic of applied.diagnostics) console.warn(formatDiagnostic(diagnostic));
}

export async function choosing() {
  const runtime = await buildRuntime();
  const set = await runtime.setServerChoice('github', {
    kind: 'tools',
    tools: ['delete_repo'],
    enabled: false,
  });
  console.log(
    `${set.file}:${set.line}`,
    set.changes.map(({ text }) => text),
  ); // ['added "delete_repo" to "exclude_tools"']
  await runtime.setServerChoice('acme__search', { kind: 'server', enabled: false }); // into "overrides"
}

export async function editing() {
  const runtime = await buildRuntime();
  const added = await runtime.addServer({
    name: 'files',
    transport: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
    env: { LOG_LEVEL: 'warn' },
  });
  console.log(
    `added to ${added.file}; write these by hand if needed: ${added.setByHand.join(', ')}`,
  );
  console.log(runtime.mcp.statuses().find(({ name }) => name === 'files')?.state); // "connected"

  await runtime.removeServer('files'); // the file is back to its bytes before the add
}

export async function roots() {
  let workspaces = ['/home/me/project'];
  const rooted = await buildRuntime({ registry: { roots: () => workspaces } });
  // The user opened a second folder: every connected server is told (notifications/roots/list_changed),
  // and asks again.
  workspaces = [...workspaces, '/home/me/notes'];
  await rooted.mcp.notifyRootsChanged();
  await rooted.close();
}

export function shippedNode() {
  // The directory that holds the node (and npx) the host ships with; here the host itself runs on
  // that Node. An Electron-style host points at the node binary it bundles instead.
  const shippedNodeDir = dirname(process.execPath);
  process.env.PATH = `${shippedNodeDir}${delimiter}${process.env.PATH ?? ''}`;
}
