// When a card offers "Log in": only where a login is what the server asks for.
import type { McpServerStatus } from '@epoch-agent/runtime';
import type { ServerView } from '@epoch-agent/web';
import { describe, expect, it } from 'vitest';
import { offersLogin } from '../page/login-offer.js';

const remote = { transport: 'http', url: 'https://mcp.example.com/mcp' } as const;
const view = (parts: Partial<ServerView>) => ({ target: remote, ...parts }) as ServerView;
const failed = (code: string) =>
  ({ state: 'failed', error: { code, message: 'x' } }) as unknown as McpServerStatus;

describe('offersLogin', () => {
  it('offers it where the server refused our credentials or wants more scope', () => {
    expect(offersLogin(view({ status: failed('needs_login') }))).toBe(true);
    expect(offersLogin(view({ status: failed('insufficient_scope') }))).toBe(true);
  });

  it('offers it while a login of the page is pending, and after one failed', () => {
    expect(offersLogin(view({ login: { state: 'pending' } }))).toBe(true);
    expect(offersLogin(view({ login: { state: 'failed', message: 'x' } }))).toBe(true);
  });

  it('not on a connected server, one that cannot be reached, a stdio server, or one not started', () => {
    const connected = { state: 'connected' } as unknown as McpServerStatus;
    expect(offersLogin(view({ status: connected }))).toBe(false);
    expect(offersLogin(view({ status: failed('connect_failed') }))).toBe(false);
    expect(offersLogin(view({}))).toBe(false);
    expect(
      offersLogin(
        view({
          target: { transport: 'stdio', command: 'x', args: [] },
          status: failed('needs_login'),
        }),
      ),
    ).toBe(false);
  });
});
