// plugin-mcp's OAuth fixture (a real authorization server, oidc-provider, and an MCP server that
// accepts only its tokens, both on 127.0.0.1; see its header) as a child process, for the page's
// login tests: started, its endpoints read from its `ready` report, stopped.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// It lives with plugin-mcp, whose devDependency oidc-provider is.
const FIXTURE = fileURLToPath(
  new URL('../../plugin-mcp/test/fixtures/oauth-servers.mjs', import.meta.url),
);
const PREFIX = 'oauth-fixture ';

interface Ready {
  readonly issuer: string;
  readonly mcpUrl: string;
}

export interface OAuthFixture {
  /** The authorization server. */
  readonly issuer: string;
  /** The MCP server that takes only its tokens. */
  readonly mcpUrl: string;
  stop(): Promise<void>;
}

export async function startOAuthFixture(accessTokenTtlSeconds: number): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { ...process.env, ACCESS_TOKEN_TTL: String(accessTokenTtlSeconds) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (!line.startsWith(PREFIX)) return;
        const report = JSON.parse(line.slice(PREFIX.length)) as { event: string } & Ready;
        if (report.event === 'ready') resolve(report);
      });
      child.once('exit', (code) =>
        reject(new Error(`the OAuth fixture exited (${code}): ${stderr}`)),
      );
    });
    return { issuer: ready.issuer, mcpUrl: ready.mcpUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
