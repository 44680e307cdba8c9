// The bench's table: one row per metric with our figure, the baseline it is compared with (the raw
// SDK, or one server for connectAll), their ratio, the goal and whether it was met.

const HEADER = ['metric', 'ours', 'raw SDK / base', 'ratio', 'goal', 'result'];

/** `rows`: `{ metric, ours, base, goal }`, times in ms; goal `{ kind: 'ratio', max }`, `{ kind: 'absolute', maxMs }` or `{ kind: 'info' }`. */
export function formatTable(rows) {
  const cells = rows.map((row) => {
    const ratio = row.ours / row.base;
    return [
      row.metric,
      formatMs(row.ours),
      formatMs(row.base),
      ratio.toFixed(3),
      describeGoal(row.goal),
      verdict(row.goal, row.ours, ratio),
    ];
  });
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

/** How many rows with a goal met it, e.g. `7 of 9 goals met`. */
export function summary(rows) {
  const judged = rows.filter((row) => row.goal.kind !== 'info');
  const met = judged.filter((row) => verdict(row.goal, row.ours, row.ours / row.base) === 'PASS');
  return `${met.length} of ${judged.length} goals met`;
}

function describeGoal(goal) {
  switch (goal.kind) {
    case 'ratio':
      // At least one decimal (1.0, 1.5), and every one the goal has (0.05).
      return `ratio <= ${Number.isInteger(goal.max) ? goal.max.toFixed(1) : String(goal.max)}`;
    case 'absolute':
      return `ours < ${goal.maxMs} ms`;
    case 'info':
      return 'info';
    default:
      throw new Error(`unknown goal kind: ${goal.kind}`);
  }
}

function verdict(goal, ours, ratio) {
  switch (goal.kind) {
    case 'ratio':
      return ratio <= goal.max ? 'PASS' : 'MISS';
    case 'absolute':
      return ours < goal.maxMs ? 'PASS' : 'MISS';
    case 'info':
      return '-';
    default:
      throw new Error(`unknown goal kind: ${goal.kind}`);
  }
}

function formatMs(ms) {
  const digits = ms < 10 ? 3 : ms < 1000 ? 1 : 0;
  return `${ms.toFixed(digits)} ms`;
}
