// POST /api/attachments – upload one image for a task or a follow-up (builders and admins):
//   { data: base64 (a data:image/…;base64, prefix allowed), name? } → 201 ImageRef
//   { attachmentId, mediaType, width, height, bytes, name? }. PNG, JPEG, WebP or GIF by
//   their bytes, else 422; over 10 MB → 413. Send the attachmentId in `images` of a run or a follow-up.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { uploadImageOperation } from "@/lib/attachments/server/operations";
import { UPLOAD_MAX_BODY_BYTES } from "@/lib/attachments/schemas";

export const POST = operationRoute(uploadImageOperation, { status: 201, maxBodyBytes: UPLOAD_MAX_BODY_BYTES });
