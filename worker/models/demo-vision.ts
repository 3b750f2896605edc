// The demo catalogue's vision model (`demo/vision`): offline and deterministic,
// it reports what it can know of each image from its bytes — the format, the
// dimensions and the dominant colour — so tests and the demo exercise the
// whole image path (upload, claim check, loading, the provider's input) with
// no provider account.
import sharp from "sharp";
import { ModelCallError, type LoadedImage } from "./types";

/** The model name (after `demo/`) that reads images. */
export const DEMO_VISION_MODEL_NAME = "vision";

/** Tokens an image counts as in the demo model's usage (a flat, deterministic figure). */
export const DEMO_IMAGE_TOKENS = 85;

const FORMAT_NAMES: Record<string, string> = { png: "PNG", jpeg: "JPEG", webp: "WebP", gif: "GIF" };

/** The colours an image is "mostly", nearest first by RGB distance. */
const PALETTE: readonly { name: string; rgb: readonly [number, number, number] }[] = [
  { name: "black", rgb: [0, 0, 0] },
  { name: "white", rgb: [255, 255, 255] },
  { name: "grey", rgb: [128, 128, 128] },
  { name: "red", rgb: [220, 30, 30] },
  { name: "orange", rgb: [255, 140, 0] },
  { name: "yellow", rgb: [255, 220, 0] },
  { name: "green", rgb: [40, 160, 60] },
  { name: "cyan", rgb: [0, 200, 220] },
  { name: "blue", rgb: [30, 80, 220] },
  { name: "purple", rgb: [130, 50, 170] },
  { name: "pink", rgb: [255, 110, 180] },
  { name: "brown", rgb: [140, 80, 30] },
];

/** The palette's name for a colour (the nearest by Euclidean distance in RGB). */
export function colourName(r: number, g: number, b: number): string {
  let best = PALETTE[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const colour of PALETTE) {
    const distance = (colour.rgb[0] - r) ** 2 + (colour.rgb[1] - g) ** 2 + (colour.rgb[2] - b) ** 2;
    if (distance < bestDistance) {
      best = colour;
      bestDistance = distance;
    }
  }
  return best?.name ?? "grey";
}

const hex = (value: number) => Math.max(0, Math.min(255, Math.round(value))).toString(16).padStart(2, "0");

/** "Image 1: PNG, 640×480 pixels, mostly red (#c81818)." */
export async function describeImage(image: LoadedImage, position: number): Promise<string> {
  try {
    const decoded = sharp(image.bytes, { animated: false });
    const [metadata, stats] = await Promise.all([decoded.metadata(), decoded.stats()]);
    const format = FORMAT_NAMES[metadata.format] ?? image.mediaType;
    const width = metadata.width ?? image.ref.width;
    const height = metadata.height ?? image.ref.height;
    const { r, g, b } = stats.dominant;
    return `Image ${position}: ${format}, ${width}×${height} pixels, mostly ${colourName(r, g, b)} (#${hex(r)}${hex(g)}${hex(b)}).`;
  } catch {
    throw new ModelCallError(`demo/${DEMO_VISION_MODEL_NAME} could not decode image ${position}`, false);
  }
}

/** One line per image, in order. */
export async function describeImages(images: readonly LoadedImage[]): Promise<string> {
  const lines = await Promise.all(images.map((image, i) => describeImage(image, i + 1)));
  return lines.join("\n");
}
