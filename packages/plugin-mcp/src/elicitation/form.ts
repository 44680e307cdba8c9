// A server's elicitation form, read and checked by one set of rules for every front end: the
// client before it sends an answer, the terminal and the page while the person fills it in. The
// `@epoch-agent/plugin-mcp/elicitation` entry: it imports nothing, so it runs in the browser.
//
// MCP allows a flat form only: an object whose properties are strings (with a format, lengths),
// numbers or integers (with bounds), booleans, or a choice of strings (one, by `enum` or
// `oneOf` with titles, or the older `enumNames`; or several, as an array of them). Anything else
// (a nested object, a `$ref`, an array of numbers) is not a form this client can put to a person.
import type {
  ElicitationChoiceField,
  ElicitationChoicesField,
  ElicitationField,
  ElicitationOption,
  ElicitationTextField,
  ElicitationValue,
} from '@epoch-agent/protocol';

/** Fields a form may have: more is not a question a person answers. */
export const FORM_FIELDS_MAX = 50;
/** Options a choice may have. */
export const FORM_OPTIONS_MAX = 500;

/** The fields of a form, or why it is not one epoch can show (a sentence naming the field). */
export type FormReading =
  | { readonly ok: true; readonly fields: readonly ElicitationField[] }
  | { readonly ok: false; readonly problem: string };

/** What is wrong with one field of an answer, in words for the person who typed it. */
export interface FieldProblem {
  readonly field: string;
  readonly problem: string;
}

/** An answer's content with the defaults filled in, or what is wrong with it, field by field. */
export type AnswerCheck =
  | { readonly ok: true; readonly content: { readonly [name: string]: ElicitationValue } }
  | { readonly ok: false; readonly problems: readonly FieldProblem[] };

type Json = { readonly [key: string]: unknown };

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);
/**
 * A field is a secret by its format, or by a word of its name, title or description: `passwd` and
 * `pwd` as the names programs give a password, and each word in the plural too ("your tokens").
 */
const SECRET_WORDS =
  /(?<![a-z])(pass(word|phrase|code)?|passwd|pwd|secret|token|api[\s_-]?key|private[\s_-]?key|credential|otp|pin|cvv|cvc|ssn)s?(?![a-z])/i;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Reads `requestedSchema` of an elicitation into the fields a front end shows. */
export function formFields(schema: unknown): FormReading {
  if (!isJson(schema) || schema.type !== 'object' || !isJson(schema.properties)) {
    return { ok: false, problem: 'the form is not an object with properties' };
  }
  const names = Object.keys(schema.properties);
  if (names.length > FORM_FIELDS_MAX) {
    return {
      ok: false,
      problem: `the form has ${names.length} fields (at most ${FORM_FIELDS_MAX})`,
    };
  }
  const required = new Set(
    Array.isArray(schema.required)
      ? schema.required.filter((name) => typeof name === 'string')
      : [],
  );
  const fields: ElicitationField[] = [];
  for (const name of names) {
    const read = fieldOf(name, schema.properties[name], required.has(name));
    if (typeof read === 'string') return { ok: false, problem: `field "${name}": ${read}` };
    fields.push(read);
  }
  return { ok: true, fields };
}

function fieldOf(name: string, schema: unknown, required: boolean): ElicitationField | string {
  if (!isJson(schema)) return 'not a schema';
  const label = text(schema.title) ?? name;
  const description = text(schema.description);
  const common = { name, label, required, ...(description === undefined ? {} : { description }) };
  switch (schema.type) {
    case 'string': {
      const options = optionsOf(schema);
      if (typeof options === 'string') return options;
      if (options !== undefined) return choiceOf(common, options, schema.default);
      return textOf(common, schema);
    }
    case 'number':
    case 'integer': {
      const minimum = finite(schema.minimum);
      const maximum = finite(schema.maximum);
      const fallback = finite(schema.default);
      // A PIN or a one-time code is a number a server may ask for: a secret all the same. By its
      // name or label only: a number's description is where a server says what not to give
      // ("not your phone number or PIN"), and a secret's default is never sent.
      const secret = namedSecret([common.name, common.label]);
      return {
        ...common,
        kind: 'number',
        integer: schema.type === 'integer',
        secret,
        ...(minimum === undefined ? {} : { minimum }),
        ...(maximum === undefined ? {} : { maximum }),
        ...(fallback === undefined || secret ? {} : { default: fallback }),
      };
    }
    case 'boolean':
      return {
        ...common,
        kind: 'boolean',
        ...(typeof schema.default === 'boolean' ? { default: schema.default } : {}),
      };
    case 'array':
      return choicesOf(common, schema);
    default:
      return `a ${JSON.stringify(schema.type) ?? 'missing'} type, where a form allows string, number, integer, boolean or an array of choices`;
  }
}

