// The attachment routes' boundary, driven in-process against a real SQLite
// database with the real session check (Auth.js's `auth()` stubbed to name the
// signed-in user): who may upload and read, what is accepted, and how an image
// is served so the browser can only ever show it as an image.
import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createDb, type Db } from "@/lib/db/prisma";
import { applyMigrations } from "@/scripts/db/migrate";
import { IMAGE_MAX_BYTES, type ImageRef } from "@/lib/attachments/schemas";

const session = vi.hoisted(() => ({ userId: "", db: undefined as unknown }));
vi.mock("@/lib/auth/server/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("@/lib/db/server/db", () => ({ getDb: () => session.db }));

const { POST: upload } = await import("./route");
const { GET: read } = await import("./[attachmentId]/route");
const { uploadImageAction } = await import("@/lib/actions/upload-image");

const APP = "http://127.0.0.1:3000";
const dir = mkdtempSync(path.join(os.tmpdir(), "zap-attachments-"));
let db: Db;
const users = { builder: "", viewer: "" };
const png = await sharp({ create: { width: 300, height: 150, channels: 3, background: { r: 0, g: 160, b: 90 } } }).png().toBuffer();

beforeAll(async () => {
  const url = `file:${path.join(dir, "zap.db")}`;
  await applyMigrations(url);
  db = createDb(url);
  session.db = db;
  for (const role of ["builder", "viewer"] as const) {
    users[role] = (await db.user.create({ data: { email: `${role}@attachments.test`, name: role, role }, select: { id: true } })).id;
  }
});
afterAll(async () => {
  await db?.$disconnect();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  session.userId = users.builder;
});

/** A request as the web server hands it to a route: Host set, the app's Origin, JSON. */
function post(body: string, headers: Record<string, string> = {}): NextRequest {
  return new NextRequest(`${APP}/api/attachments`, { method: "POST", body, headers: { host: new URL(APP).host, origin: APP, "content-type": "application/json", ...headers } });
}
function get(pathAndQuery: string): NextRequest {
  return new NextRequest(`${APP}${pathAndQuery}`, { headers: { host: new URL(APP).host } });
}
const noParams = { params: Promise.resolve({} as Record<string, never>) };
const idParams = (attachmentId: string) => ({ params: Promise.resolve({ attachmentId }) });

async function uploaded(bytes: Buffer, name?: string): Promise<ImageRef> {
  const response = await upload(post(JSON.stringify({ data: bytes.toString("base64"), name })), noParams);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ImageRef;
}

describe("who may upload and read", () => {
  it("without a session: 401 for the upload and for reading, and nothing is stored", async () => {
    const ref = await uploaded(png);
    session.userId = "";
    const before = await db.attachment.count();
    expect((await upload(post(JSON.stringify({ data: png.toString("base64") })), noParams)).status).toBe(401);
    expect((await read(get(`/api/attachments/${ref.attachmentId}`), idParams(ref.attachmentId))).status).toBe(401);
    expect(await db.attachment.count()).toBe(before);
  });

  it("a viewer cannot upload (403, through the route and the server action alike) but can read", async () => {
    const ref = await uploaded(png);
    session.userId = users.viewer;
    const before = await db.attachment.count();
    const response = await upload(post(JSON.stringify({ data: png.toString("base64") })), noParams);
    expect(response.status).toBe(403);
    const action = await uploadImageAction({ data: png.toString("base64") });
    expect(action.ok ? null : action.error.code).toBe("forbidden");
    expect(await db.attachment.count()).toBe(before);
    expect((await read(get(`/api/attachments/${ref.attachmentId}`), idParams(ref.attachmentId))).status).toBe(200);
  });

  it("a builder's upload answers 201 with the ImageRef and writes an audit row with the facts, never the bytes", async () => {
    const ref = await uploaded(png, "holiday.jpg");
    expect(ref).toEqual({ attachmentId: expect.stringMatching(/^img_[A-Za-z0-9_-]{32}$/), mediaType: "image/png", width: 300, height: 150, bytes: png.length, name: "holiday.jpg" });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "attachment.uploaded", target: ref.attachmentId } });
    expect(audit.actorId).toBe(users.builder);
    expect(JSON.parse(audit.details)).toEqual({ mediaType: "image/png", width: 300, height: 150, bytes: png.length, name: "holiday.jpg" });
  });

  it("the server action stores the same way and answers the same ImageRef shape", async () => {
    const action = await uploadImageAction({ data: `data:image/png;base64,${png.toString("base64")}` });
    expect(action.ok ? action.data : action.error).toMatchObject({ mediaType: "image/png", width: 300, height: 150 });
  });
});

