// `epoch mcp get` shows the elicitation setting that takes effect, on real files: a project's
// server declines by default, its own "ask" is refused with the warning under its table (naming
// the override to write), the user's override raises another one, and a user's own server asks by
// default.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epochIn } from './epoch-process.js';

let root: string;
let project: string;
let projectFile: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'epoch-cli-elicitation-'));
  env = { EPOCH_HOME: join(root, 'epoch-home'), HOME: join(root, 'home') };
  await mkdir(env.HOME as string, { recursive: true });
  await mkdir(env.EPOCH_HOME as string, { recursive: true });
  project = join(root, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  await mkdir(join(project, '.epoch'));
  projectFile = join(project, '.epoch', 'mcp.json');
  await writeFile(
    projectFile,
    `{\n  "servers": {\n    "asks": { "command": "node", "elicitation": "ask" },\n    "raised": { "command": "node" }\n  }\n}\n`,
  );
  await writeFile(
    join(env.EPOCH_HOME as string, 'mcp.json'),
    `{\n  "servers": { "mine": { "command": "node" } },\n  "overrides": {\n    "raised": { "elicitation": "ask" }\n  }\n}\n`,
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('epoch mcp get: elicitation', () => {
  it('a project\'s own "ask" shows decline, with the warning that says where to raise it', async () => {
    const run = await epochIn(project, ['mcp', 'get', 'asks'], env);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^elicitation +line 3 +decline$/m);
    expect(run.out).toContain(
      `"elicitation": "ask" of server "asks" in the project's ${projectFile} is ignored: its questions are declined without asking you. Only your own mcp.json lets it ask: add "overrides": { "asks": { "elicitation": "ask" } } there.`,
    );
  });

  it("the user's override raises a project's server; a user's own server asks by default", async () => {
    const raised = await epochIn(project, ['mcp', 'get', 'raised'], env);
    expect(raised.code, raised.err).toBe(0);
    const note = /^elicitation +overrides \[(\d)\] +ask$/m.exec(raised.out)?.[1];
    expect(raised.out).toContain(`[${note}] your "overrides" at ${env.EPOCH_HOME}/mcp.json:4\n`);
    expect(raised.out).not.toContain('is ignored');
    const mine = await epochIn(project, ['mcp', 'get', 'mine', '--json'], env);
    const { fields } = JSON.parse(mine.out);
    expect(fields).toContainEqual({
      field: 'elicitation',
      value: 'ask',
      from: { kind: 'default' },
    });
  });
});
