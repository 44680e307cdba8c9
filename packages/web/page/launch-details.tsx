// What a server would run, as a person should see it before saying yes (the runtime's McpLaunch):
// the download warning first, then the full command (or URL), its directory, the names of its
// variables and headers (never their values), and the headers helper it runs here. Shown by the
// approval dialog and "Import from…".
import type { McpLaunch } from '@epoch-agent/runtime';
import type { ComponentChildren } from 'preact';
import { launchText } from './text.js';

export function LaunchDetails({ launch }: { readonly launch: McpLaunch }) {
  const { downloads } = launch;
  return (
    <div class="launch">
      {downloads !== undefined && (
        <p class="launch-download">
          <strong>Starting it downloads and runs code:</strong> {launchText(downloads.launcher)}{' '}
          fetches <code>{launchText(downloads.what)}</code> and runs it with your rights.
        </p>
      )}
      <dl>
        {launch.command !== undefined && (
          <Row term="Runs">
            <code class="launch-command">
              {launch.command.map((word, i) => (
                <span class="word" key={i}>
                  {launchText(word)}
                </span>
              ))}
            </code>
          </Row>
        )}
        {launch.url !== undefined && (
          <Row term={`Connects to (${launch.transport})`}>
            <code class="launch-url">{launchText(launch.url)}</code>
          </Row>
        )}
        {launch.cwd !== undefined && (
          <Row term="In">
            <code>{launchText(launch.cwd)}</code>
          </Row>
        )}
        <Names term="Environment" names={launch.envNames} />
        {launch.envFile !== undefined && (
          <Row term="Variables from">
            <code>{launchText(launch.envFile)}</code>
          </Row>
        )}
        <Names term="Headers" names={launch.headerNames} />
        {launch.headersHelper !== undefined && (
          <Row term="Headers from (runs here)">
            <code class="launch-command">
              {launch.headersHelper.map((word, i) => (
                <span class="word" key={i}>
                  {launchText(word)}
                </span>
              ))}
            </code>
          </Row>
        )}
      </dl>
    </div>
  );
}

function Row({ term, children }: { readonly term: string; readonly children: ComponentChildren }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

function Names({
  term,
  names = [],
}: {
  readonly term: string;
  readonly names?: readonly string[] | undefined;
}) {
  if (names.length === 0) return null;
  return (
    <Row term={term}>
      {names.map((name, i) => (
        <span key={name}>
          {i > 0 && ', '}
          <code>{launchText(name)}</code>
        </span>
      ))}{' '}
      (values hidden)
    </Row>
  );
}
