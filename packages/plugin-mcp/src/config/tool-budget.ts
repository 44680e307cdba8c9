// `tool_budget_tokens`: the one top-level setting of mcp.json that is not a list of entries, read
// in both spellings as a server entry's fields are.
import { type Diagnostic, groupedNumber } from '@epoch-agent/infra';
import { getNodeValue, type Node } from 'jsonc-parser';
import { kindOf } from './file-shape.js';
import { propertiesOf } from './properties.js';
import { diagnostic, type Where } from './report.js';

// The budget in both spellings, as a server entry's fields; snake_case wins when both are written.
export const BUDGET_KEYS = ['tool_budget_tokens', 'toolBudgetTokens'];

// Up to a million: the largest context windows hold about that, and a budget beyond every
// context is a typo, not a setting.
const MAX_TOOL_BUDGET_TOKENS = 1_000_000;

/** `tool_budget_tokens`, when it is a whole number of tokens from 0 to a million. */
export function readToolBudget(root: Node, where: Where, into: Diagnostic[]): number | undefined {
  const properties = propertiesOf(root);
  const key = BUDGET_KEYS.find((k) => properties.some((p) => p.key === k));
  const node = properties.findLast((p) => p.key === key)?.value;
  if (key === undefined || node === undefined) return undefined;
  const camel = properties.find((p) => p.key === 'toolBudgetTokens');
  if (key === 'tool_budget_tokens' && camel !== undefined) {
    into.push(
      diagnostic(
        where,
        'warning',
        'duplicate_field',
        ['toolBudgetTokens'],
        '"toolBudgetTokens" and "tool_budget_tokens" are the same setting, given twice; "tool_budget_tokens" is used and "toolBudgetTokens" is ignored. Remove one.',
        'key',
      ),
    );
  }
  const value: unknown = getNodeValue(node);
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (value >= 0 && value <= MAX_TOOL_BUDGET_TOKENS) return value;
    into.push(
      diagnostic(
        where,
        'error',
        'out_of_range',
        [key],
        `"${key}" must be from 0 to ${groupedNumber(MAX_TOOL_BUDGET_TOKENS)} tokens (0 finds every server's tools on demand); the default budget is used.`,
      ),
    );
    return undefined;
  }
  into.push(
    diagnostic(
      where,
      'error',
      'invalid_type',
      [key],
      `"${key}" must be a whole number of tokens, e.g. "${key}": 20000 (it holds ${typeof value === 'number' ? 'a fraction' : kindOf(node)}); the default budget is used.`,
    ),
  );
  return undefined;
}
