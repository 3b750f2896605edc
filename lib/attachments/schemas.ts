// Browser-safe contract of image attachments (issue 17 §4): what a task or a
// follow-up may carry besides its text, the limits the dialog and the routes
// share, and the reference that travels through workflows. The bytes never do:
// they are stored once (a claim check, lib/attachments/server) and the workflow,
// its history and the run ledger hold only an `ImageRef`.
import { z } from "zod";

/** The image types a message may carry, checked by their bytes (never by a name or a header). */
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** At most 10 MB (10 × 1024 × 1024 bytes) an image. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** At most 5 images a message (the task or one follow-up). */
export const IMAGES_PER_MESSAGE = 5;
/** Base64 of IMAGE_MAX_BYTES is 4/3 as long (plus padding): the longest `data` string worth decoding. */
export const IMAGE_MAX_BASE64_CHARS = Math.ceil(IMAGE_MAX_BYTES / 3) * 4 + 64;

/** An attachment's id: `img_` and 32 URL-safe characters (random, so ids cannot be guessed or enumerated). */
export const ATTACHMENT_ID_PATTERN = /^img_[A-Za-z0-9_-]{32}$/;
export const attachmentIdSchema = z.string().regex(ATTACHMENT_ID_PATTERN, "not an image id (img_…)");

/**
 * What the workflow, the run ledger and the browser know of a stored image.
 * Small and immutable: it is copied into workflow inputs, signals and messages.
 */
export interface ImageRef {
  attachmentId: string;
  /** Sniffed from the bytes. */
  mediaType: ImageMediaType;
  width: number;
  height: number;
  bytes: number;
  /** The file's name as uploaded (display only; never used to decide the type). */
  name?: string;
}

/**
 * One image as a door receives it: already uploaded (`attachmentId`, what the
 * dialog sends after `POST /api/attachments`), inline base64 (`data`, with or
 * without a `data:image/…;base64,` prefix), or a public `https`/`http` URL the
 * server fetches through the egress guard. Strict: unknown keys are refused.
 */
export const imageInputSchema = z.union([
  z.strictObject({ attachmentId: attachmentIdSchema }),
  z.strictObject({
    data: z.string().min(1, "the image is empty").max(IMAGE_MAX_BASE64_CHARS, "the image is over 10 MB"),
    name: z.string().trim().min(1).max(200).optional(),
  }),
  z.strictObject({ url: z.url({ protocol: /^https?$/, error: "use an http or https URL" }).max(2048) }),
]);
export type ImageInput = z.infer<typeof imageInputSchema>;

/** The `images` field of a launch or a follow-up: at most 5. */
export const imageInputsSchema = z.array(imageInputSchema).max(IMAGES_PER_MESSAGE, `attach at most ${IMAGES_PER_MESSAGE} images to one message`);

/** `POST /api/attachments` and the dialog's upload action: one image as base64. */
export const uploadImageSchema = z.strictObject({
  data: z.string().min(1, "the image is empty").max(IMAGE_MAX_BASE64_CHARS, "the image is over 10 MB"),
  name: z.string().trim().min(1).max(200).optional(),
});

/** Where the browser reads an image back (signed-in users only; same origin). */
export function attachmentUrl(attachmentId: string, variant: "original" | "thumbnail" = "original"): string {
  return `/api/attachments/${encodeURIComponent(attachmentId)}${variant === "thumbnail" ? "?variant=thumbnail" : ""}`;
}

/** The body cap of `POST /api/attachments` (and of a server action carrying one upload): the base64 of 10 MB plus room for the JSON and the name. */
export const UPLOAD_MAX_BODY_BYTES = IMAGE_MAX_BASE64_CHARS + 16 * 1024;
