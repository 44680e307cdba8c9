// What is not in the form is written by hand in mcp.json; the running page follows such an edit
// without a restart: a server written there connects and shows up, a server left alone keeps its
// process, a save that does not parse changes nothing but shows where it is wrong, and a server or
// tool turned off there shows as off.
import { writeFile } from 'node:fs/promises';
import { mcpConfigPath, writeFileAtomic } from '@epoch-agent/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATED_SERVER, processesWith, startTestWeb, type TestWeb } from './web-helpers.js';

let web: TestWeb;
let file: string;
const entry = (tag: string) => ({ command: process.execPath, args: [...ANNOTATED_SERVER, tag] });
const KEPT = `--kept-${process.pid}`;

beforeAll(async () => {
  file = mcpConfigPath();
  await writeFile(file, JSON.stringify({ servers: { kept: entry(KEPT) } }, null, 2));
  web = await startTestWeb({ approve: () => true });
  await web.settled();
});

afterAll(async () => {
  await web?.close();
});

// Each edit replaces the file the way an editor's safe save does, never in place: a read of the
// watched file between the truncation and the write of an in-place save sees an empty file, which
// says "no servers", and would take down the server the test expects to be left alone.
const save = (text: string) => writeFileAtomic(file, text);

describe('a hand edit of mcp.json while the page is open', () => {
  it('connects the server written there and leaves the others running; a broken save changes nothing and says where', async () => {
    const keptPid = processesWith(KEPT);
    expect(keptPid).toHaveLength(1);
    await save(
      JSON.stringify({ servers: { kept: entry(KEPT), handmade: entry('--handmade') } }, null, 2),
    );
    const view = await web.viewWhen((v) =>
      v.groups.user.some((s) => s.name === 'handmade' && s.status?.state === 'connected'),
    );
    expect(view.groups.user.map((s) => s.name)).toEqual(['kept', 'handmade']);
    expect(processesWith(KEPT)).toEqual(keptPid);

    await save('{ "servers": { "kept": ');
    const broken = await web.viewWhen((v) => v.diagnostics.some((d) => d.code === 'syntax_error'));
    expect(broken.diagnostics[0]).toMatchObject({ file, line: 1, source: 'user' });
    expect(broken.groups.user.map((s) => s.status?.state)).toEqual(['connected', 'connected']);
    expect(processesWith(KEPT)).toEqual(keptPid);
  });

  it('a tool or a server turned off by hand shows as off, and back on when the edit is undone', async () => {
    const servers = (kept: object) => ({ servers: { kept: { ...entry(KEPT), ...kept } } });
    await save(JSON.stringify(servers({ exclude_tools: ['forget'] })));
    const off = await web.viewWhen((v) => v.groups.user[0]?.toolsOff.length === 1);
    expect(off.groups.user[0]?.tools.map((t) => t.serverName)).toEqual(['lookup']);
    expect(off.groups.user[0]?.toolsOff.map((t) => t.serverName)).toEqual(['forget']);

    await save(JSON.stringify(servers({ disabled: true })));
    const disabled = await web.viewWhen((v) => v.groups.user[0]?.status?.state === 'disabled');
    expect(disabled.groups.user[0]).toMatchObject({ tools: [], toolsOff: [] });

    await save(JSON.stringify(servers({})));
    const back = await web.viewWhen(
      (v) => v.groups.user[0]?.tools.length === 2 && v.groups.user[0]?.status?.state !== 'disabled',
    );
    expect(back.groups.user[0]?.toolsOff).toEqual([]);
  });
});
