// The JSON-RPC plumbing that hand-written stdio MCP fixture servers share: newline-delimited
// messages in on stdin, out on stdout. A fixture keeps its own switch over methods (that is what
// makes it a fixture); servers that must break the framing on purpose write their own.
// Plain JavaScript, so a fixture process starts without a build.

/** Writes one message as a line on stdout. */
export function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** Answers the request `message` with `result`. */
export function reply(message, result) {
  send({ jsonrpc: '2.0', id: message.id, result });
}

/** Answers the request `message` with -32601, as a server does for a method it does not have. */
export function methodNotFound(message) {
  send({
    jsonrpc: '2.0',
    id: message.id,
    error: { code: -32601, message: `Method not found: ${message.method}` },
  });
}

/**
 * Calls `handle` with every message that arrives on stdin (a chunk may hold several lines or part
 * of one), and `onEnd` when stdin ends; by default the process then exits, like a well-behaved
 * server whose client went away.
 */
export function serveStdio(handle, onEnd = () => process.exit(0)) {
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line !== '') handle(JSON.parse(line));
    }
  });
  process.stdin.on('end', onEnd);
}
