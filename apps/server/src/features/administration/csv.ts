/**
 * CSV both ways: reading the operators' import files (RFC 4180: quotes, doubled quotes, newlines
 * in quoted cells) and writing exports a spreadsheet opens safely.
 */

export { csvLine, neutralise } from '@pra/contracts/csv';

/** Parses CSV text into rows of cells; blank lines are skipped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const input = text.replace(/^\uFEFF/, '');
  const endRow = () => {
    row.push(cell);
    if (row.some((c) => c.trim() !== '')) rows.push(row);
    row = [];
    cell = '';
  };
  for (let i = 0; i < input.length; i += 1) {
    const ch = input[i];
    if (quoted) {
      if (ch === '"' && input[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') {
        quoted = false;
      } else {
        cell += ch;
      }
    } else if (ch === '"' && cell === '') {
      quoted = true;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && input[i + 1] === '\n') i += 1;
      endRow();
    } else {
      cell += ch;
    }
  }
  if (quoted) throw new Error('The CSV ends inside a quoted cell (a " is not closed).');
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}
