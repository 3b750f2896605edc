// The attachment store on both providers: an image stored once and read back
// (original and thumbnail), and a door's inputs resolved in order — an uploaded
// id, inline base64, and a URL fetched through the egress guard from a local
// HTTP server (refused as loopback unless the host is allow-listed).
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { AppError } from "../errors";
import { createGuardedFetch } from "../net/egress";
import { NOT_AN_IMAGE } from "./image";
import { IMAGE_MAX_BYTES, type ImageInput } from "./schemas";
import { readImage, readStoredImage, resolveImageInputs, storeImage } from "./store";

const providers = await testProviders();

const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "orange" } }).jpeg().toBuffer();

/** A local server: /photo.png (a PNG), /page.png (HTML named .png, served as image/png), /missing (404), /huge (11 MB, chunked), /slow (never answers). */
function imageServer(): Promise<{ origin: string; host: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === "/photo.png") {
      res.writeHead(200, { "content-type": "image/png" }).end(png);
    } else if (req.url === "/page.png") {
      res.writeHead(200, { "content-type": "image/png" }).end("<html><script>alert(1)</script></html>");
    } else if (req.url === "/huge") {
      // No Content-Length: only counting while streaming can stop it.
      res.writeHead(200, { "content-type": "image/png" });
      res.write(png);
      const chunk = Buffer.alloc(256 * 1024, 7);
      let sent = png.length;
      const more = () => {
        while (sent <= IMAGE_MAX_BYTES + chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      more();
    } else if (req.url === "/declared-huge") {
      // Says 11 MB up front and keeps sending: refused on the header, the request dropped mid-body.
      res.writeHead(200, { "content-type": "image/png", "content-length": String(11 * 1024 * 1024) });
      res.write(png);
      res.write(Buffer.alloc(1024 * 1024, 7));
    } else if (req.url === "/slow") {
      // Holds the request open; the client's timeout ends it.
    } else {
      res.writeHead(404).end("not here");
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        host: `127.0.0.1:${port}`,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      });
    }),
  );
}

