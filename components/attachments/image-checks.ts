// The picker's quick checks before an upload, and the words the app uses for an
// image. The checks go by the browser's idea of a file (its type and size), so
// they only spare a pointless upload: the server still sniffs the bytes and
// decides (a text file named .png passes here and is refused there).
import { IMAGE_MAX_BYTES, IMAGE_MEDIA_TYPES, IMAGES_PER_MESSAGE, type ImageMediaType, type ImageRef } from "@/lib/attachments/schemas";

/** What the checks read of a `File` (plain objects in tests). */
export interface FileFacts {
  name: string;
  type: string;
  size: number;
}

export interface Refusal {
  name: string;
  message: string;
}

/** The `accept` attribute of the file input. */
export const IMAGE_ACCEPT = IMAGE_MEDIA_TYPES.join(",");

const FORMAT_LABELS: Record<ImageMediaType, string> = { "image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WebP", "image/gif": "GIF" };

/** "PNG" for image/png; the type itself for anything else. */
export function formatLabel(mediaType: string): string {
  return (FORMAT_LABELS as Record<string, string>)[mediaType] ?? mediaType;
}

function isImageMediaType(type: string): type is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(type);
}

/** "812 B", "4.2 KB", "9.8 MB" (binary units, as the 10 MB limit is). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Splits newly chosen files into those worth uploading and those refused, with
 * a message naming the file and the rule. `held` is how many images the
 * message already carries: beyond IMAGES_PER_MESSAGE the later files are refused.
 */
export function checkImageFiles<F extends FileFacts>(files: readonly F[], held: number): { accepted: F[]; refused: Refusal[] } {
  const accepted: F[] = [];
  const refused: Refusal[] = [];
  for (const file of files) {
    const name = file.name || "pasted image";
    if (!isImageMediaType(file.type)) {
      const what = file.type ? `a ${file.type} file` : "a file of unknown type";
      refused.push({ name, message: `${name} is ${what}: attach PNG, JPEG, WebP or GIF images` });
    } else if (file.size === 0) {
      refused.push({ name, message: `${name} is empty` });
    } else if (file.size > IMAGE_MAX_BYTES) {
      refused.push({ name, message: `${name} is ${formatBytes(file.size)}: an image may be at most 10 MB` });
    } else if (held + accepted.length >= IMAGES_PER_MESSAGE) {
      refused.push({ name, message: `${name} was not added: attach at most ${IMAGES_PER_MESSAGE} images to one message` });
    } else accepted.push(file);
  }
  return { accepted, refused };
}

/** The alt text of a stored image: "Image 1: chart.png, PNG 640×480". */
export function imageAlt(ref: Pick<ImageRef, "name" | "mediaType" | "width" | "height">, index: number): string {
  const facts = `${formatLabel(ref.mediaType)} ${ref.width}×${ref.height}`;
  return `Image ${index + 1}: ${ref.name ? `${ref.name}, ` : ""}${facts}`;
}
