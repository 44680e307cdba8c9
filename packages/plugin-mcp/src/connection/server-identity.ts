// What a server says about itself when a connection opens, as kept for a host: its name, version
// and icons (the initialize answer's serverInfo, or a 2026-07-28 server/discover's), and its
// instructions, the text it asks an agent to put in the model's context. Both eras give them the
// same way through the SDK, a remembered discover answer included.
import type { Client } from '@modelcontextprotocol/client';
import type { McpIcon } from '../types.js';
import type { McpServerInfo } from './state.js';

/**
 * The most characters of instructions kept. A server's instructions go into a model's context,
 * every turn, like its tools' descriptions; the reference server's are 1,600 characters. Past
 * this a server is writing a manual, not instructions: the rest is cut, and the cut said.
 */
export const MAX_INSTRUCTIONS_CHARS = 16_000;

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
  const instructions = sdk.getInstructions();
  return instructions === undefined || instructions === ''
    ? { serverInfo }
    : { serverInfo, instructions: bounded(instructions) };
}

function bounded(text: string): string {
  if (text.length <= MAX_INSTRUCTIONS_CHARS) return text;
  const note = `\n[instructions cut: the server sent ${text.length} characters; the first ${MAX_INSTRUCTIONS_CHARS} are kept]`;
  return `${text.slice(0, MAX_INSTRUCTIONS_CHARS)}${note}`;
}
