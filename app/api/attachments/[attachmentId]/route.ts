// GET /api/attachments/:attachmentId[?variant=thumbnail] – a stored image (any signed-in user):
//   the bytes with the Content-Type sniffed at upload, nosniff, a sandboxing CSP and a
//   year's private cache (an id's bytes never change); the thumbnail is WebP, at most 256 px.
//   A malformed id → 422; no such image → 404.
import { z } from "zod";
import { apiRoute, parseParam, parseQuery } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { AppError } from "@/lib/errors";
import { attachmentIdSchema } from "@/lib/attachments/schemas";
import { readStoredImage } from "@/lib/attachments/store";
import { imageHeaders } from "@/lib/attachments/server/serve";

const querySchema = z.object({ variant: z.enum(["original", "thumbnail"]).default("original") });

export const GET = apiRoute<{ attachmentId: string }>({
  permission: "read",
  handler: async ({ request, params }) => {
    const attachmentId = parseParam(attachmentIdSchema, params.attachmentId, "attachmentId");
    const { variant } = parseQuery(request, querySchema);
    const image = await readStoredImage(getDb(), attachmentId, variant);
    if (!image) throw new AppError("not_found", 404, "There is no image with that id");
    return new Response(Buffer.from(image.bytes), { status: 200, headers: imageHeaders(image, attachmentId, variant) });
  },
});
