// POST   /api/agents/:name/labels/:label – { version, split?: { version, percent 0–100, sticky: "conversation"|"context", contextKey? } | null, note? }:
//   points the label at a version (creating it), with a traffic split or none → 200 { status: "applied", label }. A protected
//   label (production unless an admin says otherwise) is not moved: → 200 { status: "requested", request }, waiting in the
//   inbox for an approver or admin other than the requester. 404 unknown graph or version; 409 a request already pending;
//   422 a bad name, share or key (unknown keys named). Builders and admins; audited label.set / label.move_requested.
// DELETE /api/agents/:name/labels/:label – removes it (or requests its removal when protected); 404 when there is none.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { removeLabelOperation, setLabelOperation } from "@/lib/labels/server/operations";

const path = (params: { name: string; label: string }) => ({ name: params.name, label: params.label });

export const POST = operationRoute(setLabelOperation, { path });
export const DELETE = operationRoute(removeLabelOperation, { path, body: false });
