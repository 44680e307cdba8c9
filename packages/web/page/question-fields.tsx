// The fields of a server's form question, as form controls by their kind: text (masked for a
// secret, never filled in by the browser), a number, yes/no, one of a list, any of a list; each
// with its label, the server's description, "required", and what is wrong with it. The values are
// what the person has given: `contentOf` makes the answer's content of them, and the rules that
// check it are the client's own (checkAnswer, in question-dialog.tsx).
import type {
  ElicitationField,
  ElicitationTextField,
  ElicitationValue,
} from '@epoch-agent/protocol';
import { serverText } from './text.js';

/** What the person has given so far, by field name; absent: nothing (the default, if any, applies). */
export type Values = { readonly [name: string]: ElicitationValue | undefined };

/** The values a form starts with: each field's default, pre-filled. */
export function initialValues(fields: readonly ElicitationField[]): Values {
  const values: { [name: string]: ElicitationValue | undefined } = {};
  for (const field of fields) {
    // A checkbox shows a value whatever happens: an unticked one says "no".
    values[field.name] =
      field.kind === 'boolean' && asCheckbox(field) ? (field.default ?? false) : field.default;
  }
  return values;
}

/** The answer's content: the fields given, an optional list left empty not given at all. */
export function contentOf(
  fields: readonly ElicitationField[],
  values: Values,
): { [name: string]: ElicitationValue } {
  const content: { [name: string]: ElicitationValue } = {};
  for (const field of fields) {
    const value = values[field.name];
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0 && !field.required) continue;
    content[field.name] = value;
  }
  return content;
}

/** A yes/no is a checkbox when it must be given or has a default; else a choice of three. */
function asCheckbox(field: ElicitationField & { readonly kind: 'boolean' }): boolean {
  return field.required || field.default !== undefined;
}

interface Props {
  readonly field: ElicitationField;
  /** Unique in the page: the question's id and the field's name. */
  readonly id: string;
  readonly value: ElicitationValue | undefined;
  readonly problem: string | undefined;
  readonly onChange: (value: ElicitationValue | undefined) => void;
}

export function QuestionField({ field, id, value, problem, onChange }: Props) {
  const about = field.description === undefined ? undefined : `${id}-about`;
  const wrong = problem === undefined ? undefined : `${id}-problem`;
  const describedBy = [about, wrong].filter((part) => part !== undefined).join(' ') || undefined;
  const head = (
    <>
      {serverText(field.label)}
      {field.required && (
        <>
          {' '}
          <span class="required">required</span>
        </>
      )}
    </>
  );
  const notes = (
    <>
      {about !== undefined && (
        <span class="field-about" id={about}>
          {serverText(field.description as string)}
        </span>
      )}
      {wrong !== undefined && (
        <span class="field-error" id={wrong}>
          {serverText(field.label)} {problem}
        </span>
      )}
    </>
  );
  const common = {
    id,
    name: field.name,
    'aria-describedby': describedBy,
    'aria-invalid': problem !== undefined,
  };
  if (field.kind === 'choices') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset
        class="field question-choices"
        aria-describedby={describedBy}
        aria-invalid={problem !== undefined}
      >
        <legend>{head}</legend>
        {field.options.map((option, index) => (
          <label key={option.value} class="question-pick">
            <input
              type="checkbox"
              id={`${id}-${index}`}
              checked={chosen.includes(option.value)}
              onChange={(e) =>
                onChange(
                  e.currentTarget.checked
                    ? field.options
                        .map((o) => o.value)
                        .filter((v) => v === option.value || chosen.includes(v))
                    : chosen.filter((v) => v !== option.value),
                )
              }
            />
            {serverText(option.label)}
          </label>
        ))}
        {notes}
      </fieldset>
    );
  }
  if (field.kind === 'boolean' && asCheckbox(field)) {
    return (
      <div class="field">
        <label class="question-pick">
          <input
            {...common}
            type="checkbox"
            checked={value === true}
            onChange={(e) => onChange(e.currentTarget.checked)}
          />
          {head}
        </label>
        {notes}
      </div>
    );
  }
  return (
    <div class="field">
      <label for={id}>{head}</label>
      <Control field={field} common={common} value={value} onChange={onChange} />
      {notes}
    </div>
  );
}

interface ControlProps {
  readonly field: Exclude<ElicitationField, { readonly kind: 'choices' }>;
  readonly common: {
    readonly id: string;
    readonly name: string;
    readonly 'aria-describedby': string | undefined;
    readonly 'aria-invalid': boolean;
  };
  readonly value: ElicitationValue | undefined;
  readonly onChange: (value: ElicitationValue | undefined) => void;
}

function Control({ field, common, value, onChange }: ControlProps) {
  switch (field.kind) {
    case 'text':
      return <TextControl field={field} common={common} value={value} onChange={onChange} />;
    case 'number':
      // A PIN is masked as a password is; what is not a number is NaN, "must be a number".
      if (field.secret) {
        return (
          <input
            {...common}
            type="password"
            inputMode={field.integer ? 'numeric' : 'decimal'}
            autocomplete="off"
            spellcheck={false}
            onInput={(e) => {
              const text = e.currentTarget.value.trim();
              onChange(
                text === ''
                  ? undefined
                  : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)
                    ? Number(text)
                    : Number.NaN,
              );
            }}
          />
        );
      }
      // Left to the browser as typed ("-", "1e" on the way to a number): a controlled value would
      // wipe what is not a number yet. Not a number: NaN, which the check calls "must be a number".
      return (
        <input
          {...common}
          type="number"
          step={field.integer ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          defaultValue={typeof value === 'number' ? String(value) : undefined}
          onInput={(e) => {
            const { value: text, valueAsNumber, validity } = e.currentTarget;
            onChange(text === '' && !validity.badInput ? undefined : valueAsNumber);
          }}
        />
      );
    case 'boolean':
      return (
        <select
          {...common}
          value={value === undefined ? '' : String(value)}
          onChange={(e) => {
            const chosen = e.currentTarget.value;
            onChange(chosen === '' ? undefined : chosen === 'true');
          }}
        >
          <option value="">— not given —</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      );
    case 'choice':
      return (
        <select
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) =>
            onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value)
          }
        >
          <option value="">{field.required ? '— choose —' : '— not given —'}</option>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {serverText(option.label)}
            </option>
          ))}
        </select>
      );
  }
}

function TextControl({
  field,
  common,
  value,
  onChange,
}: ControlProps & { readonly field: ElicitationTextField }) {
  const text = {
    ...common,
    value: typeof value === 'string' ? value : '',
    onInput: (e: { readonly currentTarget: HTMLInputElement }) =>
      onChange(e.currentTarget.value === '' ? undefined : e.currentTarget.value),
  };
  // A secret is masked and typed each time: never offered from, nor saved to, the browser's
  // store of passwords, and never checked for spelling (which may send it away).
  if (field.secret) {
    return <input {...text} type="password" autocomplete="off" spellcheck={false} />;
  }
  switch (field.format) {
    case 'email':
      return <input {...text} type="email" />;
    case 'uri':
      return <input {...text} type="url" />;
    case 'date':
      return <input {...text} type="date" />;
    // A browser's date-time input has no time zone, which the format requires: typed as text.
    case 'date-time':
      return <input {...text} type="text" placeholder="YYYY-MM-DDThh:mm:ssZ" />;
    case undefined:
      return <input {...text} type="text" />;
  }
}
