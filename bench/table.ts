// The one table `npm run bench` (and bench/first-page.ts) prints. Every section (throughput,
// sign-in, memory, page weight, Lighthouse, outbox drain, page-load timings) hands back rows in this
// shape, so each figure stands beside its goal and, for throughput, its ratio to the bare-fastify
// anchor measured in the same run.

export interface BenchRow {
  /** What was measured, e.g. "GET /api/user, PostgreSQL". */
  figure: string;
  /** The measured value; null when the measurement could not run (say why in `note`). */
  value: number | null;
  /** Unit of `value` and of the goal: "req/s", "ms", "MB", "kB", "score". */
  unit: string;
  /** The goal: at most or at least this much (same unit), if the issue sets one; `text` for a goal
   * the bench cannot judge by a number (e.g. 'report', 'used rules only'): shown, no verdict. */
  goal?: { atMost?: number; atLeast?: number; text?: string };
  /** For throughput: value ÷ the anchor's req/s, with its own goal (e.g. at least 0.25). */
  ratio?: { value: number; atLeast?: number };
  /** Anything the reader needs: p99, runs, why a figure is missing. */
  note?: string;
}

function goalText(goal: BenchRow['goal'], unit: string): string {
  if (!goal) return '';
  if (goal.atMost !== undefined) return `≤ ${goal.atMost} ${unit}`;
  if (goal.atLeast !== undefined) return `≥ ${goal.atLeast} ${unit}`;
  return goal.text ?? '';
}

/** The middle value (the upper one of an even count); NaN when there is none. */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** "met", "MISSED" or "" (no goal), for the value and for the ratio. */
export function verdict(row: BenchRow): string {
  if (row.value === null) return 'not run';
  const checks: boolean[] = [];
  if (row.goal?.atMost !== undefined) checks.push(row.value <= row.goal.atMost);
  if (row.goal?.atLeast !== undefined) checks.push(row.value >= row.goal.atLeast);
  if (row.ratio?.atLeast !== undefined) checks.push(row.ratio.value >= row.ratio.atLeast);
  if (checks.length === 0) return '';
  return checks.every(Boolean) ? 'met' : 'MISSED';
}

function formatValue(value: number | null, unit: string): string {
  if (value === null) return '-';
  const digits = Number.isInteger(value) || Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** Prints the rows as one aligned plain-text table (readable in a terminal and a CI log). */
export function printTable(rows: BenchRow[]): void {
  const cells = rows.map((row) => [
    row.figure,
    formatValue(row.value, row.unit),
    goalText(row.goal, row.unit),
    row.ratio && row.value !== null
      ? `${(row.ratio.value * 100).toFixed(1)} %${row.ratio.atLeast !== undefined ? ` (≥ ${row.ratio.atLeast * 100} %)` : ''}`
      : '',
    verdict(row),
    row.note ?? '',
  ]);
  const header = ['figure', 'value', 'goal', 'of bare fastify', 'verdict', 'note'];
  // A column no row fills (the ratio in first-page.ts's table) is left out.
  const shown = header.map((_, i) => i < 2 || cells.some((c) => c[i] !== ''));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((cell, i) => (i === 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .filter((_, i) => shown[i])
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const c of cells) console.log(line(c));
}
