// What a connected server declared it can do (the `capabilities` of its initialize answer, or of
// its server/discover answer), reduced to what a person deciding about the server reads: which
// features it has, and whether it announces list changes or takes resource subscriptions.
// Experimental and extension capabilities are left out: a status shows them to no one.
import type { ServerCapabilities } from '@modelcontextprotocol/client';

export interface McpServerCapabilities {
  readonly tools?: { readonly listChanged: boolean };
  readonly resources?: { readonly listChanged: boolean; readonly subscribe: boolean };
  readonly prompts?: { readonly listChanged: boolean };
  readonly logging: boolean;
  readonly completions: boolean;
}

export function serverCapabilities(declared: ServerCapabilities): McpServerCapabilities {
  const { tools, resources, prompts } = declared;
  return {
    ...(tools === undefined ? {} : { tools: { listChanged: tools.listChanged === true } }),
    ...(resources === undefined
      ? {}
      : {
          resources: {
            listChanged: resources.listChanged === true,
            subscribe: resources.subscribe === true,
          },
        }),
    ...(prompts === undefined ? {} : { prompts: { listChanged: prompts.listChanged === true } }),
    logging: declared.logging !== undefined,
    completions: declared.completions !== undefined,
  };
}
