// The connection's code as a client loads it: once per process, by import() (start.ts), on its
// first connect or request, so that importing the plugin loads none of the SDK. What a client
// needs of the SDK side: opening a link, the error a request's failure becomes, whether it was a
// method-not-found, and the error that settles the calls still queued when the client closes.
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

export { isMethodNotFound, requestError } from '../errors/request.js';
export { openConnection } from './open.js';
export { DETACHED, operation, tracingOn, within } from './tracing.js';

export function connectionClosed(): Error {
  return new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
}
