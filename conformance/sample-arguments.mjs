// Arguments for calling a tool the driver knows nothing about, read off its input schema: the
// schema's own default, const or first enum value where it gives one, else the simplest value of
// the declared type. Only required properties are filled: an optional one is the server's to
// default.

/** @param {unknown} schema a tool's inputSchema */
export function sampleArguments(schema) {
  const value = sampleValue(schema);
  return isObject(value) ? value : {};
}

function sampleValue(schema) {
  if (!isObject(schema)) return null;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return sampleObject(schema);
    case 'array':
      return [];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case undefined:
      return isObject(schema.properties) ? sampleObject(schema) : null;
    default:
      return null;
  }
}

function sampleObject(schema) {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.fromEntries(
    required
      .filter((name) => name in properties)
      .map((name) => [name, sampleValue(properties[name])]),
  );
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
