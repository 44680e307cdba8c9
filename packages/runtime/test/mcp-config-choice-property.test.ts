// planChoice on generated mcp.json files — tabs or 2 or 4 spaces, LF or CRLF, a BOM or not,
// comments above and after members, trailing commas, one-line and multi-line entries, aliases
// (`type`, `disabled`), camelCase (`connectTimeout`, `excludeTools`), tool lists with patterns,
// with or without `overrides` — and random sequences of edits. After every edit: the file parses,
// no byte outside the edited entry (and the separators next to it) changed, no comment was lost,
// and the entry's JSON value says what was asked (an independent reading of enabled / disabled and
// the tool lists). Turning things off and then on again in reverse order gives back the original.
//
// Not generated, on purpose: `"enabled": true` and empty tool lists. Off-then-on takes those out
// (absent means the same), so their bytes do not come back; mcp-config-choice.test.ts shows it.
import { parseMcpConfig } from '@epoch-agent/plugin-mcp/config';
import fc from 'fast-check';
import { type Node, type ParseError, parse, parseTree, visit } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { type ChoiceEdit, type ChoiceTarget, planChoice } from '../src/config-edit/plan-choice.js';

const FILE = '/tmp/mcp.json';

interface Layout {
  readonly eol: '\n' | '\r\n';
  readonly unit: string;
}

interface Item {
  readonly text: string;
  readonly above?: string | undefined;
  readonly sameLine?: string | undefined;
}

interface Shape {
  readonly items: readonly Item[];
  readonly trailingComma: boolean;
  readonly inline: boolean;
}

/** An object as a person writes it; comments go in block form on one line. */
function printObject(shape: Shape, depth: number, layout: Layout): string {
  const { items, trailingComma } = shape;
  const comma = (i: number) => (i < items.length - 1 || trailingComma ? ',' : '');
  if (shape.inline) {
    const block = (c: string | undefined) => (c === undefined ? '' : `/* ${c} */ `);
    return `{ ${items.map((item, i) => `${block(item.above)}${item.text}${comma(i)}`).join(' ')} }`;
  }
  const { eol, unit } = layout;
  const inner = unit.repeat(depth + 1);
  let out = '{';
  items.forEach((item, i) => {
    if (item.above !== undefined) out += `${eol}${inner}// ${item.above}`;
    out += `${eol}${inner}${item.text}${comma(i)}`;
    if (item.sameLine !== undefined) out += ` /* ${item.sameLine} */`;
  });
  return `${out}${eol}${unit.repeat(depth)}}`;
}

const commentArb = fc.option(fc.constantFrom('note', '"enabled": false,', '} ] ,', 'ünï 😀'), {
  nil: undefined,
  freq: 2,
});
const listArb = (pool: readonly string[]) =>
  fc
    .uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: 3 })
    .map((xs) => JSON.stringify(xs));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** The fields that say a choice, in every spelling but the lossy ones (see the header). */
const choiceFieldsArb = fc.record({
  flag: optional(fc.constantFrom('"enabled": false', '"disabled": true', '"disabled": false')),
  include: optional(
    fc.tuple(
      fc.constantFrom('include_tools', 'includeTools'),
      listArb(['read_*', 'search', 'write_file', '*']),
    ),
  ),
  exclude: optional(
    fc.tuple(
      fc.constantFrom('exclude_tools', 'excludeTools'),
      listArb(['delete_*', 'write_file', 'x', 'say "hi"']),
    ),
  ),
});

const entryArb = (withServerFields: boolean) =>
  fc
    .record({
      server: fc.record({
        transport: optional(fc.constantFrom('"type": "stdio"', '"transport": "stdio"')),
        command: fc.constant(withServerFields ? '"command": "npx"' : undefined),
        timeout: optional(fc.constantFrom('"connectTimeout": 30', '"connect_timeout": 5')),
      }),
      choice: choiceFieldsArb,
      inline: fc.boolean(),
      trailingComma: fc.boolean(),
      above: commentArb,
      sameLine: commentArb,
    })
    .chain((e) => {
      const { flag, include, exclude } = e.choice;
      const fields = [
        ...(withServerFields ? Object.values(e.server) : []),
        flag,
        include && `"${include[0]}": ${include[1]}`,
        exclude && `"${exclude[0]}": ${exclude[1]}`,
      ].filter((f): f is string => f !== undefined);
      // An override says something, or it would not be there.
      const all = fields.length > 0 ? fields : ['"enabled": false'];
      return fc
        .shuffledSubarray(all, { minLength: all.length })
        .map((order) => ({ ...e, fields: order }));
    });

const SERVER_NAMES = ['github', 'fs', 'remote-1'];
const OVERRIDE_NAMES = ['acme__search', 'myplugin__fs', 'host__tool'];
const TOOLS = ['write_file', 'delete_repo', 'search', 'read_file', 'x', 'say "hi"'];

