// How a tools/call result is checked on arrival and shown to the model, block by block: the checks
// are written by hand (they run on every call), so each rule of the lenient reading is pinned here.
// Over the wire, with real servers, the same path is tested in tools.test.ts.
import { describe, expect, it } from 'vitest';
import { checkToolCallResult, toolCallResultSchema, toToolResult } from '../src/tools/result.js';

describe('checkToolCallResult', () => {
  it('keeps what was sent, a missing content being an empty list and a non-boolean isError dropped', () => {
    expect(
      checkToolCallResult({
        content: [{ type: 'text', text: 'a' }],
        isError: true,
        _meta: { x: 1 },
      }),
    ).toEqual({
      value: { content: [{ type: 'text', text: 'a' }], isError: true, _meta: { x: 1 } },
    });
    expect(checkToolCallResult({ structuredContent: { n: 1 } })).toEqual({
      value: { content: [], structuredContent: { n: 1 } },
    });
    expect(checkToolCallResult({ content: [], isError: 'yes' })).toEqual({
      value: { content: [] },
    });
  });

  it('refuses a result that is not an object, or whose content is not a list', () => {
    for (const value of [null, 'text', [{ type: 'text', text: 'a' }]]) {
      expect(checkToolCallResult(value)).toEqual({
        issue: 'a tools/call result must be an object',
      });
    }
    expect(checkToolCallResult({ content: { type: 'text', text: 'a' } })).toEqual({
      issue: 'content: must be a list',
    });
  });

  it('is the Standard Schema the SDK path validates with', () => {
    const validate = toolCallResultSchema['~standard'].validate;
    expect(validate({ content: [] })).toEqual({ value: { content: [] } });
    expect(validate('text')).toEqual({
      issues: [{ message: 'a tools/call result must be an object' }],
    });
  });
});

describe('toToolResult', () => {
  const origin = 'MCP server "s" tool "t"';

  it('passes every block the spec defines with the fields it requires', () => {
    const content = [
      { type: 'text', text: 'hello', annotations: { priority: 0.5 } },
      { type: 'image', data: 'iVBO', mimeType: 'image/png' },
      { type: 'audio', data: 'UklG', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///a', mimeType: 'text/plain', text: 'A' } },
      { type: 'resource', resource: { uri: 'file:///b', blob: 'AAEC' } },
      { type: 'resource_link', uri: 'file:///c', name: 'c', description: 'C', size: 3 },
    ];
    expect(toToolResult({ content }, origin).content).toEqual([
      { type: 'text', text: 'hello', annotations: { priority: 0.5 } },
      { type: 'image', data: 'iVBO', mimeType: 'image/png' },
      { type: 'audio', data: 'UklG', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///a', mimeType: 'text/plain', text: 'A' } },
      { type: 'resource', resource: { uri: 'file:///b', blob: 'AAEC' } },
      { type: 'resource_link', uri: 'file:///c', name: 'c', description: 'C' },
    ]);
  });

  it('shows a block it cannot pass on as text that says so, and keeps the rest of the answer', () => {
    const content = [
      { type: 'text', text: 'kept' },
      { type: 'text', text: 42 },
      { type: 'image', data: 'not base64 !', mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///x' } },
      { type: 'resource_link', uri: 'file:///y' },
      { type: 'hologram', frames: 3 },
      'just a string',
    ];
    const shown = toToolResult({ content }, origin).content;
    expect(shown[0]).toEqual({ type: 'text', text: 'kept' });
    const types = ['text', 'image', 'resource', 'resource_link', 'hologram', 'string'];
    shown.slice(1).forEach((block, index) => {
      expect(block).toEqual({
        type: 'text',
        text: expect.stringContaining(
          `${origin} returned content of type "${types[index]}", which this client cannot show`,
        ),
      });
    });
  });

  it('gives structured content that is not an object to the model as text, and keeps isError', () => {
    expect(toToolResult({ content: [], structuredContent: [1, 2], isError: true }, origin)).toEqual(
      { content: [{ type: 'text', text: 'structuredContent: [1,2]' }], isError: true },
    );
    expect(toToolResult({ content: [], structuredContent: { n: 1 } }, origin)).toEqual({
      content: [],
      structuredContent: { n: 1 },
    });
  });
});
