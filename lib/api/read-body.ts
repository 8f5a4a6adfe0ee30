/**
 * A request body read up to a byte limit. The declared `Content-Length` is checked first; a body sent without one
 * (chunked) is counted as it streams and the read stops at the first byte over the limit, so an oversized upload is
 * refused without holding more than the limit in memory.
 */
export async function readBodyCapped(request: Request, maxBytes: number, tooBig: () => Error): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooBig();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooBig();
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** The body as UTF-8 text (a leading byte-order mark dropped, as `Request.text()` does), at most `maxBytes` long. */
export async function readTextCapped(request: Request, maxBytes: number, tooBig: () => Error): Promise<string> {
  return new TextDecoder("utf-8").decode(await readBodyCapped(request, maxBytes, tooBig));
}
