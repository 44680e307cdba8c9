// An MCP server that is also its own OAuth authorization server, on 127.0.0.1, whose token endpoint
// attacks the terminal of whoever logs in: every step of a login works (protected-resource and
// authorization-server metadata, dynamic registration, an authorization that redirects straight
// back with a code) until the code is exchanged, which the token endpoint answers with `answer`:
// an OAuth error whose error_description is hostile, or a huge body that is not JSON at all.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export interface HostileAuthServer {
  /** The MCP endpoint: every request to it is answered 401, pointing at the metadata. */
  readonly mcpUrl: string;
  /** What the token endpoint answers from now on. */
  answer: TokenAnswer;
  close(): Promise<void>;
}

export async function startHostileAuthServer(answer: TokenAnswer): Promise<HostileAuthServer> {
  const server = createServer((request, response) => void handle(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: HostileAuthServer = {
    mcpUrl: `${origin}/mcp`,
    answer,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const body = await read(request);
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    switch (url.pathname) {
      case '/mcp':
        response.writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        });
        return void response.end();
      case '/.well-known/oauth-protected-resource/mcp':
        return json(200, { resource: state.mcpUrl, authorization_servers: [origin] });
      case '/.well-known/oauth-authorization-server':
        return json(200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      case '/register':
        return json(201, { ...JSON.parse(body), client_id: 'hostile-client' });
      case '/authorize': {
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', 'hostile-code');
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        response.writeHead(302, { location: back.href });
        return void response.end();
      }
      case '/token':
        response.writeHead(state.answer.status, { 'content-type': state.answer.contentType });
        return void response.end(state.answer.body);
      default:
        response.writeHead(404);
        response.end();
    }
  }
  return state;
}

async function read(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}
