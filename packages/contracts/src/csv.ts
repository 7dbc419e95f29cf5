// Writing CSV a spreadsheet opens safely; no zod here, so any web chunk may use it.

/**
 * A cell a spreadsheet would run as a formula (= + - @, and tab or carriage return, which some
 * treat the same) gets a leading apostrophe, so it is shown as text.
 */
export function neutralise(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One CSV line (CRLF-terminated), every cell neutralised and quoted where needed. */
export function csvLine(cells: string[]): string {
  return `${cells.map((cell) => quote(neutralise(cell))).join(',')}\r\n`;
}
