// The SDK's runtime shims (its `_shims` entry, which its package picks by runtime) as plugin-mcp's
// bundle gives them to it (scripts/bundle.mjs): Node's, but with the SDK's own light JSON Schema
// validator, the one it picks where code cannot be generated, in place of ajv.
//
// The SDK's default validator serves only what plugin-mcp never calls: `Client.callTool`'s output
// check, elicitation handlers registered with the SDK, `fromJsonSchema`. Node's shim loads ajv with
// the SDK, about 15 ms of CPU that every process's first connect paid before its server answered.
// The outputSchema check plugin-mcp makes (tools/output-check.ts) keeps ajv, loaded with the first
// result that needs it.
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/client/validators/cf-worker';

/** Node's answer, as the SDK's Node shim gives it: a failed fetch is never a CORS refusal there. */
export const CORS_IS_POSSIBLE = false;
