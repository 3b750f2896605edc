/** The playground's address for one recorded model call. */
export function playgroundHref(runId: string, spanId: string): string {
  return `/playground?${new URLSearchParams({ run: runId, span: spanId }).toString()}`;
}
