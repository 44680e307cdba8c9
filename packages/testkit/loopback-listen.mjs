// Preloaded (`node --import`) into the reference server, whose sse / streamableHttp modes take only
// a PORT and would listen on every interface: a listen() that names no host gets 127.0.0.1, so no
// server a test, benchmark or the example starts is ever exposed to the network. Shipped beside
// dist/ (not compiled) because Node loads it by path before the server's own code.
import net from 'node:net';

const LOOPBACK = '127.0.0.1';
const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [first] = args;
  if (args.length === 0 || typeof first === 'function') {
    args.unshift(0, LOOPBACK);
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof args[1] !== 'string') {
      args.splice(1, 0, LOOPBACK);
    }
  } else if (
    typeof first === 'object' &&
    first !== null &&
    Object.getPrototypeOf(first) === Object.prototype &&
    first.host === undefined &&
    first.path === undefined
  ) {
    args[0] = { ...first, host: LOOPBACK };
  }
  return listen.apply(this, args);
};
