import { csvLine } from '@pra/contracts/csv';

/** The results as a CSV file a spreadsheet opens safely (cells starting = + - @ are neutralised). */
export function resultsCsv(emails: readonly string[], results: readonly string[]): string {
  return [csvLine(['Email', 'Result']), ...emails.map((email, i) => csvLine([email, results[i] ?? '']))].join(
    '',
  );
}

/** Offers the text as a file download. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
