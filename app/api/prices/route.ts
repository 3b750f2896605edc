// GET /api/prices – everyone signed in: every model's prices and their history
//   { entries: [{ id, model, effectiveFrom, input, output, cachedRead, cachedWrite, reasoning, source, setBy }] }
//   (US dollars per million tokens; source default | env | admin; docs/pricing.md).
// POST /api/prices – admins: { model, input, output, cachedRead?, cachedWrite?, reasoning?, effectiveFrom? }
//   prices the model from effectiveFrom (default now) on; the same model and time again replaces it.
//   422 naming the field. Audited as price.set.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { listModelPricesOperation, setModelPriceOperation } from "@/lib/pricing/server/prices";

export const GET = operationRoute(listModelPricesOperation, { body: false, headers: { "Cache-Control": "no-store" } });

export const POST = operationRoute(setModelPriceOperation);
