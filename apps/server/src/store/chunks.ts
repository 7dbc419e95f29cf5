// Lookups by many keys, split so no statement carries too many parameters.

/** Lookups are split so no statement carries more than this many parameters. */
const CHUNK = 1000;

export async function inChunks<T, R>(items: readonly T[], run: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const all: R[] = [];
  for (let i = 0; i < items.length; i += CHUNK) all.push(...(await run(items.slice(i, i + CHUNK))));
  return all;
}
