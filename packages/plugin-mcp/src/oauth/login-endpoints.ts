// The authorization server endpoints a login sends the user to, checked the moment discovery names
// them: before a client is registered, before any browser is opened. They come from the server's
// metadata, which anyone running an MCP server writes, so an endpoint that is not https:// (or
// http:// on this machine) ends the login here — a `file:` or `ms-msdt:` URL would go to whatever
// program the system registered for it, and a plain-http login page on another host would have the
// user type a password in the clear, only for the SDK to refuse the token exchange afterwards.
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import { isBrowserUrl } from './open-url.js';

export function checkLoginEndpoints(server: string, discovery: OAuthDiscoveryState): void {
  const metadata = discovery.authorizationServerMetadata;
  const base = discovery.authorizationServerUrl;
  // Without metadata the SDK uses these paths on the authorization server's URL.
  const endpoints = {
    authorization_endpoint: metadata?.authorization_endpoint ?? new URL('/authorize', base).href,
    token_endpoint: metadata?.token_endpoint ?? new URL('/token', base).href,
  };
  for (const [field, text] of Object.entries(endpoints)) {
    const url = new URL(text);
    if (isBrowserUrl(url)) continue;
    // Scheme and host only: the rest is the metadata author's text.
    const shown = url.host === '' ? url.protocol : `${url.protocol}//${url.host}`;
    throw new McpError(
      'login_failed',
      `Login to MCP server "${server}" refused before opening a browser: its authorization server's ${field} (${shown}) is neither https:// nor http:// on this machine (localhost, 127.0.0.1, ::1). Ask the server's operator for an https:// authorization server.`,
      { server },
    );
  }
}
