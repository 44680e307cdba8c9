// The fields of a tool's arguments, built from its input schema: a text field, a number field (an
// integer steps by one), a checkbox or a true/false choice, a choice of an enum's values, a group of
// fields for an object, a list with add and remove for an array, and a JSON text for anything
// else (a union, an object of free keys, a `$ref` that leads nowhere). `$ref`s are followed by
// the runtime's own followRefs, as the parameter table is. Required fields are marked and
// required of the browser's form check; defaults are filled in.
//
// The value is the arguments themselves, `undefined` meaning "not given"; a JSON text that does
// not parse is held as Unparsed, so the text survives and the call is refused with where it is.
import { followRefs, isSchema, refProblemText, type Schema } from '@epoch-agent/runtime/schema-ref';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { serverText } from './text.js';

/** A JSON text that does not parse (yet), kept as typed. */
export class Unparsed {
  constructor(readonly text: string) {}
}

/** What one schema becomes in the form. */
type Field =
  | { readonly kind: 'string' }
  | { readonly kind: 'number'; readonly integer: boolean }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'enum'; readonly values: readonly unknown[] }
  | {
      readonly kind: 'object';
      readonly properties: readonly (readonly [string, unknown])[];
      readonly required: ReadonlySet<string>;
    }
  | { readonly kind: 'array'; readonly items: Schema }
  /** What a form cannot express; `problem` says why, when the schema itself is wrong. */
  | { readonly kind: 'json'; readonly problem?: string };

interface Read {
  readonly field: Field;
  /** The schema with its refs followed: where its description and default are. */
  readonly schema: Schema;
}

/** `node` (a subschema of `root`) as a field. */
export function readField(root: Schema, node: unknown): Read {
  const followed = followRefs(root, isSchema(node) ? node : {});
  if (followed.kind === 'unresolved') {
    return { field: { kind: 'json', problem: refProblemText(followed) }, schema: {} };
  }
  const { schema } = followed;
  return { field: fieldOf(schema), schema };
}

function fieldOf(schema: Schema): Field {
  if (Array.isArray(schema.enum)) return { kind: 'enum', values: schema.enum };
  if (schema.const !== undefined) return { kind: 'enum', values: [schema.const] };
  if (schema.anyOf !== undefined || schema.oneOf !== undefined) return { kind: 'json' };
  // `["string", "null"]` is a string that may be left out: null is not a field of its own.
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (type) => type !== null && type !== undefined && type !== 'null',
  );
  const [type] = types;
  if (types.length > 1) return { kind: 'json' };
  switch (type) {
    case 'string':
      return { kind: 'string' };
    case 'number':
    case 'integer':
      return { kind: 'number', integer: type === 'integer' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array':
      // A tuple (`items` as a list, `prefixItems`) is written as JSON.
      return isSchema(schema.items) && schema.prefixItems === undefined
        ? { kind: 'array', items: schema.items }
        : { kind: 'json' };
    case 'object':
    case undefined:
      return objectField(schema);
    default:
      return { kind: 'json' };
  }
}

/** Named properties make fields; an object of free keys alone is written as JSON. */
function objectField(schema: Schema): Field {
  const properties = isSchema(schema.properties) ? Object.entries(schema.properties) : [];
  if (properties.length === 0) return { kind: 'json' };
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  return { kind: 'object', properties, required };
}

/** The value a field starts with: its default, or an object of its properties' defaults. */
export function initialValue(root: Schema, node: unknown, depth = 0): unknown {
  const { field, schema } = readField(root, node);
  if (schema.default !== undefined) return schema.default;
  // A schema that nests itself (a tree) would otherwise be filled in forever.
  if (field.kind !== 'object' || depth > 8) return undefined;
  const value: Record<string, unknown> = {};
  for (const [name, property] of field.properties) {
    const initial = initialValue(root, property, depth + 1);
    if (initial !== undefined) value[name] = initial;
  }
  return Object.keys(value).length === 0 ? undefined : value;
}

