// A sent message's images as thumbnails, each a link to the original in a new
// tab. Both come from our own origin (signed-in users only), which the CSP's
// img-src 'self' allows; the alt text says what the engine knows of each image.
import type { ImageRef } from "@/lib/attachments/schemas";
import { attachmentUrl } from "@/lib/attachments/schemas";
import { imageAlt } from "./image-checks";

export function MessageImages({ images }: { images: readonly ImageRef[] }) {
  if (!images.length) return null;
  return (
    <ul aria-label="Images" className="mt-2 flex flex-wrap gap-2">
      {images.map((image, i) => (
        <li key={`${i}:${image.attachmentId}`}>
          <a href={attachmentUrl(image.attachmentId, "original")} target="_blank" rel="noopener noreferrer" className="block rounded ring-1 ring-indigo-200 hover:ring-2 hover:ring-indigo-500" title={`Open ${image.name ?? `image ${i + 1}`} in a new tab`}>
            {/* Served by our API with the session cookie; next/image's optimiser would fetch it without one. */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img data-testid="message-image" src={attachmentUrl(image.attachmentId, "thumbnail")} alt={imageAlt(image, i)} className="h-24 max-w-[12rem] rounded object-contain" />
          </a>
        </li>
      ))}
    </ul>
  );
}
