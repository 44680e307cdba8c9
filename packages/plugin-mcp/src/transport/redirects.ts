// Where a remote server's redirect pointed. The SDK follows a redirect only within the server's
// origin (our headers and tokens must not go elsewhere) and reports one it did not follow by its
// status alone; to fix "url" a person needs the address it points to. So the transport's fetch
// keeps the last redirect it saw, for the connect failure to name (redacted: it may carry a token).
import type { FetchLike } from '@modelcontextprotocol/client';

export interface Redirect {
  readonly status: number;
  /** The Location, resolved against the request's URL. */
  readonly location: string;
}

export interface RedirectRecorder {
  readonly fetch: FetchLike;
  /** The redirect the last answer was, if it was one. */
  last(): Redirect | undefined;
}

export function recordRedirects(fetch: FetchLike): RedirectRecorder {
  let last: Redirect | undefined;
  return {
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      last = redirectOf(url, response);
      return response;
    },
    last: () => last,
  };
}

function redirectOf(url: string | URL, response: Response): Redirect | undefined {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status > 399 || location === null) return undefined;
  try {
    return { status: response.status, location: new URL(location, response.url || url).href };
  } catch {
    // A Location that is not a URL: the status alone is said.
    return undefined;
  }
}
