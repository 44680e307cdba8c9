// `--root DIR` (repeatable) of `epoch mcp call` and `epoch web`: the directories servers are told
// they may work in (MCP roots). Each is checked here, so a typo is a usage error naming it rather
// than a server that quietly sees nothing.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { visibleText } from '@epoch-agent/infra';
import type { McpRoots } from '@epoch-agent/runtime';
import { type Invocation, stringOptions, UsageError } from '../command.js';

/** The `--root` directories as absolute paths, or undefined when none was given (no roots). */
export function rootsOf(invocation: Invocation): McpRoots | undefined {
  const given = stringOptions(invocation, 'root');
  if (given.length === 0) return undefined;
  return given.map((dir) => {
    // resolve('') is the current directory: an empty value (an unset shell variable, `--root ''`)
    // would grant it without anyone having named it.
    if (dir === '') {
      throw new UsageError(
        "--root '': an empty directory name grants nothing; name the directory (--root . for the current one)",
      );
    }
    const path = resolve(dir);
    const stat = statSync(path, { throwIfNoEntry: false });
    // Shown with its line breaks and other controls made visible: a name is one line of an error.
    const [given, where] = [visibleText(dir), visibleText(path)];
    if (stat === undefined) throw new UsageError(`--root ${given}: there is no directory ${where}`);
    if (!stat.isDirectory()) throw new UsageError(`--root ${given}: ${where} is not a directory`);
    return path;
  });
}
