import "server-only";
// How a stored image is answered to the browser: with the type sniffed when it
// was stored (never one derived from its name), and headers that keep the
// browser from reading it as anything else or running anything in it.
import type { ImageMediaType } from "../schemas";
import { ATTACHMENT_CONTENT_SECURITY_POLICY } from "../../http/security-headers";

const EXTENSION: Record<ImageMediaType, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };

/**
 * `inline` with a filename that cannot break the header or name a path: the
 * uploaded name's stem (control characters, quotes, slashes and the like
 * removed; ASCII in `filename`, UTF-8 in `filename*`) with the extension of the
 * sniffed type, so a PNG uploaded as `x.html` is saved as `x.png`.
 */
export function contentDisposition(name: string | null, fallback: string, mediaType: ImageMediaType, suffix = ""): string {
  const stem = (name ?? "")
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|;%]/g, "")
    .trim()
    .slice(0, 100);
  const file = `${stem || fallback}${suffix}.${EXTENSION[mediaType]}`;
  const ascii = file.replace(/[^\x20-\x7e]/g, "_");
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file)}`;
}

/** The headers of an image response (see the GET route). */
export function imageHeaders(image: { bytes: Uint8Array; mediaType: ImageMediaType; name: string | null }, attachmentId: string, variant: "original" | "thumbnail"): Record<string, string> {
  return {
    "Content-Type": image.mediaType,
    "Content-Length": String(image.bytes.byteLength),
    "X-Content-Type-Options": "nosniff",
    "Content-Disposition": contentDisposition(image.name, attachmentId, image.mediaType, variant === "thumbnail" ? "-thumbnail" : ""),
    // Attachments never change (a new upload is a new id), and only signed-in users may have them.
    "Cache-Control": "private, max-age=31536000, immutable",
    // Opened on its own, the response can run nothing and load nothing.
    "Content-Security-Policy": ATTACHMENT_CONTENT_SECURITY_POLICY,
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}
