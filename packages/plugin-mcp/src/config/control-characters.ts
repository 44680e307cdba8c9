// Characters a field's text may hold as JSON but not where it goes: a NUL in a command, an argument
// (a headers helper's words too), an environment variable or a URL (the OS ends a C string there,
// so Node refuses the spawn and its message prints the value); a line break in a header (it would
// end the header early, and fetch refuses it with a message that does not name it). Refused where
// they are written, naming the field, the variable or the header, never the value: those carry
// secrets.
import type { Report } from './report.js';
import type { Fields } from './schema.js';

// RFC 9110's token: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Reports every such character in `fields` of server `name`; true when there is none. */
export function checkControlCharacters(name: string, fields: Fields, report: Report): boolean {
  let ok = true;
  const refuse = (path: readonly (string | number)[], message: string, at?: 'key') => {
    ok = false;
    report('error', 'invalid_value', path, message, at);
  };
  const nul = (text: string | undefined) => text?.includes('\0') === true;
  const noNul = 'holds a NUL character (\\u0000), which no program or address can carry; remove it';

  for (const field of ['command', 'cwd', 'url'] as const) {
    if (nul(fields[field])) refuse([field], `"${field}" of server "${name}" ${noNul}.`);
  }
  fields.args?.forEach((arg, index) => {
    if (nul(arg)) refuse(['args', index], `argument ${index} of server "${name}" ${noNul}.`);
  });
  fields.headers_helper?.forEach((word, index) => {
    if (nul(word)) {
      refuse(
        ['headers_helper', index],
        `word ${index} of "headers_helper" of server "${name}" ${noNul}.`,
      );
    }
  });
  for (const [variable, value] of Object.entries(fields.env ?? {})) {
    if (nul(variable)) {
      refuse(['env', variable], `a variable name in "env" of server "${name}" ${noNul}.`, 'key');
    } else if (nul(value)) {
      refuse(['env', variable], `the value of ${variable} in "env" of server "${name}" ${noNul}.`);
    }
  }
  for (const [header, value] of Object.entries(fields.headers ?? {})) {
    if (!HEADER_NAME.test(header)) {
      refuse(
        ['headers', header],
        `header name ${JSON.stringify(header)} of server "${name}" is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only); correct it.`,
        'key',
      );
    } else if (/[\r\n\0]/.test(value)) {
      refuse(
        ['headers', header],
        `the value of header "${header}" of server "${name}" holds a line break or NUL character, which a header cannot carry; write it on one line.`,
      );
    }
  }
  return ok;
}
