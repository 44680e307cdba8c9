// JSON with object keys sorted at every depth: one text per value whatever order its keys came in,
// so what is hashed (a config's fingerprint, a tool's pinned definition) never depends on it.

/** Arrays keep their order (args order, a schema's `required` order are meaning); undefined members are left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
