// "Try": a tool's arguments as a form built from its input schema (schema-form.tsx), or as JSON
// for what a form cannot say; Run calls the tool through epoch web (POST …/call, the runtime's
// own tool, as the model would call it), shows the server's progress while it runs, and the result
// (tool-result.tsx); Cancel aborts the request, which the server is told of as
// notifications/cancelled. A question the server asks meanwhile is shown in a dialog over the page
// (question-dialog.tsx), which can stop the call as Cancel does (page-calls.ts).

import type { ToolProgress, ToolResult } from '@epoch-agent/runtime';
import type { Schema } from '@epoch-agent/runtime/schema-ref';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ToolCallRequest } from '../src/api-types.js';
import type { Api } from './api.js';
import { BusyButton } from './busy-button.js';
import { ForSeconds } from './live-time.js';
import { startCall } from './page-calls.js';
import { ProgressView } from './progress-view.js';
import {
  initialValue,
  jsonText,
  parsed,
  rootFields,
  SchemaField,
  sendable,
  unparsedAt,
} from './schema-form.js';
import { serverText } from './text.js';
import { ToolResultView } from './tool-result.js';

interface Props {
  readonly api: Api;
  /** The tool's path in the API (`/api/mcp/<server>/tools/<tool>`). */
  readonly path: string;
  /** The name the model is given: names the form, and makes its ids unique in the page. */
  readonly name: string;
  readonly inputSchema: Schema;
  /** What to do about a refused call, by its error code (advice.ts), when the page knows. */
  readonly advise: (code: string) => string | undefined;
  /** The tool left its server's list: what was typed stays, and Run says why it cannot run. */
  readonly gone: boolean;
}

type Run =
  | { readonly state: 'idle' }
  | { readonly state: 'running'; readonly since: number; readonly progress?: ToolProgress }
  | { readonly state: 'done'; readonly result: ToolResult; readonly ms: number }
  | { readonly state: 'refused'; readonly message: string; readonly advice?: string | undefined }
  | { readonly state: 'cancelled' };

type Arguments =
  | { readonly ok: true; readonly value: { readonly [key: string]: unknown } }
  | { readonly ok: false; readonly problem: string };

export function ToolTry({ api, path, name, inputSchema, advise, gone }: Props) {
  const fields = rootFields(inputSchema);
  const [value, setValue] = useState<unknown>(() => initialValue(inputSchema, inputSchema) ?? {});
  // A schema with no named parameters is written as JSON from the start.
  const [asJson, setAsJson] = useState(fields === undefined);
  const [text, setText] = useState(() => jsonText(value));
  const [problem, setProblem] = useState<string>();
  const [run, setRun] = useState<Run>({ state: 'idle' });
  const running = useRef<AbortController | undefined>(undefined);
  // A call whose form goes away (its card or tool gone, or filtered out) is cancelled with it.
  useEffect(() => () => running.current?.abort(), []);

  const argumentsNow = (): Arguments => {
    const args = asJson ? parsed(text === '' ? '{}' : text) : sendable(value);
    const at = unparsedAt(args);
    if (at !== undefined) {
      return { ok: false, problem: `${at} is not valid JSON: correct it, then run again.` };
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return { ok: false, problem: 'The arguments must be one JSON object, like {"a": 1}.' };
    }
    return { ok: true, value: args as { readonly [key: string]: unknown } };
  };

  const toggleJson = () => {
    if (!asJson) {
      const args = argumentsNow();
      if (!args.ok) return setProblem(args.problem);
      setText(JSON.stringify(args.value, null, 2));
    } else {
      const args = argumentsNow();
      if (!args.ok) return setProblem(args.problem);
      setValue(args.value);
    }
    setProblem(undefined);
    setAsJson(!asJson);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (running.current !== undefined) return;
    if (gone) {
      return setProblem(
        `${name} is no longer in its server's tool list, so it cannot be run; copy what you typed if you need it.`,
      );
    }
    const args = argumentsNow();
    if (!args.ok) return setProblem(args.problem);
    setProblem(undefined);
    const stop = new AbortController();
    running.current = stop;
    const call = startCall(() => stop.abort());
    const since = Date.now();
    setRun({ state: 'running', since });
    const body: ToolCallRequest = { arguments: args.value, call: call.id };
    try {
      const answer = await api.callAsItRuns(`${path}/call`, body, stop.signal, (progress) =>
        setRun({ state: 'running', since, progress }),
      );
      setRun(
        answer.ok
          ? { state: 'done', result: answer.value.result, ms: Date.now() - since }
          : {
              state: 'refused',
              message: answer.error.message,
              advice: advise(answer.error.code),
            },
      );
    } catch {
      // Only an abort rejects: Cancel, or the form going away.
      setRun({ state: 'cancelled' });
    } finally {
      call.end();
      if (running.current === stop) running.current = undefined;
    }
  };

  return (
    <form class="try-form" onSubmit={submit} aria-label={`Try ${name}`}>
      {asJson ? (
        <div class="field">
          <label for={`try-${name}-json`}>Arguments (JSON object)</label>
          <textarea
            id={`try-${name}-json`}
            class="json"
            rows={Math.min(16, Math.max(3, text.split('\n').length))}
            spellcheck={false}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </div>
      ) : (
        fields?.properties.map(([property, schema]) => (
          <SchemaField
            key={property}
            root={inputSchema}
            node={schema}
            label={property}
            id={`try-${name}-${property}`}
            required={fields.required.has(property)}
            value={isRecord(value) ? value[property] : undefined}
            onChange={(next) => setValue(withArgument(value, property, next))}
          />
        ))
      )}
      {fields === undefined && <p class="about">Its input schema names no parameters.</p>}
      {problem !== undefined && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <p class="try-actions">
        <BusyButton
          type="submit"
          class="primary"
          busy={run.state === 'running'}
          aria-disabled={gone}
        >
          {run.state === 'running' ? 'Running…' : 'Run'}
        </BusyButton>
        {run.state === 'running' && (
          <button type="button" onClick={() => running.current?.abort()}>
            Cancel
          </button>
        )}
        {fields !== undefined && (
          <BusyButton onClick={toggleJson} busy={run.state === 'running'}>
            {asJson ? 'Edit as a form' : 'Edit as JSON'}
          </BusyButton>
        )}
      </p>
      <RunView run={run} />
    </form>
  );
}

function RunView({ run }: { readonly run: Run }) {
  switch (run.state) {
    case 'idle':
      return null;
    case 'running':
      return (
        <>
          <p class="notice" role="status">
            Running <ForSeconds since={run.since} />…
          </p>
          {run.progress !== undefined && <ProgressView progress={run.progress} />}
        </>
      );
    case 'cancelled':
      return (
        <p class="notice" role="status">
          Cancelled: the server was told to stop the call.
        </p>
      );
    case 'refused':
      return (
        <>
          <p class="problem" role="alert">
            {serverText(run.message)}
          </p>
          {run.advice !== undefined && <p class="hint">{run.advice}</p>}
        </>
      );
    case 'done':
      return (
        <>
          {run.result.isError === true ? (
            <p class="problem" role="alert">
              The tool reported an error (isError). The model is given this result as it is:
            </p>
          ) : (
            <p class="notice" role="status">
              Done in {run.ms} ms. The model is given this result:
            </p>
          )}
          <ToolResultView result={run.result} />
        </>
      );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function withArgument(args: unknown, key: string, item: unknown): Record<string, unknown> {
  const next: Record<string, unknown> = isRecord(args) ? { ...args } : {};
  if (item === undefined) delete next[key];
  else next[key] = item;
  return next;
}
