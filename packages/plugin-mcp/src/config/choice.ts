// Step 2 of the three fields that choose what the model gets from a server — `enabled` (with its
// alias `disabled`), `include_tools` and `exclude_tools` — for an entry of `servers` and for one
// of the user's `overrides` of a plugin's or host's server. Each pattern keeps where it is
// written: once the server has answered, a name none of its tools has is a warning pointing there.
import { formatPath, type PathSegment } from '@epoch-agent/infra';
import type {
  McpElicitationSetting,
  McpEntryPosition,
  McpFieldPosition,
  McpServerChoice,
  McpToolDeferral,
  McpToolPattern,
} from '../types.js';
import type { Locator } from './locate.js';
import type { EntryScope, Report } from './report.js';
import { camelCase, type Fields } from './schema.js';
import type { McpStartMode } from './start.js';

/** What an entry says about its server's choice; each part absent where the entry does not say. */
export interface ChoiceWritten {
  readonly enabled?: boolean;
  readonly includeTools?: readonly McpToolPattern[];
  readonly excludeTools?: readonly McpToolPattern[];
}

/**
 * An entry of the user's `overrides`: what the user chose about a server a plugin or the host
 * brings, by the server's full name. That server's own entry is never edited.
 */
export interface McpServerOverride extends ChoiceWritten {
  /** The full name: `<plugin>__<server>` or `<namespace>__<server>`. */
  readonly server: string;
  /** Replaces the entry's `defer` when given. */
  readonly defer?: McpToolDeferral;
  /**
   * Replaces the entry's `pinTools` when given: the user may turn pinning off for a plugin's,
   * host's or project's server, which their own files may not.
   */
  readonly pinTools?: boolean;
  /**
   * Replaces the entry's `elicitation` when given: the user may be asked by a plugin's, host's or
   * project's server, which their own files may not ask for.
   */
  readonly elicitation?: McpElicitationSetting;
  /** Replaces the entry's `start` when given: when a plugin's, host's or project's server starts. */
  readonly start?: McpStartMode;
  /** Where its key is written. */
  readonly at: McpEntryPosition;
}

/**
 * A plugin's or host's choice with the user's override on top: the user's `enabled` and
 * `include_tools` replace theirs, and the user's `exclude_tools` adds to theirs.
 */
export function withOverride(base: McpServerChoice, override: ChoiceWritten): McpServerChoice {
  const includeTools = override.includeTools ?? base.includeTools;
  return {
    enabled: override.enabled ?? base.enabled,
    ...(includeTools === undefined ? {} : { includeTools }),
    excludeTools: [...base.excludeTools, ...(override.excludeTools ?? [])],
  };
}

export interface ChoiceSource {
  readonly scope: EntryScope;
  readonly name: string;
  readonly file: string;
  readonly locator: Locator;
  /** The entry as written: which spelling of a field it uses. */
  readonly raw: object;
  readonly report: Report;
}

export function readChoice(fields: Fields, source: ChoiceSource): ChoiceWritten {
  const { enabled, disabled } = fields;
  if (enabled !== undefined && disabled !== undefined && enabled === disabled) {
    source.report(
      'warning',
      'alias_conflict',
      ['disabled'],
      `"disabled": ${disabled} contradicts "enabled": ${enabled}; "enabled" wins, so "${source.name}" is ${enabled ? 'on' : 'off'}. Remove "disabled".`,
      'key',
    );
  }
  const on = enabled ?? (disabled === undefined ? undefined : !disabled);
  const includeTools = patterns('include_tools', fields.include_tools, source);
  const excludeTools = patterns('exclude_tools', fields.exclude_tools, source);
  return {
    ...(on === undefined ? {} : { enabled: on }),
    ...(includeTools === undefined ? {} : { includeTools }),
    ...(excludeTools === undefined ? {} : { excludeTools }),
  };
}

function patterns(
  field: 'include_tools' | 'exclude_tools',
  names: readonly string[] | undefined,
  source: ChoiceSource,
): McpToolPattern[] | undefined {
  if (names === undefined) return undefined;
  // Snake_case wins when both are written, as the fold of step 1 decides.
  const key = Object.hasOwn(source.raw, field) ? field : camelCase(field);
  return names.map((pattern, index) => ({
    pattern,
    at: position(source, [source.scope, source.name, key, index]),
  }));
}

function position(source: ChoiceSource, path: readonly PathSegment[]): McpFieldPosition {
  return { file: source.file, path: formatPath(path), ...source.locator.value(path) };
}
