// One image to `POST /api/attachments` as base64 JSON (the API's one body type),
// answered with the stored image's reference. Failures carry the server's own
// words from the app's error envelope, as lib/http/client.ts does for reads.
import { z } from "zod";
import { ApiError } from "@/lib/http/client";
import { IMAGE_MEDIA_TYPES, attachmentIdSchema, type ImageRef } from "@/lib/attachments/schemas";
import type { FieldIssue } from "@/lib/errors";

// The answer is checked before it is trusted: a proxy's page or a changed route must not become an ImageRef.
const imageRefSchema = z.object({
  attachmentId: attachmentIdSchema,
  mediaType: z.enum(IMAGE_MEDIA_TYPES),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
  name: z.string().optional(),
});

const envelopeSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});

/** The file's bytes as base64, without the `data:…;base64,` prefix. */
export function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === "string" ? reader.result : "";
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(new ApiError(0, null, "Could not read the file"));
    reader.readAsDataURL(file);
  });
}

function failure(status: number, body: unknown): ApiError {
  const envelope = envelopeSchema.safeParse(body);
  if (envelope.success) {
    const issues: FieldIssue[] = envelope.data.error.issues ?? [];
    return new ApiError(status, envelope.data.error.code as ApiError["code"], envelope.data.error.message, issues);
  }
  if (status === 413) return new ApiError(status, "payload_too_large", "The image is too large for the server (413)");
  return new ApiError(status, null, `Could not upload the image (${status})`);
}

/** Uploads one image; resolves to its reference or rejects with an ApiError holding the server's message. */
export async function uploadImage(file: File, signal?: AbortSignal): Promise<ImageRef> {
  const data = await readAsBase64(file);
  let response: Response;
  try {
    response = await fetch("/api/attachments", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ data, ...(file.name ? { name: file.name.slice(0, 200) } : {}) }),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, null, "Could not upload the image: the server did not answer");
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw failure(response.status, body);
  const ref = imageRefSchema.safeParse(body);
  if (!ref.success) throw new ApiError(response.status, null, "Could not upload the image: the answer was not an image reference");
  return ref.data;
}
