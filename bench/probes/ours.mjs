// Our client as the probes load it: this repo's build of @epoch-agent/plugin-mcp, or, when
// $EPOCH_BENCH_OURS names another checkout of the repo (built), that one's, so that two versions
// can be compared with the same probes (`node bench/peers-rows.mjs --ours <checkout>`).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PLUGIN = '@epoch-agent/plugin-mcp';

/** The plugin's root entry. */
export function loadOurs() {
  const checkout = process.env.EPOCH_BENCH_OURS;
  if (checkout === undefined || checkout === '') return import(PLUGIN);
  const resolved = createRequire(join(checkout, 'package.json')).resolve(PLUGIN);
  return import(pathToFileURL(resolved).href);
}