const fileArb = fc
  .record({
    layout: fc.record({
      eol: fc.constantFrom<Layout['eol']>('\n', '\r\n'),
      unit: fc.constantFrom('\t', '  ', '    '),
    }),
    servers: fc.array(entryArb(true), { minLength: 1, maxLength: 3 }),
    overrides: optional(fc.array(entryArb(false), { minLength: 1, maxLength: 2 })),
    serversComma: fc.boolean(),
    topComma: fc.boolean(),
    overridesFirst: fc.boolean(),
    topComment: commentArb,
    bom: fc.boolean(),
    finalBreak: fc.boolean(),
  })
  .map((g) => {
    const { layout } = g;
    const members = (entries: typeof g.servers, names: string[], depth: number): Item[] =>
      entries.map((e, i) => ({
        text: `"${names[i]}": ${printObject({ items: e.fields.map((text) => ({ text })), trailingComma: e.trailingComma, inline: e.inline }, depth + 1, layout)}`,
        above: e.above,
        sameLine: e.sameLine,
      }));
    const servers = printObject(
      { items: members(g.servers, SERVER_NAMES, 1), trailingComma: g.serversComma, inline: false },
      1,
      layout,
    );
    const top: Item[] = [{ text: `"servers": ${servers}`, above: g.topComment }];
    if (g.overrides !== undefined) {
      const overrides = printObject(
        { items: members(g.overrides, OVERRIDE_NAMES, 1), trailingComma: false, inline: false },
        1,
        layout,
      );
      top[g.overridesFirst ? 'unshift' : 'push']({ text: `"overrides": ${overrides}` });
    }
    const body = printObject({ items: top, trailingComma: g.topComma, inline: false }, 0, layout);
    return {
      text: `${g.bom ? '\uFEFF' : ''}${body}${g.finalBreak ? layout.eol : ''}`,
      servers: SERVER_NAMES.slice(0, g.servers.length),
    };
  });

interface Step {
  readonly target: ChoiceTarget;
  readonly edit: ChoiceEdit;
}

const stepArb = (enabled: fc.Arbitrary<boolean>, maxTools: number): fc.Arbitrary<Step> =>
  fc.record({
    target: fc.oneof(
      fc.constantFrom(...SERVER_NAMES).map((name): ChoiceTarget => ({ kind: 'user', name })),
      fc.constantFrom(...OVERRIDE_NAMES).map((name): ChoiceTarget => ({ kind: 'override', name })),
    ),
    edit: fc.oneof(
      enabled.map((on): ChoiceEdit => ({ kind: 'server', enabled: on })),
      fc
        .record({
          on: enabled,
          tools: fc.uniqueArray(fc.constantFrom(...TOOLS), { minLength: 1, maxLength: maxTools }),
        })
        .map(({ on, tools }): ChoiceEdit => ({ kind: 'tools', tools, enabled: on })),
    ),
  });

// --- an independent reading of the choices -----------------------------------------------------

type Entry = Record<string, unknown>;

function glob(pattern: string, tool: string): boolean {
  const parts = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's').test(tool);
}

function list(entry: Entry, snake: string, camel: string): string[] | undefined {
  return (entry[snake] ?? entry[camel]) as string[] | undefined;
}

function serverOn(entry: Entry): boolean {
  if (typeof entry.enabled === 'boolean') return entry.enabled;
  return entry.disabled !== true;
}

function toolOn(entry: Entry, tool: string): boolean {
  const exclude = list(entry, 'exclude_tools', 'excludeTools') ?? [];
  const include = list(entry, 'include_tools', 'includeTools');
  return (
    !exclude.some((p) => glob(p, tool)) &&
    (include === undefined || include.some((p) => glob(p, tool)))
  );
}

function entryOf(text: string, target: ChoiceTarget): Entry | undefined {
  const value = parse(text.replace(/^\uFEFF/, '')) as Record<
    string,
    Record<string, Entry> | undefined
  >;
  return value[target.kind === 'user' ? 'servers' : 'overrides']?.[target.name];
}

// --- what may change -----------------------------------------------------------------------------

function tree(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true });
  expect(errors).toEqual([]);
  return root as Node;
}

function member(object: Node | undefined, key: string): Node | undefined {
  return object?.children?.findLast((m) => m.children?.[0]?.value === key);
}

/** From the end of the item before `item` (or its object's `{`) to the start of the next (or `}`). */
function region(container: Node, item: Node): [number, number] {
  const siblings = container.children ?? [];
  const i = siblings.indexOf(item);
  const before = siblings[i - 1];
  const after = siblings[i + 1];
  return [
    before === undefined ? container.offset + 1 : before.offset + before.length,
    after === undefined ? container.offset + container.length - 1 : after.offset,
  ];
}

/** Where the target's entry is in `text`, or `overrides` when the entry came or went with it. */
function allowed(text: string, target: ChoiceTarget, other: string): [number, number] | undefined {
  const root = tree(text);
  const key = target.kind === 'user' ? 'servers' : 'overrides';
  const container = member(root, key);
  const entry = member(container?.children?.[1], target.name);
  if (entry === undefined) return undefined;
  const otherHasContainer = member(tree(other), key) !== undefined;
  if (!otherHasContainer && container !== undefined) return region(root, container);
  return region(container?.children?.[1] as Node, entry);
}

