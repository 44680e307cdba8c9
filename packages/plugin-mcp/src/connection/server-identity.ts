// What a server says about itself when a connection opens, as kept for a host: its name, version
// and icons (the initialize answer's serverInfo, or a 2026-07-28 server/discover's), and its
// instructions, the text it asks an agent to put in the model's context. Both eras give them the
// same way through the SDK, a remembered discover answer included.
import type { Client } from '@modelcontextprotocol/client';
import { modelText } from '../tools/model-text.js';
import type { McpIcon } from '../types.js';
import type { McpServerInfo } from './state.js';

/**
 * The most characters of instructions kept. A server's instructions go into a model's context,
 * every turn, like its tools' descriptions, and are bounded like them: past this a server is
 * writing a manual, not instructions (the reference server's are 1,600 characters). The rest is
 * cut, and the cut said.
 */
export const MAX_INSTRUCTIONS_CHARS = 2048;

export interface ServerIdentity {
  readonly serverInfo: McpServerInfo;
  readonly instructions?: string;
}

export function serverIdentity(sdk: Client): ServerIdentity {
  const info = sdk.getServerVersion();
  const serverInfo: McpServerInfo = {
    name: info?.name ?? '',
    version: info?.version ?? '',
    ...(info?.icons === undefined ? {} : { icons: info.icons as readonly McpIcon[] }),
  };
  const sent = sdk.getInstructions();
  // Cleaned like a tool's description (model-text.ts): nothing hidden, nothing reordered.
  const instructions =
    sent === undefined ? '' : modelText(sent, MAX_INSTRUCTIONS_CHARS, 'instructions');
  return instructions === '' ? { serverInfo } : { serverInfo, instructions };
}
