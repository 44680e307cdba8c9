// The type of refs-tool.mjs, which stays plain JavaScript so the fixture server runs unbuilt.
import type { Tool } from '@modelcontextprotocol/server';

/** The tool; `networkRef` is the URL of the `airline` parameter's `$ref`. */
export function refsTool(networkRef: string): Tool;
