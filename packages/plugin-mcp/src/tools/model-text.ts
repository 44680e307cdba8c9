// A server's own words as a model may read them: the text is what a person reading it would see,
// with nothing hidden in it and nothing reordered, and no longer than a bound (with a note saying
// what was cut). Applies to its tools' titles and descriptions, the titles and descriptions inside
// their schemas, and its instructions.
import { withoutTerminalEscapes } from '@epoch-agent/infra';
import type { Tool } from '@modelcontextprotocol/client';

/**
 * The most characters of a tool's description a model is given: enough for what the tool does and
 * how to call it; past it a description is a manual (or a payload), and costs every turn.
 */
export const MAX_TOOL_DESCRIPTION_CHARS = 2048;
/** The most characters of a tool's title: a title is a few words, never a second description. */
export const MAX_TOOL_TITLE_CHARS = 256;

// Removed wherever they stand (regex source, for a class):
// - C0 controls but tab, line feed and carriage return (those three are line breaks and spacing,
//   below), DEL and C1: on a terminal they are commands, to a model noise.
// - Bidi marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A–E, U+2066–9): they
//   make a text read in another order than it is written.
// - Unicode's default ignorable code points, which show as nothing: soft hyphen U+00AD, combining
//   grapheme joiner U+034F, Hangul fillers U+115F, U+1160, U+3164, U+FFA0, Khmer's inherent
//   vowels U+17B4/5, Mongolian's free variation selectors and vowel separator U+180B–F, zero width
//   space and non-joiner U+200B/C, U+2060–206F (word joiner, invisible operators, deprecated
//   format controls), variation selectors U+FE00–FE0D, the BOM U+FEFF, U+FFF0–8, shorthand format
//   controls U+1BCA0–3, musical formatting U+1D173–A, and U+E0000–E0FFF: tag characters (an
//   invisible copy of ASCII, the classic hidden instruction) and the supplementary variation
//   selectors (used to smuggle bytes behind a visible character). A model reads Persian without
//   its ZWNJ, or Mongolian without its selectors, as it reads them with: only a glyph's shape
//   changes, while a run of them is a channel a person cannot see. A subdivision flag (built of
//   tags) shows as its black flag.
// - Interlinear annotation U+FFF9–B: marks text to be shown apart, or not at all.
// - A lone surrogate: not a character; a model's API may refuse the request holding it.
// Kept: every script's letters, marks and spaces, private-use characters (they show, as a box),
// and emoji with the two invisibles that make them what they are (below).
const REMOVED_SOURCE =
  '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F\\u00AD\\u034F\\u061C' +
  '\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B\\u200C\\u200E\\u200F\\u202A-\\u202E' +
  '\\u2060-\\u206F\\u3164\\uFE00-\\uFE0D\\uFEFF\\uFFA0\\uFFF0-\\uFFFB\\u{1BCA0}-\\u{1BCA3}' +
  '\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E0FFF}\\uD800-\\uDFFF';
// The zero width joiner is kept between two emoji, where it makes one (a family, not three people),
// and dropped elsewhere (in Indic scripts it only shapes a glyph); the emoji and text presentation
// selectors U+FE0F/E are kept once, after a visible character (❤️). A run or a stray one of either
// carries bits a person cannot see.
const LONE_JOINER =
  '(?<![\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\uFE0F])\\u200D|\\u200D(?!\\p{Extended_Pictographic})';
const STRAY_SELECTOR = '(?<![^\\s\\p{C}\\p{M}])[\\uFE0E\\uFE0F]';
const REMOVED = new RegExp(`[${REMOVED_SOURCE}]|${LONE_JOINER}|${STRAY_SELECTOR}`, 'gu');
// Line breaks: CRLF, a lone CR and the Unicode line and paragraph separators end a line as LF does.
const LINE_BREAK = /\r\n?|[\u2028\u2029]/g;
// In a title, a line break or a tab is a space: it has one line, and its words stay apart.
const TITLE_BREAK = /\r\n?|[\n\t\u2028\u2029]/g;

// The one test a text that needs nothing pays for (the common case: every tool of every server on
// every connect). It may say yes for a text that stays the same (an emoji's joiner): that costs a
// replace, never a copy of the tool.
const TOUCHED_SOURCE = `${REMOVED_SOURCE}\\r\\u2028\\u2029\\u200D\\uFE0E\\uFE0F`;
const TOUCHED_TEXT = new RegExp(`[${TOUCHED_SOURCE}]`, 'u');
const TOUCHED_TITLE = new RegExp(`[${TOUCHED_SOURCE}\\n\\t]`, 'u');

// Of a long text only this many times the bound is cleaned: past it, what follows could be kept
// only when nearly all before it was invisible, and a 10 MB description must cost the time of its
// first kilobytes, not all of it.
const CLEANED_PER_KEPT = 8;

/**
 * `text` cleaned (line feeds and tabs kept, CRLF as LF) and cut at `max` characters (UTF-16 units,
 * never inside a surrogate pair), with a line saying `what` was cut, how long it was as sent and
 * how much is kept. Returns `text` itself when nothing changes.
 */
export function modelText(text: string, max: number, what: string): string {
  return modelWords(text, max, what, 'lines');
}

/** `text` as one line (line breaks and tabs as spaces), cleaned and cut like modelText. */
export function modelLine(text: string, max: number, what: string): string {
  return modelWords(text, max, what, 'line');
}