describe("what is accepted", () => {
  it("HTML sent as an image is refused with 422 naming the accepted types; nothing is stored", async () => {
    const before = await db.attachment.count();
    const html = Buffer.from("<!doctype html><script>fetch('/api/me')</script>");
    const response = await upload(post(JSON.stringify({ data: `data:image/png;base64,${html.toString("base64")}`, name: "cat.png" })), noParams);
    expect(response.status).toBe(422);
    const { error } = await response.json();
    expect(error.message).toBe("Only PNG, JPEG, WebP and GIF images are accepted; this file is not one of them");
    expect(error.issues).toEqual([{ path: "data", message: error.message }]);
    expect(await db.attachment.count()).toBe(before);
  });

  it("an image of 10 MB and one byte is refused with 413 naming the limit", async () => {
    const oversize = Buffer.alloc(IMAGE_MAX_BYTES + 1);
    png.copy(oversize);
    const response = await upload(post(JSON.stringify({ data: oversize.toString("base64") })), noParams);
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toBe("The image is 10,485,761 bytes; the limit is 10 MB (10,485,760 bytes)");
  });

  it("a body declaring 20 MB is refused with 413 before it is read", async () => {
    const response = await upload(post("{}", { "content-length": String(20 * 1024 * 1024) }), noParams);
    expect(response.status).toBe(413);
  });

  it("unknown keys and bad base64 are 422s with their paths", async () => {
    const extra = await upload(post(JSON.stringify({ data: png.toString("base64"), mediaType: "text/html" })), noParams);
    expect(extra.status).toBe(422);
    expect(JSON.stringify((await extra.json()).error.issues)).toContain("mediaType");
    const bad = await upload(post(JSON.stringify({ data: "<<not base64>>" })), noParams);
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.issues[0].path).toBe("data");
  });
});

describe("how an image is served", () => {
  it("with the sniffed type, nosniff, a sandboxing CSP, a private immutable cache and a safe inline filename", async () => {
    const ref = await uploaded(png, 'x"\r\n.html');
    session.userId = users.viewer;
    const response = await read(get(`/api/attachments/${ref.attachmentId}`), idParams(ref.attachmentId));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
    expect(response.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(response.headers.get("content-disposition")).toBe(`inline; filename="x.png"; filename*=UTF-8''x.png`);
    expect(Buffer.from(await response.arrayBuffer()).equals(png), "the stored bytes, unchanged").toBe(true);
  });

  it("?variant=thumbnail answers a WebP of at most 256 px", async () => {
    const ref = await uploaded(png);
    const response = await read(get(`/api/attachments/${ref.attachmentId}?variant=thumbnail`), idParams(ref.attachmentId));
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(await sharp(Buffer.from(await response.arrayBuffer())).metadata()).toMatchObject({ format: "webp", width: 256, height: 128 });
  });

  it("a malformed id is 422, an unknown one 404, an unknown variant 422", async () => {
    const malformed = await read(get("/api/attachments/..%2F..%2Fetc"), idParams("../../etc"));
    expect(malformed.status).toBe(422);
    expect((await malformed.json()).error.issues[0].path).toBe("attachmentId");
    const unknown = `img_${"Z".repeat(32)}`;
    expect((await read(get(`/api/attachments/${unknown}`), idParams(unknown))).status).toBe(404);
    const ref = await uploaded(png);
    expect((await read(get(`/api/attachments/${ref.attachmentId}?variant=full`), idParams(ref.attachmentId))).status).toBe(422);
  });
});
