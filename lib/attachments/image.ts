// What an image is, decided by its bytes: the type (sniffed by file-type, never
// taken from a name or a header), whether it decodes whole, its dimensions and
// a small thumbnail (sharp, libvips shipped inside the npm package). Node code
// shared by the web server, scripts and the worker; no `server-only`.
import sharp, { type Metadata } from "sharp";
import { fileTypeFromBuffer } from "file-type";
import { AppError, ValidationError } from "../errors";
import { IMAGE_MAX_BYTES, type ImageMediaType } from "./schemas";

/** Largest image decoded, in pixels: a few-KB PNG can claim 50,000 × 50,000 (a decompression bomb). */
export const IMAGE_MAX_PIXELS = 40_000_000;
/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_MAX_SIDE = 256;
/** Thumbnails are always WebP (small, and every browser shows it). */
export const THUMBNAIL_MEDIA_TYPE: ImageMediaType = "image/webp";

export const NOT_AN_IMAGE = "Only PNG, JPEG, WebP and GIF images are accepted; this file is not one of them";
const UNREADABLE = "The image could not be read: it is damaged or incomplete";

// file-type names APNG apart; an animated PNG is a PNG to every browser.
const SNIFFED: Record<string, ImageMediaType> = {
  "image/png": "image/png",
  "image/apng": "image/png",
  "image/jpeg": "image/jpeg",
  "image/webp": "image/webp",
  "image/gif": "image/gif",
};
// What sharp calls each accepted type: a file must decode as the type its bytes announce.
const SHARP_FORMAT: Record<ImageMediaType, string> = { "image/png": "png", "image/jpeg": "jpeg", "image/webp": "webp", "image/gif": "gif" };

/** A 422 about the image in `field` (`data`, `images[2]`): the message is on the issue and the error alike. */
export function invalidImage(field: string, message: string): ValidationError {
  return new ValidationError([{ path: field, message }], message);
}

/** A size as people read it: MB, or exact bytes when rounding would hide that it is over the limit. */
function describeSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb < 10.05 ? `${bytes.toLocaleString("en")} bytes` : `${mb.toFixed(1).replace(/\.0$/, "")} MB`;
}

/** A 413 naming the 10 MB limit and, when known, the image's size. */
export function imageTooLarge(field: string, bytes: number | null): AppError {
  const limit = `10 MB (${IMAGE_MAX_BYTES.toLocaleString("en")} bytes)`;
  const message = bytes === null ? `The image is larger than the limit of ${limit}` : `The image is ${describeSize(bytes)}; the limit is ${limit}`;
  return new AppError("payload_too_large", 413, message, [{ path: field, message }]);
}

/** The accepted type the bytes are, or null (SVG, HTML, text, TIFF, AVIF… are all null). */
export async function sniffImageType(bytes: Uint8Array): Promise<ImageMediaType | null> {
  const found = await fileTypeFromBuffer(bytes);
  return (found && SNIFFED[found.mime]) ?? null;
}

export interface InspectedImage {
  mediaType: ImageMediaType;
  /** As a browser shows it (EXIF orientation applied; the first frame of an animation). */
  width: number;
  height: number;
  /** WebP, at most THUMBNAIL_MAX_SIDE a side, never enlarged. */
  thumbnail: Buffer;
}

/**
 * Checks one image and makes its thumbnail: at most 10 MB (413), one of the four
 * types by its bytes, at most IMAGE_MAX_PIXELS, decodable to the end (422 each,
 * naming `field`). Decoding the whole image for the thumbnail is what finds a
 * truncated or corrupt file: sharp fails on libvips warnings by default.
 */
export async function inspectImage(bytes: Uint8Array, field: string): Promise<InspectedImage> {
  if (bytes.byteLength === 0) throw invalidImage(field, "The image is empty");
  if (bytes.byteLength > IMAGE_MAX_BYTES) throw imageTooLarge(field, bytes.byteLength);
  const mediaType = await sniffImageType(bytes);
  if (!mediaType) throw invalidImage(field, NOT_AN_IMAGE);

  let metadata: Metadata;
  try {
    // The header only: no pixels are decoded yet, so the size can be checked first.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidImage(field, UNREADABLE);
  }
  if (metadata.format !== SHARP_FORMAT[mediaType] || !metadata.width || !metadata.height) throw invalidImage(field, UNREADABLE);
  const frameHeight = metadata.pageHeight ?? metadata.height;
  if (metadata.width * frameHeight > IMAGE_MAX_PIXELS) {
    throw invalidImage(field, `The image is ${metadata.width.toLocaleString("en")} × ${frameHeight.toLocaleString("en")} pixels; the limit is ${IMAGE_MAX_PIXELS / 1_000_000} megapixels`);
  }
  // Only the first frame of an animation is read (sharp's default), so its size is the image's.
  const oriented = metadata.autoOrient ?? { width: metadata.width, height: frameHeight };

  let thumbnail: Buffer;
  try {
    thumbnail = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
      .rotate()
      .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw invalidImage(field, UNREADABLE);
  }
  return { mediaType, width: oriented.width, height: oriented.height, thumbnail };
}

/** The image's dominant colour as `#rrggbb` (sharp's stats over a small copy), for a model that describes what it can know offline. */
export async function dominantColour(bytes: Uint8Array): Promise<string> {
  const small = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS }).resize(64, 64, { fit: "inside" }).toBuffer();
  const { dominant } = await sharp(small).stats();
  return `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}
