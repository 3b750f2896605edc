// The workflow bundle the integration run's in-process workers load (scripts/test-support/temporal-global-setup.ts).
const INLINE_SOURCE_MAP = "//# sourceMappingURL=data:application/json;base64,";

/**
 * The bundle with an empty source map in place of webpack's (2.3 of its 3.6 MB). Every Worker.create decodes,
 * re-encodes and parses the map, and each workflow thread builds a SourceMapConsumer of it: ~0.4 of ~1.4 CPU-s per
 * in-process worker (the suites start a few hundred; measured 2026-11-30). The SDK requires a map, so an empty one;
 * a workflow's stack trace in a test then names bundle lines instead of .ts ones, and nothing asserts on those.
 * The bundle npm test hands to e2e (below) keeps its map: `npm start`'s is byte-identical to it.
 */
export function withMinimalSourceMap(code: string): string {
  const at = code.lastIndexOf(INLINE_SOURCE_MAP);
  if (at < 0) return code;
  const map = JSON.parse(Buffer.from(code.slice(at + INLINE_SOURCE_MAP.length).trimEnd(), "base64").toString("utf8")) as { file?: string };
  const empty = { version: 3, file: map.file ?? "workflow-bundle.js", sources: [], names: [], mappings: "" };
  return `${code.slice(0, at)}${INLINE_SOURCE_MAP}${Buffer.from(JSON.stringify(empty)).toString("base64")}`;
}
