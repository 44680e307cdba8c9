// The safety net under every test file: EPOCH_HOME points at a fresh temp dir of its own, so code
// that falls back to epochHome() (the schema cache, OAuth tokens, plugin and user mcp.json files)
// never reads or writes the real ~/.epoch. A test that needs a home it controls still sets
// EPOCH_HOME itself; this only decides what everything else sees.
//
// An EPOCH_HOME inherited from the shell is replaced too: it is most likely the developer's real
// home, which is exactly what must stay untouched. Child processes the tests start inherit the temp
// dir through process.env.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const inherited = process.env.EPOCH_HOME;
const home = mkdtempSync(join(tmpdir(), 'epoch-test-home-'));
process.env.EPOCH_HOME = home;

// Registered before any hook of the test file, so (hooks run as a stack) it runs after all of them:
// the file's own cleanup, which may still write a cache entry while disconnecting, goes first.
afterAll(async () => {
  if (inherited === undefined) delete process.env.EPOCH_HOME;
  else process.env.EPOCH_HOME = inherited;
  // Retries: a server process that is still exiting may write into the dir while it is removed.
  await rm(home, { recursive: true, force: true, maxRetries: 3 });
});
