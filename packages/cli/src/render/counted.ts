// "1 tool", "3 tools": a count says its noun in the number it has, never "tool(s)".

/** `count` and its noun, plural unless it is 1; `plural` for nouns that do not just take an s. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
