// What a client scenario asks of the driver once it is connected, read off what the scenario's
// server checks. Most ask for what any host does: every tool the server offers is called once,
// with arguments read off its schema. A few ask for more, or less; each is named here with why, so
// the driver itself never branches on a scenario's name.
import { sampleArguments } from './sample-arguments.mjs';

/**
 * @typedef {{ readonly name: string, readonly args: Record<string, unknown> }} Call
 * @typedef {{ readonly name: string, readonly inputSchema: unknown }} OfferedTool
 * @typedef {{
 *   calls(tools: readonly OfferedTool[]): Call[],
 *   readsAndGets: boolean,
 *   mayFail: ReadonlyMap<string, string>,
 * }} Plan
 *   calls: the tool calls to make, in order, from the tools the plugin offers the model.
 *   readsAndGets: also read one resource and get one prompt, when the server offers them.
 *   mayFail: tool name -> the one error code its call may end with, and the driver still pass.
 */

/** Every offered tool once, with sample arguments: what the scenarios without a plan check. */
const EVERY_TOOL = (tools) =>
  tools.map(({ name, inputSchema }) => ({ name, args: sampleArguments(inputSchema) }));

const DEFAULT = { calls: EVERY_TOOL, readsAndGets: false, mayFail: new Map() };

/** @type {ReadonlyMap<string, Partial<Plan>>} */
const PLANS = new Map([
  // The server answers no tools/call: it checks the list alone, and that the network `$ref` in a
  // tool's schema was never fetched while the list was read.
  ['json-schema-ref-no-deref', { calls: () => [] }],
  // The server compares the focal tool's schema, as the model would be handed it, with the one it
  // sent: any keyword the plugin dropped or changed shows.
  [
    'json-schema-2020-12-preservation',
    {
      calls: (tools) => {
        const focal = tools.find(({ name }) => name === 'json_schema_2020_12_tool');
        if (focal === undefined) throw new Error('the server offers no json_schema_2020_12_tool');
        return [{ name: 'json_schema_echo', args: { schema: focal.inputSchema } }];
      },
    },
  ],
  // The server checks the standard headers of every request that names something: a tool call,
  // a resource read and a prompt get.
  ['http-standard-headers', { readsAndGets: true }],
  // A result without resultType from a 2026-07-28 server breaks that revision (the "absent means
  // complete" rule is for servers of earlier revisions), so the SDK refuses it, and the plugin
  // reports a server_error; the server checks only that the call was not sent again.
  [
    'sep-2322-client-request-state',
    { mayFail: new Map([['test_mrtr_no_result_type', 'server_error']]) },
  ],
]);

/**
 * @param {string} scenario MCP_CONFORMANCE_SCENARIO
 * @param {{ toolCalls?: Call[] }} context what MCP_CONFORMANCE_CONTEXT holds besides login fields
 * @returns {Plan}
 */
export function planFor(scenario, context) {
  const plan = { ...DEFAULT, ...PLANS.get(scenario) };
  // The runner names the exact calls (and their arguments) when the checks depend on the values.
  if (Array.isArray(context.toolCalls)) {
    const calls = context.toolCalls.map(({ name, arguments: args }) => ({
      name,
      args: args ?? {},
    }));
    return { ...plan, calls: () => calls };
  }
  return plan;
}
