// DELETE /api/prices/:priceId – admins: removes a price an admin set (the model's earlier
//   price applies again); 404 when no admin price has the id. Audited as price.removed.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { removeModelPriceOperation } from "@/lib/pricing/server/prices";

export const DELETE = operationRoute(removeModelPriceOperation, { body: false, path: (params: { priceId: string }) => ({ id: params.priceId }) });
