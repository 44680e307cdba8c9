// `epoch mcp tools` with tools over the budget: what the model is offered one by one, what it finds
// on demand (deferred behind mcp_search_tools), what the user turned off, and the budget — per
// server and in all, in text and in --json. Real `epoch` processes on the pid-server fixture.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_SERVER } from '@epoch-agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epoch } from './epoch-process.js';

/** The fixture server's script: its default catalog is the `pid` tools. */
const PID_SERVER = FIXTURE_SERVER;

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'epoch-cli-deferred-'));
  const server = (tools: string[]) => ({
    command: process.execPath,
    args: [PID_SERVER, ...tools.map((tool) => `--tool=${tool}`)],
  });
  await writeFile(
    join(root, 'mcp.json'),
    JSON.stringify({
      tool_budget_tokens: 5000,
      servers: {
        near: server(['read_note']),
        far: { ...server(['search_mail', 'send_mail', 'delete_mail']), defer: true },
        mixed: { ...server(['list_events']), exclude_tools: ['list_events'] },
      },
    }),
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const run = (...argv: string[]) => epoch(argv, { EPOCH_HOME: root });

describe('epoch mcp tools with deferred tools', () => {
  it('marks the tools found on demand, counts them apart, and says the budget', async () => {
    const tools = await run('mcp', 'tools');
    expect(tools.err).toBe('');
    expect(tools.code).toBe(0);
    // `far` says defer: true, so all four of its tools are found on demand.
    expect(tools.out).toMatch(
      /^far \(user, stdio\): 0 tools, about 0 tokens of context per request; 4 more found on demand, which offered would add about \d+$/m,
    );
    for (const tool of ['whoami', 'search_mail', 'send_mail', 'delete_mail']) {
      expect(tools.out).toMatch(new RegExp(`^ {2}mcp__far__${tool} \\(on demand\\)`, 'm'));
    }
    expect(tools.out).toMatch(/^near \(user, stdio\): 2 tools, about \d+ tokens/m);
    expect(tools.out).toMatch(/^ {2}mcp__mixed__list_events \(off\)/m);
    expect(tools.out).toMatch(
      /^In all: 5 tools from 3 servers, about \d+ tokens of context per request; 4 more found on demand, which offered would add about \d+; 1 tool off would add about \d+\. Tool budget: 5,000 tokens \(tool_budget_tokens\)\. The model finds those with mcp_search_tools and runs them with mcp_call_tool \(both counted above\)\.$/m,
    );
  });

  it('--json: the offered, on-demand and off tools of each server, and the budget', async () => {
    const tools = await run('mcp', 'tools', '--json');
    expect(tools.code).toBe(0);
    const json = JSON.parse(tools.out) as {
      toolBudgetTokens: number;
      servers: { name: string; tools: { name: string }[]; onDemandTools: { name: string }[] }[];
    };
    expect(json.toolBudgetTokens).toBe(5000);
    const far = json.servers.find(({ name }) => name === 'far');
    expect(far?.tools).toEqual([]);
    expect(far?.onDemandTools.map(({ name }) => name)).toEqual([
      'mcp__far__whoami',
      'mcp__far__search_mail',
      'mcp__far__send_mail',
      'mcp__far__delete_mail',
    ]);
  });
});
