// JSON with object keys sorted at every depth: one text per value whatever order its keys came in,
// so what is hashed (a config's fingerprint, a tool's pinned definition) never depends on it; and
// the equality that text means, decided without writing it.

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

/**
 * Whether two JSON values are the same whatever the order of their keys: what equal canonicalJson
 * means, in a fraction of its time (no text, no sorting). A member whose value is undefined counts
 * here, though canonicalJson leaves it out: a caller that must agree with a hash in that case
 * compares the hashes when this says no.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key of Object.keys(left)) {
    keys++;
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
  }
  return keys === Object.keys(right).length;
}
