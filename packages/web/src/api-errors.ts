// How the API answers when the runtime refuses: the HTTP status for each error code, and the body
// the page shows (the error's own message, which names the server, file or field and what to do).
// The routes let a refusal throw and the app's one error handler (apiErrorHandler) answers it.
// The tables are Records over each error's codes, so a code added to the runtime or the plugin
// without a status here fails to compile instead of falling through to a 500.

import type { Logger } from '@epoch-agent/infra';
import { messageOf } from '@epoch-agent/infra';
import {
  isMcpConfigWriteError,
  isMcpError,
  isRuntimeError,
  type McpConfigWriteError,
  type McpConfigWriteErrorCode,
  type McpErrorCode,
  type RuntimeErrorCode,
} from '@epoch-agent/runtime';
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AddServerField, ApiErrorBody } from './api-types.js';

export interface ApiError {
  readonly status: ContentfulStatusCode;
  readonly body: ApiErrorBody;
}

export function apiError(
  status: ContentfulStatusCode,
  code: string,
  message: string,
  extra: Omit<ApiErrorBody['error'], 'code' | 'message'> = {},
): ApiError {
  return { status, body: { error: { code, message, ...extra } } };
}

export function sendApiError(c: Context, { status, body }: ApiError): Response {
  return c.json(body, status);
}

/**
 * The app's error handler: whatever a route throws, answered as fromError says. Hono's own
 * exceptions (the token guard's 401) keep the answer they carry, as Hono's default handler does.
 * An error no table knows is a bug of ours: it is logged too, so it is not lost in a browser tab.
 */
export function apiErrorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof HTTPException) {
      const res = error.getResponse();
      return c.newResponse(res.body, res);
    }
    const answer = fromError(error);
    if (answer.status === 500) {
      logger.error(`epoch web: ${c.req.method} ${c.req.path} failed: ${answer.body.error.message}`);
    }
    return sendApiError(c, answer);
  };
}

const CONFIG_WRITE_STATUS: Record<McpConfigWriteErrorCode, ContentfulStatusCode> = {
  invalid_name: 400,
  invalid_server: 400,
  invalid_entry: 400,
  renamed: 400,
  secret_placeholder: 400,
  duplicate_server: 409,
  unknown_server: 404,
  // The file as it is now stands in the way: fix it by hand, then ask again.
  syntax_error: 409,
  invalid_shape: 409,
  invalid_encoding: 409,
  invalid_value: 409,
  excluded_by_pattern: 409,
  unusable_file: 409,
  // The page wrote from what it had shown, and the file moved on since: reload, then again.
  changed_since: 409,
  lock_timeout: 503,
  too_large: 413,
};

const RUNTIME_STATUS: Record<RuntimeErrorCode, ContentfulStatusCode> = {
  unknown_server: 404,
  not_user_server: 403,
  not_remote_server: 400,
  // Mistakes of the host's code, which never reach a request; a 500 if they ever do.
  invalid_host_namespace: 500,
  invalid_host_server_name: 500,
  invalid_tool_name: 500,
};

const MCP_STATUS: Record<McpErrorCode, ContentfulStatusCode> = {
  unknown_server: 404,
  unknown_tool: 404,
  // A login the authorization server refused, or that could not reach it.
  login_failed: 502,
  oauth_failed: 502,
  redirect_refused: 502,
  login_timeout: 504,
  // The rest are a server's failures, which statuses report; a request that meets one is a 502.
  command_not_found: 502,
  spawn_failed: 502,
  too_many_open_files: 502,
  preflight_failed: 502,
  connect_timeout: 502,
  request_timeout: 502,
  request_total_timeout: 502,
  aborted: 502,
  connection_closed: 502,
  server_error: 502,
  request_failed: 502,
  connect_failed: 502,
  needs_login: 502,
  insufficient_scope: 502,
  not_supported: 502,
  input_required: 502,
  env_unset: 502,
  env_file_unreadable: 502,
  env_value_invalid: 502,
  headers_helper_failed: 502,
  duplicate_server: 409,
  // Asked of a server the user turned off: turn it on first. A login of a server that needs none:
  // nothing to do.
  server_disabled: 409,
  login_not_needed: 409,
  // Asked of a server that waits for approval: approve it first.
  needs_approval: 409,
  // A call of a tool withheld until approved, or an approval of one that is not withheld.
  tool_withheld: 409,
  tool_not_withheld: 409,
  // An approval of a tool the server changed again after the page showed it.
  tools_changed: 409,
  // A cancel of a task that had already ended: nothing to cancel.
  task_ended: 409,
  // A task its server no longer knows (its record is removed).
  task_gone: 410,
};

/** The answer to an error a runtime call threw; anything unknown is a 500 with its message. */
export function fromError(error: unknown): ApiError {
  if (isMcpConfigWriteError(error)) {
    const diagnostics = error.diagnostics.map(({ file, path, line, column, message }) => ({
      file,
      path,
      line,
      column,
      message,
    }));
    return apiError(CONFIG_WRITE_STATUS[error.code], error.code, error.message, {
      ...fieldsOf(error, diagnostics),
      ...(diagnostics.length === 0 ? {} : { diagnostics }),
    });
  }
  if (isRuntimeError(error)) return apiError(RUNTIME_STATUS[error.code], error.code, error.message);
  if (isMcpError(error)) return apiError(MCP_STATUS[error.code], error.code, error.message);
  const message = messageOf(error);
  return apiError(500, 'internal_error', `epoch web could not do that: ${message}`);
}

/** The form fields a refusal of addServer is about, so the page shows it under them. */
function fieldsOf(
  error: McpConfigWriteError,
  diagnostics: readonly { readonly path: string; readonly message: string }[],
): { fields?: Partial<Record<AddServerField, string>> } {
  switch (error.code) {
    case 'invalid_name':
    case 'duplicate_server':
      return { fields: { name: error.message } };
    case 'invalid_server':
      return { fields: diagnosticFields(diagnostics, error.server) };
    case 'too_large':
      return { fields: { [formField(error.field ?? '', error.server)]: error.message } };
    default:
      return {};
  }
}

/** Each diagnostic of the new server under the form field it is about (`servers.x.args[0]`: args). */
function diagnosticFields(
  diagnostics: readonly { readonly path: string; readonly message: string }[],
  server: string | undefined,
): Partial<Record<AddServerField, string>> {
  const fields: Partial<Record<AddServerField, string>> = {};
  for (const { path, message } of diagnostics) fields[formField(path, server)] ??= message;
  return fields;
}

/** The form field a path of the new server is under (`servers.x.args[0]`: args); else the name. */
function formField(path: string, server: string | undefined): AddServerField {
  const prefix = `servers.${server}.`;
  const field = path.startsWith(prefix) ? /^[a-z]+/.exec(path.slice(prefix.length))?.[0] : '';
  return field === 'command' || field === 'args' || field === 'url' || field === 'env'
    ? field
    : 'name';
}