type Common = Pick<ElicitationTextField, 'name' | 'label' | 'required' | 'description'>;

/** Whether one of `texts` (a field's name, label...) calls it a secret (`apiKey`: two words). */
function namedSecret(texts: readonly string[]): boolean {
  return texts.some((words) => SECRET_WORDS.test(words.replace(/([a-z])([A-Z])/g, '$1 $2')));
}

function textOf(common: Common, schema: Json): ElicitationTextField {
  const format = text(schema.format);
  const secret =
    format === 'password' || namedSecret([common.name, common.label, common.description ?? '']);
  const minLength = count(schema.minLength);
  const maxLength = count(schema.maxLength);
  const fallback = text(schema.default);
  return {
    ...common,
    kind: 'text',
    secret,
    ...(format !== undefined && FORMATS.has(format)
      ? { format: format as NonNullable<ElicitationTextField['format']> }
      : {}),
    ...(minLength === undefined ? {} : { minLength }),
    ...(maxLength === undefined ? {} : { maxLength }),
    ...(fallback === undefined || secret ? {} : { default: fallback }),
  };
}

/** A string schema's options (`enum`, titled `oneOf`, `enumNames`), undefined when it has none. */
function optionsOf(schema: Json): readonly ElicitationOption[] | undefined | string {
  if (Array.isArray(schema.oneOf)) return titledOptions(schema.oneOf);
  if (!Array.isArray(schema.enum)) return undefined;
  const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  return bounded(
    schema.enum.map((value, index) =>
      typeof value === 'string' ? { value, label: text(names[index]) ?? value } : undefined,
    ),
  );
}

function titledOptions(list: readonly unknown[]): readonly ElicitationOption[] | string {
  return bounded(
    list.map((option) => {
      if (!isJson(option)) return undefined;
      const value = text(option.const);
      return value === undefined ? undefined : { value, label: text(option.title) ?? value };
    }),
  );
}

function bounded(
  options: readonly (ElicitationOption | undefined)[],
): readonly ElicitationOption[] | string {
  if (options.length === 0) return 'a choice with no options';
  if (options.length > FORM_OPTIONS_MAX) {
    return `a choice of ${options.length} options (at most ${FORM_OPTIONS_MAX})`;
  }
  if (options.some((option) => option === undefined))
    return 'a choice whose options are not all strings';
  return options as readonly ElicitationOption[];
}

function choiceOf(
  common: Common,
  options: readonly ElicitationOption[],
  fallback: unknown,
): ElicitationChoiceField {
  const chosen = options.find((option) => option.value === fallback)?.value;
  return {
    ...common,
    kind: 'choice',
    options,
    ...(chosen === undefined ? {} : { default: chosen }),
  };
}

function choicesOf(common: Common, schema: Json): ElicitationChoicesField | string {
  const items = schema.items;
  if (!isJson(items)) return 'an array without items';
  const options = Array.isArray(items.anyOf)
    ? titledOptions(items.anyOf)
    : items.type === 'string'
      ? optionsOf(items)
      : 'an array of something other than choices of strings';
  if (options === undefined)
    return 'an array of free strings, where a form allows an array of choices';
  if (typeof options === 'string') return options;
  const values = new Set(options.map((option) => option.value));
  const fallback = Array.isArray(schema.default)
    ? schema.default.filter(
        (value): value is string => typeof value === 'string' && values.has(value),
      )
    : undefined;
  const minItems = count(schema.minItems);
  const maxItems = count(schema.maxItems);
  return {
    ...common,
    kind: 'choices',
    options,
    ...(minItems === undefined ? {} : { minItems }),
    ...(maxItems === undefined ? {} : { maxItems }),
    ...(fallback === undefined ? {} : { default: fallback }),
  };
}

