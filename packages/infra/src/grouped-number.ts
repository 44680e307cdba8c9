// Whole numbers as people read them: 25000 → "25,000". Not Number.toLocaleString: its first call
// in a process loads the ICU locale data, about 25 ms that a fresh `epoch` start would pay just to
// build an error message it may never show.

/** `count` (a whole number) with its digits grouped by three, en-US style. */
export function groupedNumber(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}
