/** One line of the bench table: a measured figure and the goal it is held to (empty when none). */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  goal: string;
}

/** Prints rows as an aligned table, for the modules' own runners. */
export function printRows(rows: BenchRow[]): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const { name, value, unit, goal } of rows) {
    const figure = `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    console.log(`${name.padEnd(width)}  ${figure.padStart(12)}  ${goal ? `goal ${goal}` : ''}`);
  }
}
