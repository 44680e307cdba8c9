// Rules the "add server" form and POST /api/mcp both apply, in a module with no imports so the
// page's bundle can take it as it is. (The server-name rule is the runtime's SERVER_NAME_PATTERN;
// the page gets it in the view, as `namePattern`.)

/** A portable environment variable name, what every shell and OS accepts. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function envNameProblem(name: string): string | undefined {
  return ENV_NAME_PATTERN.test(name)
    ? undefined
    : `${JSON.stringify(name)} is not a variable name: use letters, digits and "_", not starting with a digit.`;
}