/**
 * Checks an accepted form's content against its fields, and fills in each omitted field's default
 * (SEP-1034: the server gets a value for every field that has one). A key that is not a field is
 * a problem, not dropped: an answer is sent as the person gave it or not at all.
 */
export function checkAnswer(
  fields: readonly ElicitationField[],
  content: { readonly [name: string]: unknown },
): AnswerCheck {
  const problems: FieldProblem[] = [];
  const checked: { [name: string]: ElicitationValue } = {};
  const known = new Set(fields.map(({ name }) => name));
  for (const name of Object.keys(content)) {
    if (!known.has(name)) problems.push({ field: name, problem: 'the form has no such field' });
  }
  for (const field of fields) {
    const given = Object.hasOwn(content, field.name) ? content[field.name] : undefined;
    const value = given === undefined ? field.default : given;
    if (value === undefined) {
      if (field.required) problems.push({ field: field.name, problem: 'required' });
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem === undefined) checked[field.name] = value as ElicitationValue;
    else problems.push({ field: field.name, problem });
  }
  return problems.length === 0 ? { ok: true, content: checked } : { ok: false, problems };
}

/** What is wrong with `value` for `field`, undefined when nothing is. Never quotes a value. */
export function valueProblem(field: ElicitationField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength) {
        return `must be at least ${field.minLength} characters`;
      }
      if (field.maxLength !== undefined && length > field.maxLength) {
        return `must be at most ${field.maxLength} characters`;
      }
      return field.format === undefined ? undefined : formatProblem(field.format, value);
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum)
        return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum)
        return `must be at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be yes or no';
    case 'choice':
      return typeof value === 'string' && field.options.some((option) => option.value === value)
        ? undefined
        : 'must be one of the choices';
    case 'choices': {
      if (!Array.isArray(value)) return 'must be a list of choices';
      const values = new Set(field.options.map((option) => option.value));
      if (value.some((item) => typeof item !== 'string' || !values.has(item))) {
        return 'must name only the choices';
      }
      if (new Set(value).size !== value.length) return 'must name each choice once';
      if (field.minItems !== undefined && value.length < field.minItems) {
        return `must name at least ${field.minItems}`;
      }
      if (field.maxItems !== undefined && value.length > field.maxItems) {
        return `must name at most ${field.maxItems}`;
      }
      return undefined;
    }
  }
}

function formatProblem(
  format: NonNullable<ElicitationTextField['format']>,
  value: string,
): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : 'must be an email address';
    case 'uri':
      return URL.canParse(value) ? undefined : 'must be a URL';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : 'must be a date (YYYY-MM-DD)';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
        !Number.isNaN(Date.parse(value))
        ? undefined
        : 'must be a date and time (YYYY-MM-DDThh:mm:ssZ)';
  }
}

/** Loopback hosts, the only ones a URL question may name over plain http. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A URL question's page, with the origin a person must read before saying yes; or why it is
 * not one epoch shows: not a URL, not https (nor http to a loopback address), or carrying a user
 * name or password (a URL that signs the person in as someone).
 */
export function urlOf(
  url: unknown,
):
  | { readonly ok: true; readonly url: string; readonly origin: string }
  | { readonly ok: false; readonly problem: string } {
  if (typeof url !== 'string' || !URL.canParse(url))
    return { ok: false, problem: 'the URL is not a URL' };
  const parsed = new URL(url);
  const loopback = parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname);
  if (parsed.protocol !== 'https:' && !loopback) {
    return {
      ok: false,
      problem: `the URL is ${parsed.protocol.slice(0, -1)}, where only https (or http to this machine) is opened`,
    };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, problem: 'the URL carries a user name or password' };
  }
  return { ok: true, url: parsed.href, origin: parsed.origin };
}
