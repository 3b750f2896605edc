// Images are judged by their bytes: each accepted type is made here with sharp,
// and everything else (a renamed file, SVG, HTML, text, a truncated or oversized
// file, a decompression bomb) is refused with a status and a path the user can act on.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { NOT_AN_IMAGE, THUMBNAIL_MAX_SIDE, dominantColour, inspectImage, sniffImageType } from "./image";
import { decodeBase64Image } from "./sources";
import { IMAGE_MAX_BYTES } from "./schemas";

type Format = "png" | "jpeg" | "webp" | "gif";

/** A noisy picture (so it does not compress to nothing) in `format`. */
function picture(format: Format, width = 300, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "black", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .toFormat(format)
    .toBuffer();
}

/** The AppError a promise rejects with (fails the test if it resolves or throws something else). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the image was accepted").toBeInstanceOf(AppError);
  return error as AppError;
}

describe("the four accepted types, by their bytes", () => {
  it.each([
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["webp", "image/webp"],
    ["gif", "image/gif"],
  ] as const)("%s is sniffed as %s, measured and given a WebP thumbnail of at most 256 px", async (format, mediaType) => {
    const bytes = await picture(format, 300, 200);
    const image = await inspectImage(bytes, "data");
    expect(image.mediaType).toBe(mediaType);
    expect({ width: image.width, height: image.height }).toEqual({ width: 300, height: 200 });
    const thumb = await sharp(image.thumbnail).metadata();
    expect(thumb.format).toBe("webp");
    expect(Math.max(thumb.width ?? 0, thumb.height ?? 0)).toBe(THUMBNAIL_MAX_SIDE);
  });

  it("a PNG sent as holiday.jpg is still a PNG: the name never decides", async () => {
    const png = await picture("png", 20, 10);
    expect(await sniffImageType(png)).toBe("image/png");
    expect((await inspectImage(png, "data")).mediaType).toBe("image/png");
  });

  it("a small image is not enlarged for its thumbnail", async () => {
    const image = await inspectImage(await picture("png", 40, 30), "data");
    expect(await sharp(image.thumbnail).metadata()).toMatchObject({ width: 40, height: 30 });
  });

  it("the dominant colour of a red image is red", async () => {
    const red = await sharp({ create: { width: 50, height: 50, channels: 3, background: { r: 220, g: 20, b: 20 } } }).png().toBuffer();
    const colour = await dominantColour(red);
    expect(Number.parseInt(colour.slice(1, 3), 16), colour).toBeGreaterThan(180);
    expect(Number.parseInt(colour.slice(3, 5), 16), colour).toBeLessThan(60);
  });
});

describe("everything else is refused", () => {
  it.each([
    ["SVG (it can carry script)", `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>`],
    ["HTML", "<!doctype html><html><body><script>alert(1)</script></body></html>"],
    ["plain text", "just some words, not a picture"],
  ])("%s: 422 with the accepted types named", async (_, text) => {
    const error = await refusal(inspectImage(new TextEncoder().encode(text), "images[1]"));
    expect(error.status).toBe(422);
    expect(error.userMessage).toBe(NOT_AN_IMAGE);
    expect(error.issues).toEqual([{ path: "images[1]", message: NOT_AN_IMAGE }]);
  });

  it("a TIFF decodes fine with sharp but is not one of the four: 422", async () => {
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: "white" } }).tiff().toBuffer();
    expect((await refusal(inspectImage(tiff, "data"))).userMessage).toBe(NOT_AN_IMAGE);
  });

  it("10 MB and one byte: 413 naming the 10 MB limit, before anything is decoded", async () => {
    const png = await picture("png", 16, 16);
    const oversize = new Uint8Array(IMAGE_MAX_BYTES + 1);
    oversize.set(png);
    const error = await refusal(inspectImage(oversize, "data"));
    expect(error.status).toBe(413);
    expect(error.code).toBe("payload_too_large");
    expect(error.userMessage).toContain("10 MB");
    expect(error.issues[0]?.path).toBe("data");
  });

  it.each(["png", "jpeg", "webp", "gif"] as const)("a truncated %s (60 percent of its bytes): 422, damaged or incomplete", async (format) => {
    const whole = await picture(format);
    const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
    expect(await sniffImageType(cut), "the header still says what it is").not.toBeNull();
    const error = await refusal(inspectImage(cut, "data"));
    expect(error.status).toBe(422);
    expect(error.userMessage).toMatch(/damaged or incomplete/);
  });

  it("a decompression bomb (a small PNG of 7,000 × 6,000 pixels) is refused from its header: 422 naming the pixel limit", async () => {
    const bomb = await sharp({ create: { width: 7000, height: 6000, channels: 3, background: "black" } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.byteLength, "small on the wire").toBeLessThan(1024 * 1024);
    const error = await refusal(inspectImage(bomb, "data"));
    expect(error.status).toBe(422);
    expect(error.userMessage).toBe("The image is 7,000 × 6,000 pixels; the limit is 40 megapixels");
  });

  it("an empty file: 422", async () => {
    expect((await refusal(inspectImage(new Uint8Array(), "data"))).status).toBe(422);
  });
});

describe("base64 input", () => {
  it("takes plain base64, a data: URL prefix and line-wrapped text alike", async () => {
    const png = await picture("png", 4, 4);
    const b64 = png.toString("base64");
    for (const text of [b64, `data:image/png;base64,${b64}`, b64.replace(/(.{76})/g, "$1\n")]) {
      expect(Buffer.from(decodeBase64Image(text, "images[0]")).equals(png)).toBe(true);
    }
  });

  it("refuses text that is not base64 with a 422 naming the index", () => {
    for (const text of ["not base64!", "data:image/png;base64,@@@@", "abcde"]) {
      let error: unknown;
      try {
        decodeBase64Image(text, "images[3]");
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(422);
      expect((error as AppError).issues[0]?.path).toBe("images[3]");
    }
  });
});
