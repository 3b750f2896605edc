// The attachment store (claim check): image bytes live in the `attachments`
// table, written once; workflows, signals and the run ledger carry only the
// ImageRef. Node code shared by the engine client (web server, scripts) and the
// worker's inference activity, so no `server-only` here.
// STUB — replaced by the storage implementation (issue 17 §4).
import type { Db } from "../db/prisma";
import type { ImageInput, ImageMediaType, ImageRef } from "./schemas";

export interface StoreContext {
  /** Who sent the image (the audit trail and the row's owner); null for scripts. */
  createdBy: string | null;
}

/** Sniffs, checks (type, 10 MB), measures and stores one image; 422/413 AppErrors name what is wrong. */
export async function storeImage(db: Db, bytes: Uint8Array, options: StoreContext & { name?: string }): Promise<ImageRef> {
  void db;
  void bytes;
  void options;
  throw new Error("not implemented");
}

/** Turns a door's image inputs (ids, base64, URLs) into stored ImageRefs, in order; unknown ids are a 422 naming the index. */
export async function resolveImageInputs(db: Db, inputs: readonly ImageInput[], options: StoreContext): Promise<ImageRef[]> {
  void db;
  void inputs;
  void options;
  throw new Error("not implemented");
}

/** The stored bytes of an image (the original or its thumbnail), or null when there is no such image. */
export async function readImage(db: Db, attachmentId: string, variant: "original" | "thumbnail" = "original"): Promise<{ bytes: Uint8Array; mediaType: ImageMediaType } | null> {
  void db;
  void attachmentId;
  void variant;
  throw new Error("not implemented");
}
