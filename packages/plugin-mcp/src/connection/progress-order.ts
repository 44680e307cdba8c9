// Keeps a progress report ahead of the answer that follows it. The SDK hands a notification to its
// handler a microtask after it arrives, but settles an answer at once, dropping the request's
// progress handler as it does. Reports and the answer that a server writes together arrive in one
// read (one chunk of a pipe, one batch of an HTTP stream), so the reports were lost — the last
// ones, which say the work is done. So after a report, every other message of the same turn waits
// one microtask, behind the SDK's delivery of the reports; reports pass at once, and the other
// messages keep their order.
import type { Transport } from '@modelcontextprotocol/client';

/** Call after the SDK has connected `transport` (it wraps the transport's onmessage then). */
export function keepProgressFirst(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  let reported = false;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress') {
      if (!reported) {
        reported = true;
        queueMicrotask(() => {
          reported = false;
        });
      }
      deliver(message, extra);
    } else if (reported) {
      queueMicrotask(() => deliver(message, extra));
    } else {
      deliver(message, extra);
    }
  };
}
