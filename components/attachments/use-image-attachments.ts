"use client";
// The images of one message being written (the run dialog's task, a
// follow-up): each chosen, dropped or pasted file is checked, previewed from
// its own bytes (a blob: URL, allowed by the CSP's img-src) and uploaded at
// once, so sending carries only attachment ids. Removing an image or closing
// the form aborts its upload and frees its preview.
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type DragEvent } from "react";
import { attachmentUrl, type ImageRef } from "@/lib/attachments/schemas";
import { ApiError } from "@/lib/http/client";
import { checkImageFiles, type Refusal } from "./image-checks";
import { uploadImage } from "./upload-image";

export interface AttachedImage {
  key: string;
  name: string;
  size: number;
  /** A blob: URL of the file itself, shown before (and whether or not) the upload succeeds. */
  previewUrl: string;
  status: "uploading" | "uploaded" | "failed";
  ref?: ImageRef;
  error?: { message: string; issues: string[] };
}

export interface ImageAttachments {
  items: readonly AttachedImage[];
  /** Files the quick checks refused on the last add, each with its reason. */
  refused: readonly Refusal[];
  add: (files: readonly File[]) => void;
  remove: (key: string) => void;
  /** Forgets every image (after the message was sent). */
  clear: () => void;
  uploading: boolean;
  failed: boolean;
  /** What the launch or follow-up sends: the uploaded images by id. */
  inputs: { attachmentId: string }[];
  /** Spread on the form that accepts dropped and pasted images. */
  dropTarget: {
    onDragOver: (event: DragEvent) => void;
    onDragLeave: (event: DragEvent) => void;
    onDrop: (event: DragEvent) => void;
    onPaste: (event: ClipboardEvent) => void;
  };
  /** True while files are dragged over the form (for a visual cue). */
  dragging: boolean;
}

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes("Files");
}

/** Stored images shown as already uploaded: their preview is the stored thumbnail, not a blob. */
function storedItems(images: readonly ImageRef[]): AttachedImage[] {
  return images.map((ref, i) => ({ key: `stored-${i}`, name: ref.name ?? `image ${i + 1}`, size: ref.bytes, previewUrl: attachmentUrl(ref.attachmentId, "thumbnail"), status: "uploaded", ref }));
}

/** `initial`: images already stored (a Re-run's), attached as uploaded. */
export function useImageAttachments(initial: readonly ImageRef[] = []): ImageAttachments {
  const [items, setItems] = useState<readonly AttachedImage[]>(() => storedItems(initial));
  const [refused, setRefused] = useState<readonly Refusal[]>([]);
  const [dragging, setDragging] = useState(false);
  // The list as of the last change, read synchronously by add() (two quick adds must both count) and by the unmount cleanup.
  const current = useRef<readonly AttachedImage[]>(items);
  const controllers = useRef(new Map<string, AbortController>());
  const nextKey = useRef(0);

  const commit = useCallback((change: (list: readonly AttachedImage[]) => readonly AttachedImage[]) => {
    current.current = change(current.current);
    setItems(current.current);
  }, []);
  const update = useCallback((key: string, patch: Partial<AttachedImage>) => commit((list) => list.map((item) => (item.key === key ? { ...item, ...patch } : item))), [commit]);

  const add = useCallback(
    (files: readonly File[]) => {
      const { accepted, refused: refusedNow } = checkImageFiles(files, current.current.length);
      setRefused(refusedNow);
      for (const file of accepted) {
        const key = `image-${nextKey.current++}`;
        const controller = new AbortController();
        controllers.current.set(key, controller);
        commit((list) => [...list, { key, name: file.name || "pasted image", size: file.size, previewUrl: URL.createObjectURL(file), status: "uploading" }]);
        uploadImage(file, controller.signal).then(
          (ref) => update(key, { status: "uploaded", ref }),
          (error: unknown) => {
            if (controller.signal.aborted) return;
            const message = error instanceof ApiError ? error.message : "Could not upload the image";
            // The server's message often is its one issue's: each sentence is shown once.
            const issues = error instanceof ApiError ? error.issues.map((issue) => issue.message).filter((m) => m !== message) : [];
            update(key, { status: "failed", error: { message, issues } });
          },
        ).finally(() => controllers.current.delete(key));
      }
    },
    [commit, update],
  );

  const drop = useCallback((item: AttachedImage) => {
    controllers.current.get(item.key)?.abort();
    controllers.current.delete(item.key);
    if (item.previewUrl.startsWith("blob:")) URL.revokeObjectURL(item.previewUrl);
  }, []);

  const remove = useCallback(
    (key: string) => {
      const item = current.current.find((i) => i.key === key);
      if (item) drop(item);
      commit((list) => list.filter((i) => i.key !== key));
      setRefused([]);
    },
    [commit, drop],
  );

  const clear = useCallback(() => {
    current.current.forEach(drop);
    commit(() => []);
    setRefused([]);
  }, [commit, drop]);

  useEffect(() => () => current.current.forEach(drop), [drop]);

  const dropTarget: ImageAttachments["dropTarget"] = {
    onDragOver: (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
      setDragging(true);
    },
    onDragLeave: (event) => {
      // Leaving for a child of the form is not leaving the form.
      if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
      setDragging(false);
    },
    onDrop: (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      add(Array.from(event.dataTransfer.files));
    },
    onPaste: (event) => {
      // Office apps put a picture of copied text beside the text: text on the clipboard is pasted as text.
      const files = Array.from(event.clipboardData.files);
      if (!files.length || event.clipboardData.types.includes("text/plain")) return;
      event.preventDefault();
      add(files);
    },
  };

  return {
    items,
    refused,
    add,
    remove,
    clear,
    uploading: items.some((i) => i.status === "uploading"),
    failed: items.some((i) => i.status === "failed"),
    inputs: items.flatMap((i) => (i.ref ? [{ attachmentId: i.ref.attachmentId }] : [])),
    dropTarget,
    dragging,
  };
}