/**
 * The tool as the model may see it: title, description, annotations.title, and the `description`
 * and `title` strings inside its input and output schemas cleaned (control, bidi, invisible and tag
 * characters removed; line feed and tab kept in descriptions) and the tool's description and title
 * cut with a note. Returns `tool` itself when nothing changes (the common case: no copy).
 */
export function modelTool(tool: Tool): Tool {
  const { title, description, annotations, inputSchema, outputSchema } = tool;
  const newTitle = title === undefined ? undefined : modelTitle(title);
  const newDescription =
    description === undefined
      ? undefined
      : modelText(description, MAX_TOOL_DESCRIPTION_CHARS, 'description');
  const newAnnotations = modelAnnotations(annotations);
  const newInput = modelSchema(inputSchema);
  const newOutput = outputSchema === undefined ? undefined : modelSchema(outputSchema);
  if (
    newTitle === title &&
    newDescription === description &&
    newAnnotations === annotations &&
    newInput === inputSchema &&
    newOutput === outputSchema
  ) {
    return tool;
  }
  const made: Tool = { ...tool, inputSchema: newInput as Tool['inputSchema'] };
  // A title of nothing but invisible characters is no title: the annotations' one, or none, shows.
  if (newTitle === undefined || newTitle === '') delete made.title;
  else made.title = newTitle;
  if (newDescription !== undefined) made.description = newDescription;
  if (newAnnotations !== undefined) made.annotations = newAnnotations;
  if (newOutput !== undefined) made.outputSchema = newOutput as NonNullable<Tool['outputSchema']>;
  return made;
}

function modelTitle(title: string): string {
  return modelWords(title, MAX_TOOL_TITLE_CHARS, 'title', 'line');
}

function modelAnnotations(annotations: Tool['annotations']): Tool['annotations'] {
  const title = annotations?.title;
  if (annotations === undefined || title === undefined) return annotations;
  const cleaned = modelTitle(title);
  if (cleaned === title) return annotations;
  const made: NonNullable<Tool['annotations']> = { ...annotations, title: cleaned };
  if (cleaned === '') delete made.title;
  return made;
}

// Values of these keys are data the server compares what it is sent with, not words for the model:
// an enum value with a joiner in it must come back with that joiner.
const DATA_KEYS = new Set(['enum', 'const', 'default', 'examples']);
// Maps whose keys are names (a property named "description" or "enum"), each value a schema.
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/**
 * A schema with its `title` and `description` strings cleaned (never cut: the tool's description
 * is the bound that counts, and a property's is part of how to call it), at any depth; `value`
 * itself when none changes, and only the objects on the way to a change copied. `names`: `value`
 * is one of NAME_MAPS, whose keys are no keywords.
 */
function modelSchema(value: unknown, names = false): unknown {
  if (Array.isArray(value)) {
    let made: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const cleaned = modelSchema(item);
      if (cleaned === item) continue;
      made ??= [...value];
      made[index] = cleaned;
    }
    return made ?? value;
  }
  if (typeof value !== 'object' || value === null) return value;
  let made: Record<string, unknown> | undefined;
  // for…in, not Object.entries: no array of pairs per object, for every schema of every tool.
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const item = object[key];
    const cleaned = names ? modelSchema(item) : modelKeyword(key, item);
    if (cleaned === item) continue;
    made ??= { ...object };
    made[key] = cleaned;
  }
  return made ?? value;
}

function modelKeyword(key: string, value: unknown): unknown {
  if (DATA_KEYS.has(key)) return value;
  if (typeof value !== 'string') return modelSchema(value, NAME_MAPS.has(key));
  if (key === 'description') return modelWords(value, Number.POSITIVE_INFINITY, key, 'lines');
  if (key === 'title') return modelWords(value, Number.POSITIVE_INFINITY, key, 'line');
  return value;
}

/** A block of `lines` (line feeds and tabs kept) or one `line` (they become spaces). */
type Shape = 'lines' | 'line';

function modelWords(text: string, max: number, what: string, shape: Shape): string {
  const touched = (shape === 'lines' ? TOUCHED_TEXT : TOUCHED_TITLE).test(text);
  if (!touched && text.length <= max) return text;
  const head = text.length > max * CLEANED_PER_KEPT ? text.slice(0, max * CLEANED_PER_KEPT) : text;
  const cleaned = touched ? clean(head, shape) : head;
  if (cleaned.length <= max && head === text) return cleaned === text ? text : cleaned;
  const end = Math.min(max, cleaned.length);
  // A joiner left last would join the emoji before it to the note.
  const kept = cleaned
    .slice(0, isHighSurrogate(cleaned.charCodeAt(end - 1)) ? end - 1 : end)
    .replace(/\u200D$/, '');
  const note = `[${what} cut: the server sent ${text.length} characters; the first ${kept.length} are kept]`;
  return shape === 'lines' ? `${kept}\n${note}` : `${kept} ${note}`;
}

function clean(text: string, shape: Shape): string {
  // A whole escape sequence goes, not only its ESC: the text of a window title a terminal would
  // hide must not reach the model either.
  return withoutTerminalEscapes(text)
    .replace(shape === 'lines' ? LINE_BREAK : TITLE_BREAK, shape === 'lines' ? '\n' : ' ')
    .replace(REMOVED, '');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
