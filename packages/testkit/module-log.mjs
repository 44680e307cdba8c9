// A preload (`node --import @epoch-agent/testkit/module-log ...`) that records every ES module the
// process loads, as a module hook sees it, and writes them (in load order, as a JSON list of
// `{ url, at }`, `at` when its load began in milliseconds since the epoch, to the microsecond) to
// the file named by $EPOCH_MODULE_LOG when the process is about to exit on its own. How a test
// proves what an entry point or a command does not load. Plain JavaScript: no build needed.
import { writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

// Runs in the hooks thread: posts each module's URL to this thread before it loads.
const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) {
  port.postMessage({ url, at: performance.timeOrigin + performance.now() });
  return next(url, context);
}`;

const out = process.env.EPOCH_MODULE_LOG;
if (out === undefined) throw new Error('module-log: set EPOCH_MODULE_LOG to the file to write');

const loads = [];
// One module loaded last: its URL is the last message (a port keeps their order).
const END = 'data:text/javascript,export{}//module-log-end';
let ended;
const done = new Promise((resolve) => {
  ended = resolve;
});
const { port1, port2 } = new MessageChannel();
port1.on('message', (load) => (load.url === END ? ended() : loads.push(load)));
// The log never keeps the process alive; it is held open only while the last messages arrive.
port1.unref();
register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
  data: { port: port2 },
  transferList: [port2],
});

let written = false;
process.on('beforeExit', async () => {
  if (written) return;
  written = true;
  port1.ref();
  await import(END);
  await done;
  port1.close();
  writeFileSync(out, JSON.stringify(loads));
});
