"use client";
// The "Attach images" control of a message: the button opens the file chooser
// (dropping and pasting onto the surrounding form go through the same hook),
// then each image is listed with its preview, name, size, upload state and a
// remove button. Refusals, the picker's and the server's, are alerts.
import { useId, useRef } from "react";
import { Button } from "@/components/ui/button";
import { IMAGES_PER_MESSAGE } from "@/lib/attachments/schemas";
import { IMAGE_ACCEPT, formatBytes, formatLabel } from "./image-checks";
import type { AttachedImage, ImageAttachments } from "./use-image-attachments";

function StatusLine({ item }: { item: AttachedImage }) {
  if (item.status === "uploading") return <span className="text-zinc-500">uploading…</span>;
  if (item.status === "uploaded" && item.ref)
    return (
      <span className="text-emerald-700">
        {formatLabel(item.ref.mediaType)} {item.ref.width}×{item.ref.height}
      </span>
    );
  return null;
}

/** One attached image: preview, name, size, state, remove; a failed upload says why and is not sent. */
export function AttachedImageRow({ item, onRemove }: { item: AttachedImage; onRemove: (key: string) => void }) {
  return (
    <li data-testid="attached-image" data-status={item.status} className="flex items-start gap-3 rounded-md border border-zinc-200 bg-zinc-50 p-2">
      {/* A blob: URL of the local file; next/image cannot optimise it. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img src={item.previewUrl} alt={`Preview of ${item.name}`} className="h-12 w-12 shrink-0 rounded object-cover ring-1 ring-zinc-200" />
      <div className="min-w-0 flex-1 text-xs">
        <p className="truncate font-medium text-zinc-900" title={item.name}>
          {item.name}
        </p>
        <p className="text-zinc-600">
          {formatBytes(item.size)} · <StatusLine item={item} />
        </p>
        {item.error ? (
          <div role="alert" className="mt-1 text-red-700">
            <p>{item.error.message}</p>
            {item.error.issues.length ? (
              <ul className="list-disc pl-4">
                {item.error.issues.map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </div>
      <button type="button" aria-label={`Remove ${item.name}`} onClick={() => onRemove(item.key)} className="rounded px-2 py-1 text-xs text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900">
        Remove
      </button>
    </li>
  );
}

/** The picker for one message; `attachments` comes from `useImageAttachments()` in the form that sends it. */
export function ImagePicker({ attachments, disabled = false }: { attachments: ImageAttachments; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const { items, refused, add, remove } = attachments;
  const full = items.length >= IMAGES_PER_MESSAGE;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="secondary" className="px-3 py-1.5" aria-describedby={hintId} disabled={disabled || full} onClick={() => input.current?.click()}>
          Attach images
        </Button>
        <span id={hintId} className="text-xs text-zinc-500">
          PNG, JPEG, WebP or GIF, up to 10 MB each, at most {IMAGES_PER_MESSAGE}; or drop or paste them here.
        </span>
        <input
          ref={input}
          type="file"
          accept={IMAGE_ACCEPT}
          multiple
          hidden
          data-testid="image-file-input"
          onChange={(event) => {
            add(Array.from(event.target.files ?? []));
            // Choosing the same file again must fire a change.
            event.target.value = "";
          }}
        />
      </div>
      {refused.length ? (
        <div role="alert" data-testid="image-refusals" className="rounded-md bg-red-50 p-2 text-xs text-red-700">
          {refused.length === 1 ? (
            <p>{refused[0]?.message}</p>
          ) : (
            <ul className="list-disc pl-4">
              {refused.map((r, i) => (
                <li key={`${i}:${r.name}`}>{r.message}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      {items.length ? (
        <ul aria-label="Attached images" className="space-y-2">
          {items.map((item) => (
            <AttachedImageRow key={item.key} item={item} onRemove={remove} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Why sending waits, or null when the images are ready. */
export function imagesNotReady(attachments: Pick<ImageAttachments, "uploading" | "failed">): string | null {
  if (attachments.uploading) return "Waiting for the images to upload…";
  if (attachments.failed) return "Remove the images that could not be uploaded.";
  return null;
}