/** The AppError a promise rejects with (fails the test if it resolves or throws something else). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the input was accepted").toBeInstanceOf(AppError);
  return error as AppError;
}

describe.each(providers)("attachment store on $provider", ({ available, create }) => {
  let database: TestDatabase | undefined;
  let db: Db;
  let web: Awaited<ReturnType<typeof imageServer>>;

  beforeAll(async () => {
    web = await imageServer();
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
  });
  afterAll(async () => {
    await web?.close();
    await db?.$disconnect();
    await database?.drop();
  });

  it.skipIf(!available)("stores an image once and reads back the same bytes, its sniffed type and a WebP thumbnail", async () => {
    const ref = await storeImage(db, png, { createdBy: "user-1", name: "holiday.jpg" });
    expect(ref).toEqual({ attachmentId: expect.stringMatching(/^img_[A-Za-z0-9_-]{32}$/), mediaType: "image/png", width: 320, height: 200, bytes: png.length, name: "holiday.jpg" });

    const original = await readImage(db, ref.attachmentId);
    expect(original?.mediaType).toBe("image/png");
    expect(Buffer.from(original?.bytes ?? []).equals(png), "the bytes come back unchanged").toBe(true);

    const thumbnail = await readStoredImage(db, ref.attachmentId, "thumbnail");
    expect(thumbnail?.mediaType).toBe("image/webp");
    expect(thumbnail?.name).toBe("holiday.jpg");
    expect(await sharp(Buffer.from(thumbnail?.bytes ?? [])).metadata()).toMatchObject({ format: "webp", width: 256, height: 160 });

    const row = await db.attachment.findUniqueOrThrow({ where: { id: ref.attachmentId }, select: { sha256: true, createdBy: true } });
    expect(row).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), createdBy: "user-1" });
  });

  it.skipIf(!available)("two uploads of the same bytes are two attachments (ids are random, never derived from content)", async () => {
    const [a, b] = [await storeImage(db, jpeg, { createdBy: null }), await storeImage(db, jpeg, { createdBy: null })];
    expect(a.attachmentId).not.toBe(b.attachmentId);
  });

  it.skipIf(!available)("an unknown or malformed id reads as nothing", async () => {
    expect(await readImage(db, `img_${"A".repeat(32)}`)).toBeNull();
    expect(await readImage(db, "../../etc/passwd")).toBeNull();
  });

  it.skipIf(!available)("resolves an uploaded id, base64 with a data: prefix and an allow-listed URL, in order", async () => {
    const uploaded = await storeImage(db, jpeg, { createdBy: "user-1", name: "upload.jpg" });
    const inputs: ImageInput[] = [
      { url: `${web.origin}/photo.png` },
      { attachmentId: uploaded.attachmentId },
      { data: `data:image/jpeg;base64,${jpeg.toString("base64")}`, name: "inline.jpg" },
    ];
    const refs = await resolveImageInputs(db, inputs, { createdBy: "user-2", allowHosts: [web.host] });
    expect(refs.map((r) => [r.mediaType, r.width, r.height, r.name])).toEqual([
      ["image/png", 320, 200, "photo.png"],
      ["image/jpeg", 64, 48, "upload.jpg"],
      ["image/jpeg", 64, 48, "inline.jpg"],
    ]);
    expect(refs[1]).toEqual(uploaded);
    const fetched = await db.attachment.findUniqueOrThrow({ where: { id: refs[0]!.attachmentId }, select: { createdBy: true, bytes: true } });
    expect(fetched).toEqual({ createdBy: "user-2", bytes: png.length });
  });

  it.skipIf(!available)("an unknown id is a 422 naming its index", async () => {
    const ok = await storeImage(db, jpeg, { createdBy: null });
    const error = await refusal(resolveImageInputs(db, [{ attachmentId: ok.attachmentId }, { attachmentId: `img_${"B".repeat(32)}` }], { createdBy: null }));
    expect(error.status).toBe(422);
    expect(error.issues).toEqual([{ path: "images[1]", message: "There is no uploaded image with that id" }]);
  });

  it.skipIf(!available)("bad base64 and a non-image are 422s naming the index; nothing is stored for them", async () => {
    const before = await db.attachment.count();
    const bad = await refusal(resolveImageInputs(db, [{ data: "%%% not base64 %%%" }], { createdBy: null }));
    expect([bad.status, bad.issues[0]?.path]).toEqual([422, "images[0]"]);
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"/>`).toString("base64");
    const notImage = await refusal(resolveImageInputs(db, [{ data: svg }], { createdBy: null, path: ["content", "images"] }));
    expect(notImage.issues).toEqual([{ path: "content.images[0]", message: NOT_AN_IMAGE }]);
    expect(await db.attachment.count()).toBe(before);
  });

  it.skipIf(!available)("a URL on loopback is refused by the egress guard unless its host is allow-listed", async () => {
    const error = await refusal(resolveImageInputs(db, [{ url: `${web.origin}/photo.png` }], { createdBy: null }));
    expect(error.status).toBe(422);
    expect(error.issues).toEqual([{ path: "images[0]", message: "That address is not reachable from Zap Studio (private or local network)." }]);
    const metadata = await refusal(resolveImageInputs(db, [{ url: "http://169.254.169.254/latest/meta-data/" }], { createdBy: null, allowHosts: ["169.254.169.254"] }));
    expect(metadata.status, "cloud metadata stays refused whatever the allow-list says").toBe(422);
  });

  // One story per reply, so a failure (or a hang under load, seen once in a full run) names its step.
  const viaWeb = () => ({ createdBy: null, allowHosts: [web.host] });

  it.skipIf(!available)("a URL answering 404 is refused with the index", async () => {
    const missing = await refusal(resolveImageInputs(db, [{ url: `${web.origin}/missing` }], viaWeb()));
    expect([missing.status, missing.userMessage]).toEqual([422, "That address answered HTTP 404 instead of an image"]);
  });

  it.skipIf(!available)("HTML named .png is refused: the reply's Content-Type is not believed", async () => {
    const html = await refusal(resolveImageInputs(db, [{ url: `${web.origin}/page.png` }], viaWeb()));
    expect([html.status, html.userMessage]).toEqual([422, NOT_AN_IMAGE]);
  });

  it.skipIf(!available)("a reply streaming more than 10 MB is refused with 413 naming its index", async () => {
    const huge = await refusal(resolveImageInputs(db, [{ attachmentId: (await storeImage(db, jpeg, { createdBy: null })).attachmentId }, { url: `${web.origin}/huge` }], viaWeb()));
    expect([huge.status, huge.issues[0]?.path]).toEqual([413, "images[1]"]);
    expect(huge.userMessage).toContain("10 MB");
  });

  it.skipIf(!available)("a reply declaring more than 10 MB is refused on its header", async () => {
    const declared = await refusal(resolveImageInputs(db, [{ url: `${web.origin}/declared-huge` }], viaWeb()));
    expect([declared.status, declared.userMessage]).toEqual([413, "The image is 11 MB; the limit is 10 MB (10,485,760 bytes)"]);
  });

  it.skipIf(!available)("a URL that never answers is refused once the fetch times out", async () => {
    const slow = await refusal(resolveImageInputs(db, [{ url: `${web.origin}/slow` }], { ...viaWeb(), fetch: createGuardedFetch({ allowHosts: [web.host], timeoutMs: 300 }) }));
    expect([slow.status, slow.issues[0]?.path]).toEqual([422, "images[0]"]);
  });
});
