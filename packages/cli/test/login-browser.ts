// A stand-in for the user's browser in `epoch mcp login` tests: it opens the authorization URL
// with fetch, keeps the cookies each site sets (the authorization server's login session and
// interaction state live in them), and follows every redirect until a page answers without one —
// normally the login's own callback page on 127.0.0.1.
export interface LoginBrowser {
  /** What `epoch mcp login` calls instead of opening a real browser. */
  readonly openUrl: (url: string) => Promise<void>;
  /** Every page visited: where, and the HTTP status it answered. */
  readonly visited: { readonly url: string; readonly status: number }[];
}

const MAX_REDIRECTS = 20;

export function loginBrowser(): LoginBrowser {
  const jar = new Map<string, Map<string, string>>();
  const visited: { url: string; status: number }[] = [];
  const openUrl = async (start: string): Promise<void> => {
    let url = new URL(start);
    for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
      const cookies = jar.get(url.origin) ?? new Map<string, string>();
      jar.set(url.origin, cookies);
      const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(url, {
        redirect: 'manual',
        headers: cookie === '' ? {} : { cookie },
      });
      await response.body?.cancel();
      visited.push({ url: url.href, status: response.status });
      for (const line of response.headers.getSetCookie()) keep(cookies, line);
      const location = response.headers.get('location');
      if (location === null) return;
      url = new URL(location, url);
    }
    throw new Error(`more than ${MAX_REDIRECTS} redirects from ${start}`);
  };
  return { openUrl, visited };
}

/** One Set-Cookie line into the site's cookies; an expired or emptied cookie is dropped. */
function keep(cookies: Map<string, string>, line: string): void {
  const [pair = '', ...attributes] = line.split(';');
  const at = pair.indexOf('=');
  if (at <= 0) return;
  const name = pair.slice(0, at).trim();
  const value = pair.slice(at + 1).trim();
  const expired = attributes.some((attribute) => {
    const [key = '', raw = ''] = attribute.split('=');
    const k = key.trim().toLowerCase();
    return (
      (k === 'max-age' && Number(raw) <= 0) || (k === 'expires' && Date.parse(raw) <= Date.now())
    );
  });
  if (expired || value === '') cookies.delete(name);
  else cookies.set(name, value);
}
