// Images through the engine (issue 17 §4): a task's image is stored once (a
// claim check) and travels as an ImageRef through the workflow, its signals and
// the run ledger; the inference activity loads the bytes for the model call
// only. demo/vision describes what it receives, so the whole path is checked
// offline: format, dimensions and dominant colour come back from the bytes.
import sharp from "sharp";
import { temporal } from "@temporalio/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { replayRunTrees } from "../../scripts/test-support/replay";
import { ATTACHMENT_ID_PATTERN, type ImageRef } from "../../lib/attachments/schemas";
import type { ChatMessage, RunEvent, TraceNode } from "../../lib/contract/types";
import { VisionNotSupportedError } from "../../lib/models/errors";

let h: EngineHarness;
let stopFirstWorker: () => Promise<void>;
beforeAll(async () => {
  h = await startEngineHarness({ worker: false });
  stopFirstWorker = await h.startWorker();
});
afterAll(async () => h?.stop());

/** A deterministic pseudo-random byte stream (the same image every run). */
function noise(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state >>> 16;
  };
}

/**
 * A 640×480 PNG, red with noise inside one of sharp's colour bins: the dominant
 * colour stays red while the noise keeps the file large (about 180 KB), so
 * bytes in the workflow history would show.
 */
async function noisyRedPng(): Promise<Buffer> {
  const [width, height] = [640, 480];
  const next = noise(17);
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 3) {
    pixels[i] = 192 + (next() % 16);
    pixels[i + 1] = 16 + (next() % 16);
    pixels[i + 2] = 16 + (next() % 16);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

const solid = (format: "jpeg" | "webp", width: number, height: number, background: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background } })[format]().toBuffer();

async function dominantHex(bytes: Buffer): Promise<string> {
  const { r, g, b } = (await sharp(bytes).stats()).dominant;
  return [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
}

const flatten = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

const userMessages = (history: ChatMessage[]) => history.filter((m): m is Extract<ChatMessage, { role: "user" }> => m.role === "user");

/** The run's whole Temporal history as the server stores it (payloads as encoded by the codecs). */
async function historyBytes(runId: string): Promise<Buffer> {
  const history = await h.client.workflow.getHandle(runId).fetchHistory();
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish());
}

let describedRun = "";
let continuedRun = "";
let overrideRun = "";

