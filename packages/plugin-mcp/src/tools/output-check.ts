// A tool result's structuredContent checked against the tool's outputSchema, as the MCP spec asks
// a client to and the SDK's own Client.callTool does: our calls go through neither that method
// (the SDK path sends tools/call with `request()`, the 2025-era stdio path with direct-calls.ts),
// so the check is made here, once for both, by the validator the SDK bundles (ajv, with the
// dialects of 2020-12, 2019-09 and draft-07). Loaded with the first result of a tool that declares
// an outputSchema: after a call, when the SDK (whose chunk holds the validator) is loaded anyway.
import type { JsonSchema } from '@epoch-agent/protocol';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { ToolCallResult } from './result.js';

/** What a compiled schema says of a value: nothing when it fits, else the path and the reason. */
type Check = JsonSchemaValidator<unknown> | { readonly unusable: string };

/** Validators cost a compile each (a millisecond or more): one per schema text in this process. */
const MAX_COMPILED = 1_000;

let validator: AjvJsonSchemaValidator | undefined;
const compiled = new Map<string, Check>();
/** A tool object's schema is the same object at every call: its text is worked out once. */
const byObject = new WeakMap<JsonSchema, Check>();

/**
 * Why `result` does not keep the promise of `outputSchema`, in words naming the path and the
 * reason; undefined when it does, or when it is an error result (which the spec does not check).
 */
export function outputProblem(
  outputSchema: JsonSchema,
  result: ToolCallResult,
  origin: string,
): string | undefined {
  if (result.isError === true) return undefined;
  const check = checkFor(outputSchema);
  if ('unusable' in check) {
    // A schema the validator cannot read is the server's mistake, which must not cost the tool:
    // its results pass unchecked, as they did before any check.
    return undefined;
  }
  if (result.structuredContent === undefined) {
    return `${origin} declares an outputSchema but returned no structuredContent.`;
  }
  const answer = check(result.structuredContent);
  if (answer.valid) return undefined;
  return `${origin} returned structuredContent that does not match its outputSchema: ${pathsIn(answer.errorMessage)}.`;
}

function checkFor(schema: JsonSchema): Check {
  const known = byObject.get(schema);
  if (known !== undefined) return known;
  const text = JSON.stringify(schema);
  let check = compiled.get(text);
  if (check === undefined) {
    check = compile(schema);
    // The oldest goes: a process that meets ever new schemas (servers whose definitions change)
    // keeps a bounded number of them.
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(text, check);
  }
  byObject.set(schema, check);
  return check;
}

function compile(schema: JsonSchema): Check {
  validator ??= new AjvJsonSchemaValidator();
  try {
    return validator.getValidator(schema as JsonSchemaType);
  } catch (error) {
    return { unusable: error instanceof Error ? error.message : String(error) };
  }
}

// ajv names the value `data` ("data/count must be integer"): here it is the structured content.
function pathsIn(message: string): string {
  return message.replace(/(^|, )data(?=[/ ]|$)/g, '$1structuredContent');
}
