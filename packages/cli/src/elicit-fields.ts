// One field of a server's form, asked on the terminal: a prompt typed by the field's kind (a number
// read as a number, yes or no, a choice picked by its number, several by numbers separated by
// commas), its default shown and taken on Enter, a required field asked until it is given, and
// every problem with what was typed said and asked again. The checks are the ones every front end
// and the client share (`valueProblem`); a secret field is typed unseen and has no default.

import type { ElicitationField, ElicitationOption, ElicitationValue } from '@epoch-agent/protocol';
import { valueProblem } from '@epoch-agent/runtime';
import { shownLine } from './render/server-text.js';

/** One line from the person: undefined at the end of input or once the question is closed. */
export type ReadLine = (prompt: string, secret: boolean) => Promise<string | undefined>;

/** What became of one field. */
export type FieldAnswer =
  | { readonly kind: 'value'; readonly value: ElicitationValue }
  | { readonly kind: 'omitted' }
  | { readonly kind: 'closed' };

/**
 * Asks `field` until what is typed is a value for it (or nothing, for an optional field without a
 * default); `closed` when there is no answer (end of input, Ctrl-C, the question withdrawn).
 */
export async function askField(
  field: ElicitationField,
  place: string,
  read: ReadLine,
  say: (text: string) => void,
): Promise<FieldAnswer> {
  say(heading(field, place));
  const prompt = `  ${hint(field)}> `;
  for (;;) {
    const typed = await read(prompt, isSecret(field));
    if (typed === undefined) return { kind: 'closed' };
    const trimmed = field.kind === 'text' ? typed : typed.trim();
    if (trimmed === '') {
      if (field.default !== undefined) return { kind: 'value', value: field.default };
      if (!field.required) return { kind: 'omitted' };
      say('  An answer is required here (Ctrl-D: give none, and the question is cancelled).\n');
      continue;
    }
    const value = typedValue(field, trimmed);
    const problem = valueProblem(field, value);
    if (problem === undefined) return { kind: 'value', value: value as ElicitationValue };
    say(`  It ${problem}: try again.\n`);
  }
}

/** A text or a number the person types unseen (a password, a PIN). */
function isSecret(field: ElicitationField): boolean {
  return (field.kind === 'text' || field.kind === 'number') && field.secret;
}

/** `2/5 Name (required): what it is for`, and a choice's options, numbered. */
function heading(field: ElicitationField, place: string): string {
  const required = field.required ? ' (required)' : '';
  const about = field.description === undefined ? '' : `: ${shownLine(field.description)}`;
  const options =
    field.kind === 'choice' || field.kind === 'choices'
      ? field.options.map((option, index) => `    ${index + 1}) ${label(option)}\n`).join('')
      : '';
  return `${place} ${shownLine(field.label)}${required}${about}\n${options}`;
}

function label(option: ElicitationOption): string {
  return shownLine(option.label);
}

/** What to type, and the default Enter takes: `a whole number, 1 to 100 [42] `. */
function hint(field: ElicitationField): string {
  switch (field.kind) {
    case 'text': {
      if (field.secret) return 'hidden as you type ';
      const format = field.format === undefined ? [] : [FORMATS[field.format]];
      const lengths = range(field.minLength, field.maxLength, 'characters');
      const words = [...format, ...(lengths === undefined ? [] : [lengths])].join(', ');
      return `${words === '' ? '' : `${words} `}${fallback(field.default === undefined ? undefined : shownLine(field.default))}`;
    }
    case 'number': {
      if (field.secret) return 'hidden as you type ';
      const bounds = range(field.minimum, field.maximum);
      const kind = field.integer ? 'a whole number' : 'a number';
      return `${kind}${bounds === undefined ? '' : `, ${bounds}`} ${fallback(field.default)}`;
    }
    case 'boolean':
      return field.default === undefined ? 'y/n ' : field.default ? 'Y/n ' : 'y/N ';
    case 'choice':
      return `a number ${fallback(numberOf(field.options, field.default))}`;
    case 'choices': {
      const count = range(field.minItems, field.maxItems);
      const picked = field.default?.map((value) => numberOf(field.options, value)).join(',');
      return `numbers separated by commas${count === undefined ? '' : ` (${count})`} ${fallback(picked === '' ? 'none' : picked)}`;
    }
  }
}

const FORMATS = {
  email: 'an email address',
  uri: 'a URL',
  date: 'a date, YYYY-MM-DD',
  'date-time': 'a date and time, YYYY-MM-DDThh:mm:ssZ',
} as const;

function range(low: number | undefined, high: number | undefined, unit = ''): string | undefined {
  const of = unit === '' ? '' : ` ${unit}`;
  if (low !== undefined && high !== undefined) return `${low} to ${high}${of}`;
  if (low !== undefined) return `at least ${low}${of}`;
  if (high !== undefined) return `at most ${high}${of}`;
  return undefined;
}

function fallback(value: string | number | undefined): string {
  return value === undefined ? '' : `[${value}] `;
}

/** The number a choice's value is picked by (the parser made every default an option). */
function numberOf(
  options: readonly ElicitationOption[],
  value: string | undefined,
): string | undefined {
  const index = options.findIndex((option) => option.value === value);
  return index === -1 ? undefined : String(index + 1);
}

/**
 * What was typed, as the field's kind: a number, a boolean, a choice's value by its number. What
 * cannot be read as one stays as it was typed, and `valueProblem` says what it must be; a choice's
 * number out of range is no option's value, so it is said to be no choice.
 */
function typedValue(field: ElicitationField, typed: string): unknown {
  switch (field.kind) {
    case 'text':
      return typed;
    case 'number':
      return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(typed) ? Number(typed) : typed;
    case 'boolean':
      if (/^y(es)?$/i.test(typed)) return true;
      return /^no?$/i.test(typed) ? false : typed;
    case 'choice':
      return picked(field.options, typed);
    case 'choices':
      return typed.split(',').map((item) => picked(field.options, item.trim()));
  }
}

/** The option numbered `typed` (1 is the first); null, which is no option, when there is none. */
function picked(options: readonly ElicitationOption[], typed: string): string | null {
  if (!/^\d+$/.test(typed)) return null;
  return options[Number(typed) - 1]?.value ?? null;
}
