// A tiny OTLP/HTTP traces receiver for tests: POST /v1/traces with an
// ExportTraceServiceRequest in protobuf, decoded by the small wire-format
// reader below (only the fields of opentelemetry/proto/trace/v1 the tests
// read). The SDK's otlp-transformer only encodes requests, and a collector
// binary would be one more thing to install; Phoenix (phoenix.ts) is the real one.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type OtlpValue = string | number | boolean | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, OtlpValue>;
  events: { name: string; attributes: Record<string, OtlpValue> }[];
  status: { code: number; message: string };
  resource: Record<string, OtlpValue>;
}

/** One protobuf field: its number, and its value (varint/fixed as bigint, length-delimited as bytes). */
interface Field {
  no: number;
  value: bigint | Uint8Array;
}

function* fields(buf: Uint8Array): Generator<Field> {
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[i++];
      if (byte === undefined) throw new Error("truncated varint");
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  const fixed = (bytes: number): bigint => {
    let result = 0n;
    for (let b = bytes - 1; b >= 0; b--) result = (result << 8n) | BigInt(buf[i + b] ?? 0);
    i += bytes;
    return result;
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) yield { no, value: varint() };
    else if (wire === 1) yield { no, value: fixed(8) };
    else if (wire === 5) yield { no, value: fixed(4) };
    else if (wire === 2) {
      const length = Number(varint());
      yield { no, value: buf.subarray(i, i + length) };
      i += length;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
}

const text = (v: bigint | Uint8Array) => (v instanceof Uint8Array ? Buffer.from(v).toString("utf8") : "");
const hex = (v: bigint | Uint8Array) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : "");
const bytesOf = (v: bigint | Uint8Array) => (v instanceof Uint8Array ? v : new Uint8Array());
const numberOf = (v: bigint | Uint8Array) => (typeof v === "bigint" ? v : 0n);

function anyValue(buf: Uint8Array): OtlpValue {
  for (const f of fields(buf)) {
    if (f.no === 1) return text(f.value);
    if (f.no === 2) return numberOf(f.value) !== 0n;
    if (f.no === 3) return Number(BigInt.asIntN(64, numberOf(f.value)));
    if (f.no === 4) return new Float64Array(new BigUint64Array([numberOf(f.value)]).buffer)[0] ?? 0;
  }
  return null;
}

function keyValues(items: Uint8Array[]): Record<string, OtlpValue> {
  const out: Record<string, OtlpValue> = {};
  for (const item of items) {
    let key = "";
    let value: OtlpValue = null;
    for (const f of fields(item)) {
      if (f.no === 1) key = text(f.value);
      else if (f.no === 2) value = anyValue(bytesOf(f.value));
    }
    out[key] = value;
  }
  return out;
}

function repeated(buf: Uint8Array, no: number): Uint8Array[] {
  return [...fields(buf)].filter((f) => f.no === no).map((f) => bytesOf(f.value));
}

function decodeSpan(buf: Uint8Array, resource: Record<string, OtlpValue>): ReceivedSpan {
  const span: ReceivedSpan = { traceId: "", spanId: "", parentSpanId: null, name: "", kind: 0, startNs: 0n, endNs: 0n, attributes: {}, events: [], status: { code: 0, message: "" }, resource };
  const attributes: Uint8Array[] = [];
  for (const f of fields(buf)) {
    if (f.no === 1) span.traceId = hex(f.value);
    else if (f.no === 2) span.spanId = hex(f.value);
    else if (f.no === 4) span.parentSpanId = hex(f.value) || null;
    else if (f.no === 5) span.name = text(f.value);
    else if (f.no === 6) span.kind = Number(numberOf(f.value));
    else if (f.no === 7) span.startNs = numberOf(f.value);
    else if (f.no === 8) span.endNs = numberOf(f.value);
    else if (f.no === 9) attributes.push(bytesOf(f.value));
    else if (f.no === 11) {
      const event = bytesOf(f.value);
      span.events.push({ name: text([...fields(event)].find((e) => e.no === 2)?.value ?? 0n), attributes: keyValues(repeated(event, 3)) });
    } else if (f.no === 15) {
      for (const s of fields(bytesOf(f.value))) {
        if (s.no === 2) span.status.message = text(s.value);
        if (s.no === 3) span.status.code = Number(numberOf(s.value));
      }
    }
  }
  span.attributes = keyValues(attributes);
  return span;
}

/** The spans of one ExportTraceServiceRequest. */
export function decodeTraceRequest(body: Uint8Array): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of repeated(body, 1)) {
    const resourceField = repeated(resourceSpans, 1)[0];
    const resource = resourceField ? keyValues(repeated(resourceField, 1)) : {};
    for (const scopeSpans of repeated(resourceSpans, 2)) for (const span of repeated(scopeSpans, 2)) out.push(decodeSpan(span, resource));
  }
  return out;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Requests received (a batch each). */
  requests: number;
  close(): Promise<void>;
}

/** Starts the receiver on a free port of 127.0.0.1; it answers every POST /v1/traces with 200 and an empty response. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver = { spans: [] as ReceivedSpan[], requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      receiver.requests += 1;
      receiver.spans.push(...decodeTraceRequest(Buffer.concat(chunks)));
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    get spans() {
      return receiver.spans;
    },
    get requests() {
      return receiver.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