describe("images through the engine", () => {
  it("a run on demo/vision with a PNG sent as base64 answers its format, dimensions and colour; only the reference travels", async () => {
    const png = await noisyRedPng();
    expect(png.byteLength, "the image is large enough that its bytes would show in the history").toBeGreaterThan(150_000);
    const base64 = png.toString("base64");
    const { runId } = await h.engine.startRun({ graphName: "image-describer", task: "What is in this image?", images: [{ data: base64, name: "red.png" }] });
    describedRun = runId;
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe(`Image 1: PNG, 640×480 pixels, mostly red (#${await dominantHex(png)}).`);

    const [task] = userMessages(await h.engine.getHistory(runId));
    expect(task?.content).toBe("What is in this image?");
    expect(task?.images).toHaveLength(1);
    const ref = task?.images?.[0] as ImageRef;
    expect(ref).toMatchObject({ mediaType: "image/png", width: 640, height: 480, bytes: png.byteLength, name: "red.png" });
    expect(ref.attachmentId).toMatch(ATTACHMENT_ID_PATTERN);
    const stored = await h.db.attachment.findUnique({ where: { id: ref.attachmentId }, select: { bytes: true } });
    expect(stored?.bytes, "the bytes are in the attachment store").toBe(png.byteLength);

    // A second image, as a follow-up while the run is open (a signal).
    const blue = await solid("jpeg", 320, 200, { r: 30, g: 80, b: 220 });
    await h.engine.sendMessage(runId, "And this one?", [{ data: `data:image/jpeg;base64,${blue.toString("base64")}` }]);
    const second = await eventually(() => h.engine.getRun(runId), (s) => s.output?.startsWith("Image 1: JPEG") ?? false, 20_000, "the follow-up's answer");
    expect(second.output).toBe(`Image 1: JPEG, 320×200 pixels, mostly blue (#${await dominantHex(blue)}).`);
    const events = await h.engine.getEvents(runId);
    const followUp = events.find((e): e is Extract<RunEvent, { type: "user_message" }> => e.type === "user_message");
    expect(followUp?.images?.map((i) => [i.mediaType, i.width, i.height])).toEqual([["image/jpeg", 320, 200]]);
    const users = userMessages(await h.engine.getHistory(runId));
    expect(users.map((m) => m.images?.length)).toEqual([1, 1]);
    expect(users[1]?.images?.[0]?.attachmentId).toBe(followUp?.images?.[0]?.attachmentId);

    // No bytes in the workflow history, in payloads offloaded from it, or in the run ledger.
    const recorded = await historyBytes(runId);
    expect(recorded.byteLength, "the history is far smaller than the image").toBeLessThan(png.byteLength / 4);
    expect(recorded.includes(png.subarray(1_000, 1_064)), "no raw image bytes in the history").toBe(false);
    expect(recorded.includes(Buffer.from(base64.slice(4_000, 4_100))), "no base64 of the image in the history").toBe(false);
    const largestBlob = await h.db.payloadBlob.findFirst({ orderBy: { size: "desc" }, select: { size: true } });
    expect(largestBlob?.size ?? 0, "no payload large enough to hold the image went to the claim-check store").toBeLessThan(png.byteLength / 4);
    const ledger = await h.db.runMessage.findMany({ where: { runId }, select: { data: true } });
    expect(ledger.map((m) => m.data).join("").includes(base64.slice(4_000, 4_100))).toBe(false);
  });

  it("a run that closed continues with a message and its image (a new execution whose inbox holds the reference)", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ model: "demo/vision" }, { followUpWindowSeconds: 0 }), task: "hello" });
    continuedRun = runId;
    expect((await waitForStatus(h.engine, runId, ["completed"])).output, "without images demo/vision is the demo assistant").toBe("main received: hello");
    await eventually(() => h.client.workflow.getHandle(runId).describe(), (d) => d.status.name === "COMPLETED", 20_000, "the run to close");
    const green = await solid("webp", 48, 36, { r: 40, g: 160, b: 60 });
    await h.engine.sendMessage(runId, "Now look at this", [{ data: green.toString("base64") }]);
    const answered = await eventually(() => h.engine.getRun(runId), (s) => s.output?.startsWith("Image 1:") ?? false, 20_000, "the continued run's answer");
    expect(answered.output).toBe(`Image 1: WebP, 48×36 pixels, mostly green (#${await dominantHex(green)}).`);
    expect(answered.generation).toBe(1);
    expect(userMessages(await h.engine.getHistory(runId)).map((m) => m.images?.map((i) => i.mediaType) ?? [])).toEqual([[], ["image/webp"]]);
  });

  it("a model override with vision lets a saved graph on demo models read the task's image", async () => {
    const blue = await solid("jpeg", 20, 10, { r: 30, g: 80, b: 220 });
    const { runId } = await h.engine.startRun({ graphName: "research-loop", modelOverride: "demo/vision", task: "Describe it", images: [{ data: blue.toString("base64") }] });
    overrideRun = runId;
    expect((await waitForStatus(h.engine, runId, ["completed"])).output).toBe(`Image 1: JPEG, 20×10 pixels, mostly blue (#${await dominantHex(blue)}).`);
    await h.engine.cancelRun(runId);
    await waitForStatus(h.engine, runId, ["cancelled"]);
  });

  it("images for a model without vision are refused with 422 vision_not_supported naming the model: no run row, nothing stored", async () => {
    const image = (await solid("jpeg", 8, 8, { r: 1, g: 2, b: 3 })).toString("base64");
    const [runsBefore, attachmentsBefore] = [await h.db.run.count(), await h.db.attachment.count()];
    const refused = await h.engine.startRun({ graph: singleAgentGraph({ model: "demo/assistant" }), task: "What is this?", images: [{ data: image }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(VisionNotSupportedError);
    expect(refused).toMatchObject({ code: "vision_not_supported", status: 422 });
    expect((refused as VisionNotSupportedError).userMessage).toMatch(/^The model demo\/assistant cannot read images/);

    // A follow-up with an image to a run on a model without vision: refused the same way.
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ model: "demo/assistant" }, { followUpWindowSeconds: 60 }), task: "text only is fine" });
    await waitForStatus(h.engine, runId, ["completed"]);
    await expect(h.engine.sendMessage(runId, "and this?", [{ data: image }])).rejects.toMatchObject({ code: "vision_not_supported", status: 422, model: "demo/assistant" });
    expect(await h.db.run.count(), "only the text run has a row").toBe(runsBefore + 1);
    expect(await h.db.attachment.count(), "no image was stored").toBe(attachmentsBefore);
    await h.engine.cancelRun(runId);
  });

  it("a deleted image fails the run's next model call at once, naming the image (no retries)", async () => {
    // A fresh worker (an empty image cache) finds the first run's images gone.
    await stopFirstWorker();
    const refs = userMessages(await h.engine.getHistory(describedRun)).flatMap((m) => m.images ?? []);
    await h.db.attachment.deleteMany({ where: { id: { in: refs.map((r) => r.attachmentId) } } });
    await h.startWorker();
    await h.engine.sendMessage(describedRun, "Describe them again");
    const failed = await waitForStatus(h.engine, describedRun, ["failed"]);
    expect(failed.error?.reason).toBe("model_error");
    expect(failed.error?.message).toContain(`image ${refs[0]?.attachmentId} of the conversation is no longer stored`);
    const inferences = flatten(await h.engine.getTrace(describedRun)).filter((s) => s.kind === "inference");
    expect(inferences.at(-1)?.status).toBe("error");
    expect(inferences.map((s) => s.attempts ?? 1), "a missing image is not retried").toEqual(inferences.map(() => 1));
  });

  it("the runs with images replay deterministically on today's code", async () => {
    const replayed = await replayRunTrees(h, [describedRun, continuedRun, overrideRun]);
    expect(replayed, "the described run, both executions of the continued run, the override run").toBeGreaterThanOrEqual(4);
  });
});
