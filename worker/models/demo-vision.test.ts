// demo/vision answers what it can know of each image from its bytes; other
// demo models, and demo/vision without images, answer as the demo assistant.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { ImageMediaType } from "../../lib/attachments/schemas";
import { createDemoModel } from "./demo";
import { colourName } from "./demo-vision";
import type { InferenceMessage, InferenceRequest, LoadedImage } from "./types";

async function image(format: "png" | "jpeg" | "webp" | "gif", width: number, height: number, background: { r: number; g: number; b: number }): Promise<LoadedImage> {
  const bytes = new Uint8Array(await sharp({ create: { width, height, channels: 3, background } })[format]().toBuffer());
  const mediaType = `image/${format}` as ImageMediaType;
  return { ref: { attachmentId: `img_${"a".repeat(32)}`, mediaType, width, height, bytes: bytes.byteLength }, bytes, mediaType };
}

function request(messages: InferenceMessage[]): InferenceRequest {
  return { model: "demo/vision", agentName: "describer", messages, tools: [], temperature: 0, maxOutputTokens: 500, attempt: 1 };
}

const withImages = (content: string, imageData: LoadedImage[]): InferenceMessage => ({ role: "user", content, images: imageData.map((i) => i.ref), imageData });

describe("demo/vision", () => {
  const model = createDemoModel();

  it("reports the format, dimensions and dominant colour of each image, in order", async () => {
    const red = await image("png", 640, 480, { r: 208, g: 28, b: 28 });
    const blue = await image("jpeg", 32, 20, { r: 30, g: 80, b: 220 });
    const response = await model.generate(request([{ role: "system", content: "Describe images." }, withImages("What are these?", [red, blue])]), "vision");
    expect(response.toolCalls).toEqual([]);
    expect(response.finishReason).toBe("stop");
    const lines = response.content?.split("\n") ?? [];
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Image 1: PNG, 640×480 pixels, mostly red \(#[0-9a-f]{6}\)\.$/);
    expect(lines[1]).toMatch(/^Image 2: JPEG, 32×20 pixels, mostly blue \(#[0-9a-f]{6}\)\.$/);
  });

  it("gives the dominant colour's hex as sharp measures it", async () => {
    const green = await image("webp", 50, 50, { r: 40, g: 160, b: 60 });
    const { r, g, b } = (await sharp(green.bytes).stats()).dominant;
    const hex = [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
    const response = await model.generate(request([withImages("Colour?", [green])]), "vision");
    expect(response.content).toBe(`Image 1: WebP, 50×50 pixels, mostly green (#${hex}).`);
  });

  it("is deterministic: the same images give the same answer and usage", async () => {
    const gif = await image("gif", 10, 12, { r: 250, g: 250, b: 250 });
    const messages = [withImages("And this?", [gif])];
    const [first, second] = [await model.generate(request(messages), "vision"), await model.generate(request(messages), "vision")];
    expect(first).toEqual(second);
    expect(first.content).toBe("Image 1: GIF, 10×12 pixels, mostly white (#f8f8f8).");
  });

  it("describes the newest user message's images only, and counts images in its input tokens", async () => {
    const older = await image("png", 8, 8, { r: 0, g: 0, b: 0 });
    const newest = await image("png", 16, 9, { r: 255, g: 220, b: 0 });
    const withoutImages = await model.generate(request([withImages("first", [older]), { role: "assistant", content: "Image 1: …" }, { role: "user", content: "second" }]), "vision");
    expect(withoutImages.content, "no images in the newest message: the demo assistant answers").toBe("describer received: second");
    const response = await model.generate(request([withImages("first", [older]), { role: "assistant", content: "Image 1: …" }, withImages("second", [newest])]), "vision");
    expect(response.content).toMatch(/^Image 1: PNG, 16×9 pixels, mostly yellow \(#[0-9a-f]{6}\)\.$/);
    const textOnly = await model.generate(request([{ role: "user", content: "first" }, { role: "assistant", content: "Image 1: …" }, { role: "user", content: "second" }]), "vision");
    expect(response.usage.inputTokens - textOnly.usage.inputTokens).toBe(2 * 85);
  });

  it("other demo models ignore images", async () => {
    const red = await image("png", 4, 4, { r: 208, g: 28, b: 28 });
    const response = await model.generate(request([withImages("Look", [red])]), "assistant");
    expect(response.content).toBe("describer received: Look");
  });

  it("a message with an undecodable image fails without retries", async () => {
    const broken: LoadedImage = { ...(await image("png", 4, 4, { r: 1, g: 2, b: 3 })), bytes: new Uint8Array([137, 80, 78, 71, 1, 2, 3]) };
    await expect(model.generate(request([withImages("Look", [broken])]), "vision")).rejects.toMatchObject({ name: "ModelCallError", retryable: false, message: "demo/vision could not decode image 1" });
  });
});

describe("colour names", () => {
  it("names a colour by the nearest of the palette", () => {
    expect(colourName(200, 24, 24)).toBe("red");
    expect(colourName(24, 136, 248)).toBe("blue");
    expect(colourName(120, 120, 120)).toBe("grey");
    expect(colourName(8, 8, 8)).toBe("black");
    expect(colourName(248, 248, 248)).toBe("white");
    expect(colourName(255, 150, 10)).toBe("orange");
  });
});
