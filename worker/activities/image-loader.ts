// The bytes of the images a model call sees, loaded from the attachment store
// just before the call (the workflow and the run ledger hold only ImageRefs).
// A small per-process cache keeps a run's images across its iterations.
import type { ChatMessage } from "../../lib/contract/types";
import type { Db } from "../../lib/db/prisma";
import type { ImageMediaType } from "../../lib/attachments/schemas";
import { readImage } from "../../lib/attachments/store";
import type { InferenceMessage, LoadedImage } from "../models/types";

/** An image a message refers to is no longer stored (deleted): retrying cannot bring it back. */
export class MissingImageError extends Error {
  constructor(readonly attachmentId: string) {
    super(`image ${attachmentId} of the conversation is no longer stored (it was deleted), so the model cannot read it`);
    this.name = "MissingImageError";
  }
}

interface Stored {
  bytes: Uint8Array;
  mediaType: ImageMediaType;
}

/**
 * Image bytes by attachment id, least recently used first out, bounded by
 * total bytes. Stored images never change (written once), so an entry is never stale.
 */
export class ImageCache {
  private readonly entries = new Map<string, Stored>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(attachmentId: string): Stored | undefined {
    const entry = this.entries.get(attachmentId);
    if (!entry) return undefined;
    this.entries.delete(attachmentId);
    this.entries.set(attachmentId, entry);
    return entry;
  }

  set(attachmentId: string, entry: Stored): void {
    if (this.entries.has(attachmentId) || entry.bytes.byteLength > this.maxBytes / 4) return;
    this.entries.set(attachmentId, entry);
    this.bytes += entry.bytes.byteLength;
    for (const [key, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= old.bytes.byteLength;
    }
  }
}

/**
 * The messages with the bytes of every user message's images (`imageData`, in
 * the order of `images`); messages without images are returned as they are.
 * Throws MissingImageError when an image is gone.
 */
export async function withImageData(db: Db, cache: ImageCache, messages: readonly ChatMessage[]): Promise<InferenceMessage[]> {
  const load = async (attachmentId: string): Promise<Stored> => {
    const cached = cache.get(attachmentId);
    if (cached) return cached;
    const stored = await readImage(db, attachmentId, "original");
    if (!stored) throw new MissingImageError(attachmentId);
    cache.set(attachmentId, stored);
    return stored;
  };
  return Promise.all(
    messages.map(async (message): Promise<InferenceMessage> => {
      if (message.role !== "user" || !message.images?.length) return message;
      const imageData = await Promise.all(message.images.map(async (ref): Promise<LoadedImage> => ({ ref, ...(await load(ref.attachmentId)) })));
      return { ...message, imageData };
    }),
  );
}