/** Where the arguments hold a JSON text that does not parse, as a path (`ship_to.zip`); else undefined. */
export function unparsedAt(value: unknown, path = ''): string | undefined {
  if (value instanceof Unparsed) return path === '' ? '(the arguments)' : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const at = unparsedAt(item, `${path}[${index}]`);
      if (at !== undefined) return at;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = unparsedAt(item, path === '' ? key : `${path}.${key}`);
      if (at !== undefined) return at;
    }
  }
  return undefined;
}

/** The arguments to send: items of a list left empty are left out (JSON would make them null). */
export function sendable(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(sendable);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sendable(item)]));
  }
  return value;
}

/**
 * The fields of the arguments (the root schema's properties); undefined when its schema names none
 * (no parameters, or only what JSON can say).
 */
export function rootFields(root: Schema): Extract<Field, { kind: 'object' }> | undefined {
  const { field } = readField(root, root);
  return field.kind === 'object' ? field : undefined;
}

interface FieldProps {
  readonly root: Schema;
  readonly node: unknown;
  /** The field's label: its property name, or `item 2` in a list. */
  readonly label: string;
  /** Unique in the page: the id of its input. */
  readonly id: string;
  readonly required: boolean;
  readonly value: unknown;
  readonly onChange: (value: unknown) => void;
}

export function SchemaField(props: FieldProps) {
  const { root, node, label, id, required, value, onChange } = props;
  const { field, schema } = readField(root, node);
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const about = description === undefined ? undefined : `${id}-about`;
  const head = (
    <>
      <code>{serverText(label)}</code>
      {/* The space is in the name a screen reader reads: "a required", never "arequired". */}
      {required && (
        <>
          {' '}
          <span class="required">required</span>
        </>
      )}
    </>
  );
  const note = about !== undefined && (
    <span class="field-about" id={about}>
      {serverText(description as string)}
    </span>
  );
  switch (field.kind) {
    case 'object':
      return (
        <fieldset class="field object" aria-describedby={about}>
          <legend>{head}</legend>
          {note}
          {field.properties.map(([name, property]) => (
            <SchemaField
              key={name}
              root={root}
              node={property}
              label={name}
              id={`${id}.${name}`}
              required={field.required.has(name)}
              value={isObject(value) ? value[name] : undefined}
              onChange={(next) => onChange(withKey(value, name, next, required))}
            />
          ))}
        </fieldset>
      );
    case 'array':
      return <ArrayField {...props} items={field.items} head={head} note={note} about={about} />;
    default:
      return (
        <div class="field">
          <label for={id}>{head}</label>
          <Input
            field={field}
            id={id}
            required={required}
            value={value}
            onChange={onChange}
            about={about}
          />
          {note}
          {field.kind === 'json' && field.problem !== undefined && (
            <span class="ref problem">{serverText(field.problem)}</span>
          )}
        </div>
      );
  }
}

interface ArrayProps extends FieldProps {
  readonly items: Schema;
  readonly head: ComponentChildren;
  readonly note: ComponentChildren;
  readonly about: string | undefined;
}

