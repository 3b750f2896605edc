// The filename a served image carries cannot break its header, name a path or
// disagree with the sniffed type.
import { describe, expect, it } from "vitest";
import { contentDisposition, imageHeaders } from "./serve";

describe("Content-Disposition of a served image", () => {
  it("keeps the name's stem and takes the extension of the sniffed type", () => {
    expect(contentDisposition("holiday.jpg", "img_x", "image/png")).toBe(`inline; filename="holiday.png"; filename*=UTF-8''holiday.png`);
  });

  it("drops quotes, slashes, semicolons and control characters (no header injection, no path)", () => {
    const header = contentDisposition('../../etc/pa"ss\r\nSet-Cookie: a=b;.html', "img_x", "image/gif");
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith(`inline; filename="....etcpassSet-Cookie a=b.gif"`), header).toBe(true);
  });

  it("writes non-ASCII names as UTF-8 in filename* and replaces them in filename", () => {
    expect(contentDisposition("café.webp", "img_x", "image/webp")).toBe(`inline; filename="caf_.webp"; filename*=UTF-8''caf%C3%A9.webp`);
  });

  it("falls back to the id when there is no usable name, and marks thumbnails", () => {
    expect(contentDisposition(null, "img_abc", "image/webp", "-thumbnail")).toContain(`filename="img_abc-thumbnail.webp"`);
    expect(contentDisposition('"";', "img_abc", "image/jpeg")).toContain(`filename="img_abc.jpg"`);
  });

  it("answers the sniffed type with nosniff, a sandboxing CSP and a private immutable cache", () => {
    const headers = imageHeaders({ bytes: new Uint8Array(3), mediaType: "image/jpeg", name: "x.png" }, "img_abc", "original");
    expect(headers).toMatchObject({
      "Content-Type": "image/jpeg",
      "Content-Length": "3",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, max-age=31536000, immutable",
      "Content-Security-Policy": "default-src 'none'; sandbox; frame-ancestors 'none'",
    });
  });
});
