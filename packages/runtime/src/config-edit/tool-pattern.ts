// Which tool names an element of include_tools / exclude_tools stands for: `*` is any run of
// characters (none too), every other character stands for itself.

export function isToolPattern(element: string): boolean {
  return element.includes('*');
}

export function matchesTool(element: string, tool: string): boolean {
  const [first = '', ...rest] = element.split('*');
  const last = rest.pop();
  if (last === undefined) return element === tool;
  if (!tool.startsWith(first) || tool.length < first.length + last.length) return false;
  // Each middle part at its earliest place leaves the most room for the ones after it.
  let at = first.length;
  const end = tool.length - last.length;
  for (const part of rest) {
    const found = tool.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return tool.endsWith(last);
}
