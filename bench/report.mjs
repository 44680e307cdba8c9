// The bench's table: one row per metric with our figure, the baseline it is compared with (the raw
// SDK, or one server for connectAll, or `node -e 0` for a cold command), their ratio, the goal and
// whether it was met; for rows of fresh-process samples, the spread of each side's samples.

const HEADER = [
  'metric',
  'ours',
  'raw SDK / base',
  'ratio',
  'goal',
  'result',
  'min–max: ours / base',
];

/**
 * `rows`: `{ metric, ours, base, goal, unit?, spread? }`. `unit` is `ms` (the default), `µs`, `ns`, `MB`,
 * `kB`, `score`, `processes`, `tokens`, `nodes` or `%`;
 * `base` is undefined where nothing compares (no raw SDK counterpart). `spread`: `{ ours, base }`,
 * each the `[min, max]` of the samples the figure is the median of. Goals:
 * `{ kind: 'ratio', max }`: ours / base <= max;
 * `{ kind: 'absolute', max }`: ours <= max, in the row's unit;
 * `{ kind: 'atLeast', min }`: ours >= min, in the row's unit;
 * `{ kind: 'affine', factor, plusMs }`: ours <= factor x base + plusMs;
 * `{ kind: 'info' }`: shown, not judged.
 */
export function formatTable(rows) {
  const cells = rows.map((row) => [
    row.metric,
    formatValue(row.ours, row.unit),
    row.base === undefined ? '-' : formatValue(row.base, row.unit),
    row.base === undefined ? '-' : ratioText(row.ours, row.base),
    describeGoal(row.goal, row.unit),
    verdict(row),
    row.spread === undefined ? '-' : spreadText(row.spread, row.unit),
  ]);
  const widths = HEADER.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column].length)),
  );
  const format = (line) =>
    line
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
      )
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [format(HEADER), rule, ...cells.map(format)].join('\n');
}

/** How many rows with a goal met it, e.g. `7 of 9 goals met`, and which ones missed. */
export function summary(rows) {
  const judged = rows.filter((row) => row.goal.kind !== 'info');
  const missed = judged.filter((row) => verdict(row) !== 'PASS');
  const met = `${judged.length - missed.length} of ${judged.length} goals met`;
  return missed.length === 0
    ? met
    : `${met}; missed: ${missed.map((row) => row.metric).join('; ')}`;
}

function ratioText(ours, base) {
  // 0 processes left of 0 is no ratio at all; of 3 it is 0.
  return base === 0 ? '-' : (ours / base).toFixed(3);
}

function describeGoal(goal, unit = 'ms') {
  switch (goal.kind) {
    case 'ratio':
      // At least one decimal (1.0, 1.5), and every one the goal has (0.05).
      return `ratio <= ${Number.isInteger(goal.max) ? goal.max.toFixed(1) : String(goal.max)}`;
    case 'absolute':
      return `ours <= ${goal.max} ${unit}`;
    case 'atLeast':
      return `ours >= ${goal.min} ${unit}`;
    case 'affine':
      // `base + 1 ms` when the factor is 1: the margin is the whole goal.
      return `ours <= ${goal.factor === 1 ? '' : `${goal.factor}x `}base + ${goal.plusMs} ms`;
    case 'info':
      return 'info';
    default:
      throw new Error(`unknown goal kind: ${goal.kind}`);
  }
}

function verdict({ goal, ours, base }) {
  switch (goal.kind) {
    case 'ratio':
      return ours / base <= goal.max ? 'PASS' : 'MISS';
    case 'absolute':
      return ours <= goal.max ? 'PASS' : 'MISS';
    case 'atLeast':
      return ours >= goal.min ? 'PASS' : 'MISS';
    case 'affine':
      return ours <= goal.factor * base + goal.plusMs ? 'PASS' : 'MISS';
    case 'info':
      return '-';
    default:
      throw new Error(`unknown goal kind: ${goal.kind}`);
  }
}

/** `265–290 / 250–281 ms`: the unit once, at the end. */
function spreadText({ ours, base }, unit = 'ms') {
  const range = ([min, max]) => `${formatValue(min, unit, false)}–${formatValue(max, unit, false)}`;
  return `${range(ours)} / ${range(base)} ${unit}`;
}

/** `value` in `unit`, followed by the unit's name unless `named` is false (ms and µs only). */
function formatValue(value, unit = 'ms', named = true) {
  switch (unit) {
    case 'ms':
    case 'µs':
    case 'ns': {
      const digits = value < 10 ? 3 : value < 1000 ? 1 : 0;
      return named ? `${value.toFixed(digits)} ${unit}` : value.toFixed(digits);
    }
    case 'MB':
      return `${value.toFixed(3)} MB`;
    case 'kB':
      return `${Math.round(value).toLocaleString('en-US')} kB`;
    case 'processes':
      return String(value);
    case 'nodes':
      return `${value.toLocaleString('en-US')} nodes`;
    case 'tokens':
      return value.toLocaleString('en-US');
    case '%':
      return `${value.toFixed(1)} %`;
    case 'score':
      return value.toFixed(3);
    default:
      throw new Error(`unknown unit: ${unit}`);
  }
}
