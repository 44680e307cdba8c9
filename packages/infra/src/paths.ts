// Where epoch keeps its files. Everything under one home so a test (or a second profile) can point
// the whole product somewhere else with one variable.
//
// Layout:
//   $EPOCH_HOME/                      default ~/.epoch
//     mcp.json                        the user's MCP servers (default profile)
//     profiles/<EPOCH_PROFILE>/
//       mcp.json                      the same file for a named profile
//
// A profile is a whole separate set of user files; EPOCH_HOME moves all of them at once.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { InfraError } from './errors.js';

const PROFILE_NAME = /^[A-Za-z0-9_-]+$/;

export type Env = Readonly<Record<string, string | undefined>>;

/** The epoch home directory: `$EPOCH_HOME`, else `~/.epoch`. */
export function epochHome(env: Env = process.env): string {
  const home = env.EPOCH_HOME;
  return home ? resolve(home) : join(homedir(), '.epoch');
}

/** The directory holding the active profile's user files. */
export function profileDir(env: Env = process.env): string {
  const profile = env.EPOCH_PROFILE;
  if (!profile) return epochHome(env);
  // A profile name becomes a path segment: refuse `..` and separators rather than escape the home.
  if (!PROFILE_NAME.test(profile)) {
    throw new InfraError(
      'invalid_profile',
      `EPOCH_PROFILE="${profile}" is not a valid profile name: use letters, digits, "_" and "-" only.`,
    );
  }
  return join(epochHome(env), 'profiles', profile);
}

/** The user's mcp.json for the active profile. */
export function mcpConfigPath(env: Env = process.env): string {
  return join(profileDir(env), 'mcp.json');
}
