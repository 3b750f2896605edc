import "server-only";
// The upload of one image, declared once (schema, permission, act and audit):
// `POST /api/attachments` and the run dialog's upload action are built from it.
import { getDb } from "../../db/server/db";
import { appendAudit } from "../../audit/write";
import type { SessionUser } from "../../auth/server/session";
import { operation } from "../../http/server/operation";
import { uploadImageSchema, type ImageRef } from "../schemas";
import { decodeBase64Image } from "../sources";
import { storeImage } from "../store";

/** Decodes, checks and stores one uploaded image, and audits it (its facts, never its bytes). */
export async function uploadImage(input: { data: string; name?: string }, user: SessionUser): Promise<ImageRef> {
  const db = getDb();
  const ref = await storeImage(db, decodeBase64Image(input.data, "data"), { createdBy: user.id, name: input.name, field: "data" });
  const { attachmentId, ...facts } = ref;
  await appendAudit(db, { actorId: user.id, action: "attachment.uploaded", target: attachmentId, details: facts });
  return ref;
}

/** Upload an image for a task or a follow-up: whoever may launch runs (builders, admins). */
export const uploadImageOperation = operation({
  name: "upload-image",
  permission: "runs:launch",
  input: uploadImageSchema,
  run: ({ input, user }) => uploadImage(input, user),
});
