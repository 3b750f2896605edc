// The inference activity's image loading: bytes join the user messages that
// refer to them, repeated calls hit the cache, a deleted image is a clear failure.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ImageRef } from "../../lib/attachments/schemas";
import type { ChatMessage } from "../../lib/contract/types";
import type { Db } from "../../lib/db/prisma";

const stored = new Map<string, Uint8Array>();
const readImage = vi.fn(async (_db: Db, attachmentId: string) => {
  const bytes = stored.get(attachmentId);
  return bytes ? { bytes, mediaType: "image/png" as const } : null;
});
vi.mock("../../lib/attachments/store", () => ({ readImage }));

const { ImageCache, MissingImageError, withImageData } = await import("./image-loader");

const db = {} as Db;
const ref = (id: string, bytes: number): ImageRef => ({ attachmentId: `img_${id.padEnd(32, "0")}`, mediaType: "image/png", width: 1, height: 1, bytes });

beforeEach(() => {
  stored.clear();
  readImage.mockClear();
});

describe("withImageData", () => {
  it("gives each user message with images the bytes of its images, in order, and leaves the others as they are", async () => {
    const [a, b] = [ref("a", 3), ref("b", 2)];
    stored.set(a.attachmentId, new Uint8Array([1, 2, 3]));
    stored.set(b.attachmentId, new Uint8Array([4, 5]));
    const messages: ChatMessage[] = [
      { role: "system", content: "s" },
      { role: "user", content: "two images", images: [a, b] },
      { role: "assistant", content: "ok" },
      { role: "user", content: "text only" },
    ];
    const loaded = await withImageData(db, new ImageCache(), messages);
    expect(loaded[0]).toBe(messages[0]);
    expect(loaded[3]).toBe(messages[3]);
    const user = loaded[1];
    expect(user?.role === "user" ? user.imageData?.map((i) => [i.ref.attachmentId, [...i.bytes], i.mediaType]) : null).toEqual([
      [a.attachmentId, [1, 2, 3], "image/png"],
      [b.attachmentId, [4, 5], "image/png"],
    ]);
    expect(messages[1], "the conversation (held by the conversation cache) is not changed").not.toHaveProperty("imageData");
  });

  it("reads an image once per process while the cache holds it", async () => {
    const a = ref("a", 3);
    stored.set(a.attachmentId, new Uint8Array([1, 2, 3]));
    const cache = new ImageCache();
    const messages: ChatMessage[] = [{ role: "user", content: "x", images: [a] }];
    await withImageData(db, cache, messages);
    await withImageData(db, cache, messages);
    expect(readImage).toHaveBeenCalledTimes(1);
  });

  it("evicts the least recently used images past its byte limit, and keeps none over a quarter of it", async () => {
    const refs = ["a", "b", "c", "d", "e", "f"].map((id) => ref(id, 20));
    for (const r of refs) stored.set(r.attachmentId, new Uint8Array(20));
    const cache = new ImageCache(100);
    for (const r of refs.slice(0, 5)) await withImageData(db, cache, [{ role: "user", content: "x", images: [r] }]);
    cache.get(refs[0]?.attachmentId ?? ""); // a is used again: b is now the oldest
    await withImageData(db, cache, [{ role: "user", content: "x", images: [refs[5] as ImageRef] }]);
    expect(cache.get(refs[1]?.attachmentId ?? ""), "the least recently used went").toBeUndefined();
    expect(cache.get(refs[0]?.attachmentId ?? "")).toBeDefined();
    expect(cache.get(refs[5]?.attachmentId ?? "")).toBeDefined();
    const big = ref("big", 30);
    stored.set(big.attachmentId, new Uint8Array(30));
    await withImageData(db, cache, [{ role: "user", content: "x", images: [big] }]);
    expect(cache.get(big.attachmentId)).toBeUndefined();
  });

  it("a deleted image is a MissingImageError naming it", async () => {
    const gone = ref("gone", 1);
    await expect(withImageData(db, new ImageCache(), [{ role: "user", content: "x", images: [gone] }])).rejects.toThrow(MissingImageError);
    await expect(withImageData(db, new ImageCache(), [{ role: "user", content: "x", images: [gone] }])).rejects.toThrow(`image ${gone.attachmentId} of the conversation is no longer stored`);
  });
});
