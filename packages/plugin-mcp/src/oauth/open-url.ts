// Opening a URL in the user's browser with what the platform has (open / rundll32 / xdg-open). No
// browser, no desktop, a missing opener: all fine — the caller printed the URL already.
//
// What is opened is decided here, not by whoever named the URL: an OS opener hands a `file:`,
// `smb:` or `ms-msdt:` URL to whatever program the system registered for it, so only https:, and
// http: to this machine (the loopback page and callbacks epoch itself serves), are ever opened.
// The URL is parsed and re-serialized before it goes anywhere: no spaces, quotes or line breaks
// survive that, so it reaches the opener as the one argument it is.
import { spawn } from 'node:child_process';

/** A program and its arguments, as spawn() takes them: no shell reads them. */
export interface OpenCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/**
 * https:, or http: to this machine by a name that cannot mean another one. Our own definition,
 * narrower than the SDK's (which also lets `*.localhost` go without TLS), and without the SDK:
 * the root entry, which the page's opener comes from, loads none of it.
 */
export function isBrowserUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Windows: url.dll's FileProtocolHandler, what `start` ends up calling, run directly from System32.
 * Not `cmd /c start`: cmd.exe reads `&`, `|`, `^`, `%VAR%`, `!` and `<>` in its command line as
 * syntax, and a URL may carry every one of them. rundll32 is no shell, and the URL — re-serialized,
 * so with no space, tab or quote — is passed by Node as it is. The full path: a bare name would be
 * looked up in the current directory first.
 */
export function windowsOpenCommand(url: URL, systemRoot: string): OpenCommand {
  return {
    file: `${systemRoot}\\System32\\rundll32.exe`,
    args: ['url.dll,FileProtocolHandler', url.href],
  };
}

export async function openInBrowser(text: string): Promise<void> {
  const url = new URL(text);
  if (!isBrowserUrl(url)) {
    throw new Error(
      `a ${url.protocol} URL is not opened: only https://, or http:// on this machine, goes to the browser`,
    );
  }
  const { file, args } =
    process.platform === 'darwin'
      ? { file: 'open', args: [url.href] }
      : process.platform === 'win32'
        ? windowsOpenCommand(url, process.env.SystemRoot ?? 'C:\\Windows')
        : { file: 'xdg-open', args: [url.href] };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore', detached: true });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
