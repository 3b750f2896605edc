// POST /api/hooks/:endpointId – an inbound webhook delivery (public: no session; the HMAC signature is the
//   credential). Headers: x-zap-timestamp, x-zap-signature: v1=<hex>, Idempotency-Key. → 202 { outcome: "started",
//   runId }, 200 { outcome: "duplicate", runId } on a repeat; 401 bad or stale signature, 404 unknown or disabled,
//   413 over 64 KiB, 429 with Retry-After, 422 naming the field. See docs/webhooks.md.
import { errorResponse } from "@/lib/http/server/api-route";
import { webhooks } from "@/lib/webhooks/server/web";

export async function POST(request: Request, { params }: { params: Promise<{ endpointId: string }> }): Promise<Response> {
  const { endpointId } = await params;
  try {
    const answer = await webhooks.receive(endpointId, request);
    return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store", ...answer.headers } });
  } catch (error) {
    // An unexpected failure: the generic message, logged with its context (never a stack or a secret).
    return errorResponse(error, `POST /api/hooks/${endpointId.slice(0, 80)}`);
  }
}
