// @epoch-agent/testkit: real servers for tests, benchmarks and the example — never mocks. The
// reference MCP server in all three transports, pinned to 127.0.0.1, the loopback port helpers
// around it, the one hand-written stdio fixture server, a 2026-07-28 server built on the server SDK
// (modern-server.mjs, over stdio and Streamable HTTP, in its own process), a real authorization
// server with an MCP server that takes only its tokens (startOAuthFixture), what a fresh process
// loads (modulesLoadedBy), the server configs tests build in code, a listener nothing may touch
// (startTripwire), what this process has read (readsSoFar), and the one polling wait for what has
// no event. A 2026-07-28 server in the test's own process, its tools given by the test, has its own
// subpath (`@epoch-agent/testkit/sdk-server`). Private: no published package depends on it at run
// time.

export { isTestkitError, TestkitError, type TestkitErrorCode } from './errors.js';
export {
  EVERYTHING_ENTRY,
  type EverythingEndpoint,
  type EverythingTransport,
  type RunningEverything,
  type StartEverythingOptions,
  startEverything,
} from './everything.js';
export {
  FIXTURE_SERVER,
  type FixtureCatalog,
  fixtureServerArgs,
  fixtureServerEntry,
} from './fixture-server.js';
export { freeLoopbackPort, listeningAddresses } from './loopback.js';
export {
  CATALOGS,
  FILESYSTEM_ENTRY,
  manyToolServers,
  SEARCH_PHRASINGS_FILE,
  type StdioEntry,
} from './many-tools.js';
export {
  MODERN_SERVER,
  type RunningModernServer,
  startModernHttp,
  TASK_SERVER,
} from './modern-server.js';
export { type LoadedModules, modulesLoadedBy } from './modules.js';
export { type OAuthFixture, startOAuthFixture } from './oauth-fixture.js';
export { rawControls } from './raw-controls.js';
export { readsSoFar } from './reads-so-far.js';
export {
  endpointConfig,
  remoteConfig,
  stdioConfig,
  TEST_SERVER_DEFAULTS,
} from './server-config.js';
export { startTripwire, type Tripwire } from './tripwire.js';
export { WAIT_UNTIL_DEFAULT_MS, waitUntil } from './waiting.js';
