import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { IMAGE_MAX_BYTES } from "@/lib/attachments/schemas";
import { checkImageFiles, formatBytes, imageAlt } from "./image-checks";
import { MessageImages } from "./message-images";
import { AttachedImageRow, imagesNotReady } from "./image-picker";

const png = (name: string, size = 1000) => ({ name, type: "image/png", size });

describe("checkImageFiles", () => {
  it("accepts the four image types by the browser's type", () => {
    const files = [png("a.png"), { name: "b.jpg", type: "image/jpeg", size: 10 }, { name: "c.webp", type: "image/webp", size: 10 }, { name: "d.gif", type: "image/gif", size: 10 }];
    const { accepted, refused } = checkImageFiles(files, 0);
    expect(accepted.map((f) => f.name)).toEqual(["a.png", "b.jpg", "c.webp", "d.gif"]);
    expect(refused).toEqual([]);
  });

  it("refuses other types, naming the file, its type and the allowed ones", () => {
    const { accepted, refused } = checkImageFiles([{ name: "notes.txt", type: "text/plain", size: 12 }, { name: "pic.svg", type: "image/svg+xml", size: 12 }, { name: "blob", type: "", size: 12 }], 0);
    expect(accepted).toEqual([]);
    expect(refused.map((r) => r.message)).toEqual([
      "notes.txt is a text/plain file: attach PNG, JPEG, WebP or GIF images",
      "pic.svg is a image/svg+xml file: attach PNG, JPEG, WebP or GIF images",
      "blob is a file of unknown type: attach PNG, JPEG, WebP or GIF images",
    ]);
  });

  it("takes exactly 10 MB and refuses a byte more, saying how big the file is", () => {
    const { accepted, refused } = checkImageFiles([png("max.png", IMAGE_MAX_BYTES), png("big.png", IMAGE_MAX_BYTES + 1)], 0);
    expect(accepted.map((f) => f.name)).toEqual(["max.png"]);
    expect(refused).toEqual([{ name: "big.png", message: "big.png is 10.0 MB: an image may be at most 10 MB" }]);
  });

  it("refuses an empty file", () => {
    expect(checkImageFiles([png("empty.png", 0)], 0).refused[0]?.message).toBe("empty.png is empty");
  });

  it("counts the images already attached: the sixth is refused, refused files take no slot", () => {
    const { accepted, refused } = checkImageFiles([png("1.png"), { name: "x.txt", type: "text/plain", size: 1 }, png("2.png"), png("3.png")], 3);
    expect(accepted.map((f) => f.name)).toEqual(["1.png", "2.png"]);
    expect(refused.map((r) => r.name)).toEqual(["x.txt", "3.png"]);
    expect(refused[1]?.message).toBe("3.png was not added: attach at most 5 images to one message");
    expect(checkImageFiles([png("6.png")], 5).accepted).toEqual([]);
  });

  it("names a pasted file without a name", () => {
    expect(checkImageFiles([{ name: "", type: "text/html", size: 3 }], 0).refused[0]?.message).toMatch(/^pasted image is a text\/html file/);
  });
});

describe("words for images", () => {
  it("formats sizes in binary units", () => {
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(4300)).toBe("4.2 KB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MB");
  });

  it("writes alt text with the position, name, format and dimensions", () => {
    expect(imageAlt({ name: "chart.png", mediaType: "image/png", width: 640, height: 480 }, 0)).toBe("Image 1: chart.png, PNG 640×480");
    expect(imageAlt({ mediaType: "image/webp", width: 1, height: 2 }, 2)).toBe("Image 3: WebP 1×2");
  });

  it("says why sending waits", () => {
    expect(imagesNotReady({ uploading: true, failed: true })).toMatch(/upload/);
    expect(imagesNotReady({ uploading: false, failed: true })).toMatch(/Remove/);
    expect(imagesNotReady({ uploading: false, failed: false })).toBeNull();
  });
});

describe("MessageImages", () => {
  const id = `img_${"a".repeat(32)}`;
  it("shows thumbnails from our origin, each linking to the original in a new tab without an opener", () => {
    const html = renderToStaticMarkup(createElement(MessageImages, { images: [{ attachmentId: id, mediaType: "image/png", width: 64, height: 48, bytes: 120, name: "<red>.png" }] }));
    expect(html).toContain(`src="/api/attachments/${id}?variant=thumbnail"`);
    expect(html).toContain(`href="/api/attachments/${id}"`);
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).toContain('alt="Image 1: &lt;red&gt;.png, PNG 64×48"');
  });

  it("renders nothing for a message without images", () => {
    expect(renderToStaticMarkup(createElement(MessageImages, { images: [] }))).toBe("");
  });
});

describe("AttachedImageRow", () => {
  it("shows a failed upload's server message and issues as an alert, with a labelled remove button", () => {
    const html = renderToStaticMarkup(
      createElement(AttachedImageRow, {
        item: { key: "k", name: "notes.png", size: 2048, previewUrl: "blob:x", status: "failed", error: { message: "Some fields are invalid", issues: ["not a PNG, JPEG, WebP or GIF image"] } },
        onRemove: () => undefined,
      }),
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain("Some fields are invalid");
    expect(html).toContain("not a PNG, JPEG, WebP or GIF image");
    expect(html).toContain('aria-label="Remove notes.png"');
    expect(html).toContain("2.0 KB");
  });

  it("shows an uploaded image's sniffed format and dimensions", () => {
    const html = renderToStaticMarkup(
      createElement(AttachedImageRow, {
        item: { key: "k", name: "red.png", size: 100, previewUrl: "blob:x", status: "uploaded", ref: { attachmentId: `img_${"b".repeat(32)}`, mediaType: "image/png", width: 64, height: 48, bytes: 100 } },
        onRemove: () => undefined,
      }),
    );
    expect(html).toContain("PNG 64×48");
    expect(html).not.toContain('role="alert"');
  });
});