function expectOnlyEntryChanged(before: string, after: string, target: ChoiceTarget): void {
  if (before === after) return;
  const b = before.replace(/^\uFEFF/, '');
  const a = after.replace(/^\uFEFF/, '');
  expect(after.startsWith('\uFEFF')).toBe(before.startsWith('\uFEFF'));
  // Longest common prefix and suffix, each on its own: a repeated run of text (two entries that
  // begin alike) lets an edit sit in more than one place, and any one of them inside will do.
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  for (const [text, other] of [
    [b, a],
    [a, b],
  ] as const) {
    const span = allowed(text, target, other);
    if (span === undefined) continue;
    // Kept: text before the span, and after it; together no longer than the shorter text.
    const kept = span[0] + (text.length - span[1]);
    expect(prefix).toBeGreaterThanOrEqual(span[0]);
    expect(suffix).toBeGreaterThanOrEqual(text.length - span[1]);
    expect(kept).toBeLessThanOrEqual(shorter);
  }
}

function comments(text: string): string[] {
  const body = text.replace(/^\uFEFF/, '');
  const out: string[] = [];
  visit(body, { onComment: (offset, length) => out.push(body.slice(offset, offset + length)) });
  return out;
}

function expectParses(text: string): void {
  tree(text.replace(/^\uFEFF/, ''));
  expect(parseMcpConfig(text, FILE).diagnostics.filter((d) => d.code === 'syntax_error')).toEqual(
    [],
  );
}

/** One edit with every check; the new text (the old one when it was rightly refused). */
function step(text: string, { target, edit }: Step): { text: string; changed: boolean } {
  const result = planChoice(text, FILE, target, edit);
  const entry = entryOf(text, target) ?? {};
  if (!result.ok && result.error.code === 'unknown_server') {
    expect(target.kind === 'user' && entryOf(text, target) === undefined).toBe(true);
    return { text, changed: false };
  }
  if (!result.ok) {
    // The only other refusal these files allow: a tool to turn on that a pattern turns off.
    expect(result.error.code).toBe('excluded_by_pattern');
    expect(edit.kind === 'tools' && edit.enabled).toBe(true);
    const exclude = list(entry, 'exclude_tools', 'excludeTools') ?? [];
    const tools = edit.kind === 'tools' ? edit.tools : [];
    expect(tools.some((t) => exclude.some((p) => p !== t && p.includes('*') && glob(p, t)))).toBe(
      true,
    );
    return { text, changed: false };
  }
  const after = result.value.text;
  expect(result.value.changed).toBe(after !== text);
  expectParses(after);
  expectOnlyEntryChanged(text, after, target);
  expect(comments(after)).toEqual(comments(text));
  const now = entryOf(after, target) ?? {};
  if (edit.kind === 'server') {
    expect(serverOn(now)).toBe(edit.enabled);
  } else {
    for (const tool of edit.tools) expect(toolOn(now, tool)).toBe(edit.enabled);
    if (!edit.enabled && result.value.changed) {
      const named = list(now, 'exclude_tools', 'excludeTools') ?? [];
      expect(edit.tools.some((tool) => named.includes(tool))).toBe(true);
    }
  }
  // What else the file says is as it was.
  const others = (t: string) => {
    const value = parse(t.replace(/^\uFEFF/, '')) as Record<
      string,
      Record<string, Entry> | undefined
    >;
    const key = target.kind === 'user' ? 'servers' : 'overrides';
    const { [target.name]: _, ...rest } = value[key] ?? {};
    return { ...value, [key]: rest };
  };
  const trimmed = (v: ReturnType<typeof others>) =>
    target.kind === 'override' && Object.keys(v.overrides ?? {}).length === 0
      ? { ...v, overrides: undefined }
      : v;
  expect(trimmed(others(after))).toEqual(trimmed(others(text)));
  return { text: after, changed: result.value.changed };
}

describe('planChoice on generated files', () => {
  it('any sequence of edits: parses, touches only the entry, keeps comments, does what was asked', () => {
    fc.assert(
      fc.property(fileArb, fc.array(stepArb(fc.boolean(), 3), { maxLength: 6 }), (file, steps) => {
        let text = file.text;
        for (const s of steps) text = step(text, s).text;
      }),
      { numRuns: 200 },
    );
  });

  it('off in any order, then on again in reverse: the original bytes', () => {
    fc.assert(
      fc.property(
        fileArb,
        fc.array(stepArb(fc.constant(false), 1), { minLength: 1, maxLength: 6 }),
        (file, steps) => {
          let text = file.text;
          const done: Step[] = [];
          for (const s of steps) {
            const next = step(text, s);
            if (next.changed) done.push(s);
            text = next.text;
          }
          for (const s of done.reverse()) {
            text = step(text, { target: s.target, edit: { ...s.edit, enabled: true } }).text;
          }
          expect(text).toBe(file.text);
        },
      ),
      { numRuns: 200 },
    );
  });
});
