import { describe, expect, it } from "vitest";
import { streamDemoText, streamPieces } from "./demo-stream";

describe("the demo model's streamed answer", () => {
  it("comes in pieces of a few words that add up to the text", () => {
    const text = "  One two three four five six seven.\nEight nine ";
    const pieces = streamPieces(text);
    expect(pieces.length).toBe(3);
    expect(pieces.join("")).toBe(text);
  });

  it("hands every piece out, in order, within its time bound", async () => {
    const got: string[] = [];
    const started = Date.now();
    await streamDemoText(Array.from({ length: 30 }, (_, i) => `w${i}`).join(" "), (d) => got.push(d), { paceMs: 1000, maxTotalMs: 90 });
    expect(got.length).toBe(10);
    expect(Date.now() - started).toBeLessThan(500);
  });
});
