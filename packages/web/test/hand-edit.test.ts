// What is not in the form is written by hand in mcp.json; the running page follows such an edit
// without a restart: a server written there connects and shows up, a server left alone keeps its
// process, and a save that does not parse changes nothing but shows where it is wrong.
import { writeFile } from 'node:fs/promises';
import { mcpConfigPath } from '@epoch-agent/infra';
import type { McpView } from '@epoch-agent/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANNOTATED_SERVER,
  processesWith,
  readViewsUntil,
  startTestWeb,
  type TestWeb,
} from './web-helpers.js';

let web: TestWeb;
let file: string;
const entry = (tag: string) => ({ command: process.execPath, args: [ANNOTATED_SERVER, tag] });
const KEPT = `--kept-${process.pid}`;

beforeAll(async () => {
  file = mcpConfigPath();
  await writeFile(file, JSON.stringify({ servers: { kept: entry(KEPT) } }, null, 2));
  web = await startTestWeb();
});

afterAll(async () => {
  await web?.close();
});

/** The first view of the event stream that passes `test`. */
async function viewWhere(test: (view: McpView) => boolean): Promise<McpView> {
  const views = await readViewsUntil(await web.api('/api/events'), test);
  return views.at(-1) as McpView;
}

describe('a hand edit of mcp.json while the page is open', () => {
  it('connects the server written there and leaves the others running; a broken save changes nothing and says where', async () => {
    const keptPid = processesWith(KEPT);
    expect(keptPid).toHaveLength(1);
    await writeFile(
      file,
      JSON.stringify({ servers: { kept: entry(KEPT), handmade: entry('--handmade') } }, null, 2),
    );
    const view = await viewWhere((v) =>
      v.groups.user.some((s) => s.name === 'handmade' && s.status?.state === 'connected'),
    );
    expect(view.groups.user.map((s) => s.name)).toEqual(['kept', 'handmade']);
    expect(processesWith(KEPT)).toEqual(keptPid);

    await writeFile(file, '{ "servers": { "kept": ');
    const broken = await viewWhere((v) => v.diagnostics.some((d) => d.code === 'syntax_error'));
    expect(broken.diagnostics[0]).toMatchObject({ file, line: 1, source: 'user' });
    expect(broken.groups.user.map((s) => s.status?.state)).toEqual(['connected', 'connected']);
    expect(processesWith(KEPT)).toEqual(keptPid);
  });
});
