// @ts-check
/**
 * Reads server-sent events from a fetch body. EventSource cannot send the Authorization header,
 * so the stream is parsed here: blocks separated by a blank line, `event:` and `data:` fields,
 * comment lines (keep-alives) starting with a colon.
 * @param {ReadableStream<Uint8Array>} stream
 * @param {(event: string, data: string) => void} onEvent
 */
export async function readEvents(stream, onEvent) {
  // The DOM typings want a BufferSource stream for the decoder; a body's bytes are one.
  const bytes = /** @type {ReadableStream<BufferSource>} */ (/** @type {unknown} */ (stream));
  const reader = bytes.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
      if (data.length > 0) onEvent(event, data.join('\n'));
    }
  }
}