function ArrayField({ root, items, label, id, value, onChange, head, note, about }: ArrayProps) {
  const list = Array.isArray(value) ? value : [];
  const set = (index: number, item: unknown) =>
    onChange(list.map((old, i) => (i === index ? item : old)));
  return (
    <fieldset class="field array" aria-describedby={about}>
      <legend>{head}</legend>
      {note}
      {list.length === 0 && <p class="empty">No items.</p>}
      <ol>
        {list.map((item, index) => (
          <li key={index}>
            <SchemaField
              root={root}
              node={items}
              label={`${label}[${index}]`}
              id={`${id}[${index}]`}
              required={false}
              value={item}
              onChange={(next) => set(index, next)}
            />
            <button
              type="button"
              onClick={() => onChange(list.filter((_, i) => i !== index))}
              aria-label={`Remove ${label}[${index}]`}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onChange([...list, initialValue(root, items)])}>
        Add to {label}
      </button>
    </fieldset>
  );
}

interface InputProps {
  readonly field: Exclude<Field, { kind: 'object' | 'array' }>;
  readonly id: string;
  readonly required: boolean;
  readonly value: unknown;
  readonly onChange: (value: unknown) => void;
  readonly about: string | undefined;
}

function Input({ field, id, required, value, onChange, about }: InputProps) {
  const common = { id, 'aria-describedby': about };
  switch (field.kind) {
    case 'string':
      return (
        <input
          {...common}
          type="text"
          required={required}
          value={typeof value === 'string' ? value : ''}
          onInput={(e) =>
            onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)
          }
        />
      );
    case 'number':
      return (
        <input
          {...common}
          type="number"
          step={field.integer ? 1 : 'any'}
          required={required}
          value={typeof value === 'number' ? String(value) : ''}
          onInput={(e) => {
            const { value: text, valueAsNumber } = e.currentTarget;
            onChange(text === '' || Number.isNaN(valueAsNumber) ? undefined : valueAsNumber);
          }}
        />
      );
    case 'boolean':
      // A checkbox cannot say "not given": an optional one is a choice of three.
      if (required) {
        return (
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.currentTarget.checked)}
          />
        );
      }
      return (
        <Choice
          {...common}
          values={[true, false]}
          required={false}
          value={value}
          onChange={onChange}
        />
      );
    case 'enum':
      return (
        <Choice
          {...common}
          values={field.values}
          required={required}
          value={value}
          onChange={onChange}
        />
      );
    case 'json':
      return <JsonText {...common} required={required} value={value} onChange={onChange} />;
  }
}

interface ChoiceProps {
  readonly id: string;
  readonly 'aria-describedby': string | undefined;
  readonly values: readonly unknown[];
  readonly required: boolean;
  readonly value: unknown;
  readonly onChange: (value: unknown) => void;
}

function Choice({ values, required, value, onChange, ...common }: ChoiceProps) {
  const chosen = values.findIndex((v) => JSON.stringify(v) === JSON.stringify(value));
  return (
    <select
      {...common}
      required={required}
      value={chosen === -1 ? '' : String(chosen)}
      onChange={(e) => {
        const at = e.currentTarget.value;
        onChange(at === '' ? undefined : values[Number(at)]);
      }}
    >
      <option value="">{required ? '— choose —' : '— not given —'}</option>
      {values.map((v, index) => (
        <option key={index} value={String(index)}>
          {serverText(typeof v === 'string' ? v : JSON.stringify(v))}
        </option>
      ))}
    </select>
  );
}

interface JsonTextProps {
  readonly id: string;
  readonly 'aria-describedby': string | undefined;
  readonly required: boolean;
  readonly value: unknown;
  readonly onChange: (value: unknown) => void;
}

/** A value written as JSON; the text is kept as typed, and parsed as it changes. */
export function JsonText({ value, onChange, ...rest }: JsonTextProps) {
  const [text, setText] = useState(() => jsonText(value));
  return (
    <textarea
      {...rest}
      class="json"
      rows={Math.min(12, Math.max(2, text.split('\n').length))}
      spellcheck={false}
      placeholder="JSON"
      value={text}
      onInput={(e) => {
        const typed = e.currentTarget.value;
        setText(typed);
        onChange(parsed(typed));
      }}
    />
  );
}

export function jsonText(value: unknown): string {
  if (value instanceof Unparsed) return value.text;
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** `text` as a value: undefined when empty, Unparsed when it is not JSON. */
export function parsed(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return new Unparsed(text);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `object` with `key` set to `item` (left out when undefined). An optional object left with no key
 * is not given at all; a required one stays, empty.
 */
function withKey(object: unknown, key: string, item: unknown, required: boolean): unknown {
  const next: Record<string, unknown> = isObject(object) ? { ...object } : {};
  if (item === undefined) delete next[key];
  else next[key] = item;
  return Object.keys(next).length === 0 && !required ? undefined : next;
}
