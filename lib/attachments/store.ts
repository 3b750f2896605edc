// The attachment store (claim check): image bytes live in the `attachments`
// table, written once; workflows, signals and the run ledger carry only the
// ImageRef. Node code shared by the engine client (web server, scripts) and the
// worker's inference activity, so no `server-only` here. The one writer and the
// one reader of that table.
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/prisma";
import { formatPath } from "../errors";
import { THUMBNAIL_MEDIA_TYPE, inspectImage, invalidImage } from "./image";
import { decodeBase64Image, fetchImageBytes, type FetchImageOptions } from "./sources";
import { ATTACHMENT_ID_PATTERN, IMAGE_MEDIA_TYPES, type ImageInput, type ImageMediaType, type ImageRef } from "./schemas";

export interface StoreContext {
  /** Who sent the image (the audit trail and the row's owner); null for scripts. */
  createdBy: string | null;
}

export interface StoreImageOptions extends StoreContext {
  name?: string;
  /** The input field the bytes came from, named by every error (default `data`, the upload's field). */
  field?: string;
}

export interface ResolveImageOptions extends StoreContext, FetchImageOptions {
  /** The path of the input list (default `["images"]`): errors name `images[2]`. */
  path?: readonly PropertyKey[];
}

/** A fresh attachment id: `img_` and 24 random bytes as base64url (32 characters). */
export function newAttachmentId(): string {
  return `img_${randomBytes(24).toString("base64url")}`;
}

const REF_COLUMNS = { id: true, mediaType: true, width: true, height: true, bytes: true, name: true } as const;

function isImageMediaType(value: string): value is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(value);
}

function toRef(row: { id: string; mediaType: string; width: number; height: number; bytes: number; name: string | null }): ImageRef {
  // Only storeImage writes rows, with a sniffed type; anything else is a damaged row.
  if (!isImageMediaType(row.mediaType)) throw new Error(`attachment ${row.id} has an unexpected media type`);
  return { attachmentId: row.id, mediaType: row.mediaType, width: row.width, height: row.height, bytes: row.bytes, ...(row.name ? { name: row.name } : {}) };
}

/** Sniffs, checks (type, 10 MB, 40 MP, decodes whole), measures and stores one image; 422/413 AppErrors name `options.field`. */
export async function storeImage(db: Db, bytes: Uint8Array, options: StoreImageOptions): Promise<ImageRef> {
  const image = await inspectImage(bytes, options.field ?? "data");
  const name = options.name?.trim().slice(0, 200) || null;
  const row = await db.attachment.create({
    data: {
      id: newAttachmentId(),
      mediaType: image.mediaType,
      bytes: bytes.byteLength,
      width: image.width,
      height: image.height,
      name,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      data: new Uint8Array(bytes),
      thumbnail: new Uint8Array(image.thumbnail),
      createdBy: options.createdBy,
    },
    select: REF_COLUMNS,
  });
  return toRef(row);
}

/** The ImageRef of a stored image, or null when there is none with that id. */
export async function getImageRef(db: Db, attachmentId: string): Promise<ImageRef | null> {
  if (!ATTACHMENT_ID_PATTERN.test(attachmentId)) return null;
  const row = await db.attachment.findUnique({ where: { id: attachmentId }, select: REF_COLUMNS });
  return row ? toRef(row) : null;
}

/** The last segment of a URL's path, as a display name (undefined when there is none). */
function nameFromUrl(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).pop();
    return last ? decodeURIComponent(last).slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns a door's image inputs (ids, base64, URLs) into stored ImageRefs, in
 * order. Every error names the input's path (`images[2]`): an unknown id, bad
 * base64, a refused or failing URL, or an image the store refuses.
 */
export async function resolveImageInputs(db: Db, inputs: readonly ImageInput[], options: ResolveImageOptions): Promise<ImageRef[]> {
  const refs: ImageRef[] = [];
  for (const [index, input] of inputs.entries()) {
    const field = formatPath([...(options.path ?? ["images"]), index]);
    if ("attachmentId" in input) {
      const ref = await getImageRef(db, input.attachmentId);
      if (!ref) throw invalidImage(field, "There is no uploaded image with that id");
      refs.push(ref);
    } else if ("data" in input) {
      refs.push(await storeImage(db, decodeBase64Image(input.data, field), { createdBy: options.createdBy, name: input.name, field }));
    } else {
      const bytes = await fetchImageBytes(input.url, field, options);
      refs.push(await storeImage(db, bytes, { createdBy: options.createdBy, name: nameFromUrl(input.url), field }));
    }
  }
  return refs;
}

export interface StoredImage {
  bytes: Uint8Array;
  mediaType: ImageMediaType;
  /** The name as uploaded, if any (display only). */
  name: string | null;
}

/** The stored bytes of an image (the original or its WebP thumbnail) with its name, or null when there is no such image. */
export async function readStoredImage(db: Db, attachmentId: string, variant: "original" | "thumbnail" = "original"): Promise<StoredImage | null> {
  if (!ATTACHMENT_ID_PATTERN.test(attachmentId)) return null;
  const thumbnail = variant === "thumbnail";
  const row = await db.attachment.findUnique({ where: { id: attachmentId }, select: { name: true, mediaType: true, data: !thumbnail, thumbnail } });
  if (!row) return null;
  if (!isImageMediaType(row.mediaType)) throw new Error(`attachment ${attachmentId} has an unexpected media type`);
  const bytes = thumbnail ? row.thumbnail : row.data;
  if (!bytes) return null;
  return { bytes, mediaType: thumbnail ? THUMBNAIL_MEDIA_TYPE : row.mediaType, name: row.name };
}

/** The stored bytes of an image (the original or its WebP thumbnail), or null when there is no such image. */
export async function readImage(db: Db, attachmentId: string, variant: "original" | "thumbnail" = "original"): Promise<{ bytes: Uint8Array; mediaType: ImageMediaType } | null> {
  const image = await readStoredImage(db, attachmentId, variant);
  return image && { bytes: image.bytes, mediaType: image.mediaType };
}
