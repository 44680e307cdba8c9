// The client under test of the official conformance suite: what the runner starts for every client
// scenario, as `<node> driver.mjs <server url>`. Built only on the plugin's public API, the way a
// host and its user use it: an http config read by parseMcpConfig, McpRegistry.connectAll, then
// the tool calls the scenario's plan names (plans.mjs; most scenarios: every tool the server
// offers, once) through EpochTool.execute — the arguments and schemas the model would be handed —
// then disconnectAll. A server that wants a login gets one as `epoch mcp login` does it —
// loginToServer with the plugin's own loopback callback server — except that the "browser" is an
// HTTP client that follows the authorization server's redirect back to that callback; then the
// server is reconnected and what failed is tried once more. The scenario's name
// (MCP_CONFORMANCE_SCENARIO) only picks the plan: how the client behaves is the plugin's.
//
// The runner's MCP_CONFORMANCE_CONTEXT carries what a user would have written in mcp.json (a
// pre-registered client's id and secret or private key, an identity provider and the user's ID
// token from it); the driver puts it in the server's `oauth` field, under that field's names.
// Which grant follows from those fields and the authorization server, as for any user. A context
// may also name the exact tool calls to make (`toolCalls`).
//
// The driver is a host that can ask someone: its person (`personAtTheDriver`) is shown each
// question a server asks, presses OK on a form as it came, pre-filled with its defaults (the
// plugin fills in each default, SEP-1034), and says no to a page to visit, which it could not open.
//
// Runs on the machine's Node (the runner alone runs on Node 22). Exit code 0 when the server was
// reached and every call came back (or failed as its plan allows); anything else is printed to
// stderr, which the runner keeps beside the scenario's checks.
import { isMcpError, loginToServer, McpRegistry, parseMcpConfig } from '@epoch-agent/plugin-mcp';
import { planFor } from './plans.mjs';

/** Below the runner's own client timeout (run.mjs gives it 30 s), so the driver reports first. */
const DEADLINE_MS = 25_000;
const LOGIN_TIMEOUT_MS = 15_000;
const EXIT_GRACE_MS = 3_000;
const SERVER = 'conformance';
/**
 * The driver's client identity where an authorization server takes Client ID Metadata Documents
 * (dynamic registration elsewhere). The suite's authorization servers expect this URL.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** The context fields that map onto the `oauth` field of mcp.json: context name -> oauth name. */
const OAUTH_CONTEXT_FIELDS = new Map([
  ['client_id', 'client_id'],
  ['client_secret', 'client_secret'],
  ['private_key_pem', 'private_key'],
  ['signing_algorithm', 'signing_algorithm'],
  ['idp_issuer', 'idp_issuer'],
  ['idp_token_endpoint', 'idp_token_endpoint'],
  ['idp_client_id', 'idp_client_id'],
  ['idp_id_token', 'idp_id_token'],
]);
/** Context fields that are not login fields: the scenario's name, and the calls it wants. */
const OTHER_CONTEXT_FIELDS = new Set(['name', 'toolCalls']);
/** Errors only a (new) login fixes: no login, or a login without the scope a request needs. */
const LOGIN_ERRORS = new Set(['needs_login', 'insufficient_scope']);

const stderrLogger = {
  debug() {},
  info: (message) => console.error(`info: ${message}`),
  warn: (message) => console.error(`warn: ${message}`),
  error: (message) => console.error(`error: ${message}`),
};

async function main() {
  const url = process.argv[2];
  if (url === undefined) {
    throw new Error('usage: driver.mjs <server url> (the conformance runner appends it)');
  }
  const signal = AbortSignal.timeout(DEADLINE_MS);
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
  const plan = planFor(process.env.MCP_CONFORMANCE_SCENARIO ?? '', context);
  const config = serverConfig(url, oauthFromContext(context));
  // No schema cache: every run must meet the server, never a tool list remembered from before.
  const registry = new McpRegistry({
    logger: stderrLogger,
    schemaCache: null,
    elicit: personAtTheDriver,
  });
  try {
    let [status] = await registry.connectAll([config], 'user');
    if (status?.state === 'needsLogin') {
      await login(config);
      status = await registry.reconnect(SERVER);
    }
    if (status?.state !== 'connected') {
      throw new Error(`server "${SERVER}" did not connect: ${JSON.stringify(status)}`);
    }
    const { name, version } = status.serverInfo;
    console.log(`connected to ${name} ${version}, the driver on Node ${process.version}`);
    const offered = registry
      .tools()
      .filter(({ target }) => target.kind === 'tool')
      .map(({ target, inputSchema }) => ({ name: target.name, inputSchema }));
    for (const { name, args } of plan.calls(offered)) {
      const call = () => toolNamed(registry, name).execute(args, { signal });
      const result = await call()
        .catch(async (error) => {
          if (!isMcpError(error) || !LOGIN_ERRORS.has(error.code)) throw error;
          console.error(`driver: tool "${name}": ${error.message}`);
          await login(config);
          await registry.reconnect(SERVER);
          return call();
        })
        .catch((error) => {
          if (!isMcpError(error) || plan.mayFail.get(name) !== error.code) throw error;
          return `failed as its plan allows: ${error.message}`;
        });
      console.log(`${name}: ${JSON.stringify(result)}`);
    }
    if (plan.readsAndGets) await readAndGet(registry, signal);
  } finally {
    await registry.disconnectAll();
  }
}

