// The project's servers on the connectors page's API: epoch web started with a project directory
// whose .epoch/mcp.json brings a real fixture server and an entry named like one of the user's,
// over real HTTP on 127.0.0.1. The view groups them under `project`, with where each is written;
// the clashing entry is a not-loaded card of the project's group, saying the user's keeps the name.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpConfigPath } from '@epoch-agent/infra';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureEntry, PID_SERVER, startTestWeb, type TestWeb } from './web-helpers.js';

let project: string;
let web: TestWeb | undefined;

beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'epoch-web-project-'));
  await mkdir(join(project, '.git'));
});
afterEach(async () => {
  await web?.close();
  web = undefined;
  await rm(project, { recursive: true, force: true });
});

describe('project servers on the page', () => {
  it('are grouped under project with their file; a name of the user file is a not-loaded card there', async () => {
    const file = join(project, '.epoch', 'mcp.json');
    await mkdir(join(project, '.epoch'));
    const servers = { docs: fixtureEntry(PID_SERVER), mine: fixtureEntry(PID_SERVER) };
    await writeFile(file, JSON.stringify({ servers }, null, 2));
    await writeFile(
      mcpConfigPath(),
      JSON.stringify({ servers: { mine: fixtureEntry(PID_SERVER) } }),
    );

    // A host that approves every server: this is about the groups, not about approvals.
    web = await startTestWeb({ projectDir: project, approve: () => true });
    const view = await web.settled();
    expect(view.groups.project.map(({ name, origin, at }) => [name, origin, at?.file])).toEqual([
      ['docs', { source: 'project', file }, file],
    ]);
    expect(view.groups.project[0]?.status).toMatchObject({ source: 'project', state: 'connected' });
    expect(view.groups.user.map(({ name }) => name)).toEqual(['mine']);
    expect(view.notLoaded.project).toMatchObject([
      { name: 'mine', source: 'project', at: { file, line: 9 } },
    ]);
    expect(view.notLoaded.project[0]?.problems[0]?.message).toContain(
      'a user server already has that name and keeps it',
    );
  });
});
