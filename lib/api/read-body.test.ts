import { describe, expect, it } from "vitest";
import { readBodyCapped, readTextCapped } from "./read-body";

const tooBig = () => new Error("too big");
const chunked = (chunks: Uint8Array[]) =>
  new Request("http://localhost/x", {
    method: "POST",
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
    duplex: "half",
  } as RequestInit);

describe("readBodyCapped", () => {
  it("keeps a body of exactly the limit, across chunks, byte for byte", async () => {
    const bytes = await readBodyCapped(chunked([new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])]), 5, tooBig);
    expect([...bytes]).toEqual([1, 2, 3, 4, 5]);
  });

  it("refuses one byte over the limit when no length was declared", async () => {
    await expect(readBodyCapped(chunked([new Uint8Array(3), new Uint8Array(3)]), 5, tooBig)).rejects.toThrow("too big");
  });

  it("refuses a declared length over the limit before reading", async () => {
    let pulled = false;
    const request = new Request("http://localhost/x", {
      method: "POST",
      headers: { "content-length": "6" },
      body: new ReadableStream<Uint8Array>({ pull: () => void (pulled = true) }, { highWaterMark: 0 }),
      duplex: "half",
    } as RequestInit);
    await expect(readBodyCapped(request, 5, tooBig)).rejects.toThrow("too big");
    expect(pulled).toBe(false);
  });

  it("stops reading an endless body at the limit", async () => {
    let pulled = 0;
    const endless = new Request("http://localhost/x", {
      method: "POST",
      body: new ReadableStream<Uint8Array>({ pull: (c) => void (pulled += 1, c.enqueue(new Uint8Array(1024))) }),
      duplex: "half",
    } as RequestInit);
    await expect(readBodyCapped(endless, 10 * 1024, tooBig)).rejects.toThrow("too big");
    expect(pulled).toBeLessThanOrEqual(12);
  });

  it("reads text as UTF-8 and an empty body as empty", async () => {
    const text = await readTextCapped(chunked([new TextEncoder().encode("\u{FEFF}héllo ✓")]), 100, tooBig);
    expect(text).toBe("héllo ✓");
    expect(await readTextCapped(new Request("http://localhost/x", { method: "POST" }), 100, tooBig)).toBe("");
  });
});
