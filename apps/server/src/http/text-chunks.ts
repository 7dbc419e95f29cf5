/** A download's text in chunks of about 64 KiB: few socket writes, no more than one chunk held. */
const CHUNK = 65_536;

/** `lines` joined into chunks of about 64 KiB. */
export async function* chunked(lines: AsyncIterable<string>): AsyncGenerator<string> {
  let chunk = '';
  for await (const line of lines) {
    chunk += line;
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}
