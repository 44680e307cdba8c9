// Preloaded (`node --import`) into the reference server, whose sse / streamableHttp modes take only
// a PORT and would listen on every interface, and into the conformance runner, whose scenario
// servers listen(0) the same way: a listen() that names no host gets 127.0.0.1, so no server a
// test, benchmark, the example or `npm run conformance` starts is ever exposed to the network. Shipped beside
// dist/ (not compiled) because Node loads it by path before the server's own code.
import dns from 'node:dns';
import net from 'node:net';

const LOOPBACK = '127.0.0.1';
const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [first] = args;
  if (args.length === 0 || typeof first === 'function') {
    args.unshift(0, LOOPBACK);
  } else if (
    (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) &&
    typeof args[1] !== 'string'
  ) {
    args.splice(1, 0, LOOPBACK);
  } else if (
    typeof first === 'object' &&
    first !== null &&
    Object.getPrototypeOf(first) === Object.prototype &&
    first.host === undefined &&
    first.path === undefined
  ) {
    args[0] = { ...first, host: LOOPBACK };
  } else {
    return listen.apply(this, args);
  }
  return listenWithoutLookup(this, args);
};

// A listen() that names a host first resolves it with dns.lookup, so it binds a tick later than
// one that names none, which binds during the call. A server that reads address() right after
// listen(0) (the conformance suite's scenario servers do) would get null once the host is added
// here. 127.0.0.1 needs no lookup: answer it within the call, so binding stays synchronous.
function listenWithoutLookup(server, args) {
  const lookup = dns.lookup;
  dns.lookup = function lookupLoopback(host, options, callback) {
    if (host !== LOOPBACK) {
      return lookup.call(this, host, options, callback);
    }
    const done = typeof options === 'function' ? options : callback;
    if (typeof options === 'object' && options?.all === true) {
      return done(null, [{ address: LOOPBACK, family: 4 }]);
    }
    return done(null, LOOPBACK, 4);
  };
  try {
    return listen.apply(server, args);
  } finally {
    dns.lookup = lookup;
  }
}
