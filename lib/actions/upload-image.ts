"use server";
import { operationAction } from "../http/server/operation-adapters";
import { uploadImageOperation } from "../attachments/server/operations";

/** Builders and admins upload one image (base64) for the run dialog or a follow-up; answers its ImageRef (audited). */
export const uploadImageAction = operationAction(uploadImageOperation);