// One resources/read and one prompts/get, each of the first the server lists (when it offers
// them): through the resource tools the model is given, and the registry's prompts as a host
// reads them.
async function readAndGet(registry, signal) {
  const tools = registry.tools();
  const list = tools.find(({ target }) => target.kind === 'list_resources');
  const read = tools.find(({ target }) => target.kind === 'read_resource');
  if (list !== undefined && read !== undefined) {
    const listing = await list.execute({}, { signal });
    const [first] = JSON.parse(listing.content[0]?.text ?? '{}').resources ?? [];
    if (first?.uri !== undefined) {
      const result = await read.execute({ uri: first.uri }, { signal });
      console.log(`${first.uri}: ${JSON.stringify(result)}`);
    }
  }
  const [prompt] = await registry.listPrompts(signal);
  if (prompt !== undefined) {
    const got = await registry.getPrompt(SERVER, prompt.prompt.name, {}, signal);
    console.log(`prompt ${prompt.prompt.name}: ${JSON.stringify(got)}`);
  }
}

function login(config) {
  return loginToServer({
    config,
    logger: stderrLogger,
    timeoutMs: LOGIN_TIMEOUT_MS,
    onAuthorizationUrl: (url) => console.error(`driver: authorizing at ${new URL(url).origin}`),
    openUrl: followAuthorization,
  });
}

// What a browser does with the authorization URL when the user is already signed in and approves:
// the authorization server redirects to our loopback callback, carrying the code.
async function followAuthorization(url) {
  const response = await fetch(url);
  await response.body?.cancel();
}

// What a person at a terminal does with a server's question when they read it and press OK: a form
// goes back as it was shown (nothing typed; the defaults it showed are filled in by the plugin),
// and a page to visit is declined (nothing here opens a browser).
async function personAtTheDriver(question) {
  console.error(
    `driver: ${question.server} asks (${question.mode}${question.during === undefined ? '' : `, during ${question.during.kind} "${question.during.name}"`}): ${question.message}`,
  );
  return question.mode === 'form' ? { action: 'accept', content: {} } : { action: 'decline' };
}

// A reconnect builds the server's tools anew: call the one of the current connection.
function toolNamed(registry, name) {
  const tool = registry
    .tools()
    .find(({ target }) => target.kind === 'tool' && target.name === name);
  if (tool === undefined) throw new Error(`server "${SERVER}" does not offer tool "${name}"`);
  return tool;
}

function oauthFromContext(context) {
  const oauth = Object.fromEntries(
    [...OAUTH_CONTEXT_FIELDS]
      .filter(([field]) => typeof context[field] === 'string')
      .map(([field, name]) => [name, context[field]]),
  );
  const unused = Object.keys(context).filter(
    (key) => !OTHER_CONTEXT_FIELDS.has(key) && !OAUTH_CONTEXT_FIELDS.has(key),
  );
  if (unused.length > 0) {
    console.error(`driver: mcp.json's oauth field has no place for context fields ${unused}`);
  }
  return 'client_id' in oauth ? oauth : { client_metadata_url: CLIENT_METADATA_URL };
}

function serverConfig(url, oauth) {
  const text = JSON.stringify({ servers: { [SERVER]: { transport: 'http', url, oauth } } });
  const { servers, diagnostics } = parseMcpConfig(text, 'conformance/driver.mjs');
  const [config] = servers;
  if (config === undefined || diagnostics.length > 0) {
    throw new Error(`the driver's own config is wrong: ${JSON.stringify(diagnostics)}`);
  }
  return config;
}

main()
  .catch((error) => {
    console.error(
      `driver failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`,
    );
    process.exitCode = 1;
  })
  .finally(() => {
    // After disconnectAll nothing of the plugin may keep Node alive; if something does, say so
    // and fail rather than let the runner's timeout hide it.
    setTimeout(() => {
      console.error(
        `driver: something still held the process ${EXIT_GRACE_MS} ms after disconnectAll.`,
      );
      process.exit(1);
    }, EXIT_GRACE_MS).unref();
  });
