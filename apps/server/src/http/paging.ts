import { answeredPage, type Page, type PageRequest } from '@pra/contracts/paging';

/**
 * The answer of a paged list: the counts (`total`, `matching`), then the rows of the page answered
 * (the last one when the asked one is past it; no rows are read when nothing matches).
 */
export async function answerPage<R, T>(
  asked: PageRequest,
  counts: { total: number; matching: number },
  rowsAt: (offset: number, limit: number) => Promise<R[]>,
  toItem: (row: R) => T,
): Promise<Page<T>> {
  const page = answeredPage(asked.page, asked.size, counts.matching);
  const rows = counts.matching === 0 ? [] : await rowsAt((page - 1) * asked.size, asked.size);
  return { items: rows.map(toItem), ...counts, page, size: asked.size };
}
