import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { listModelPrices } from "@/lib/pricing/server/prices";
import { PageHeader } from "@/components/ui/page-header";
import { PricesClient } from "./prices-client";

export const metadata: Metadata = { title: "Model prices" };
export const dynamic = "force-dynamic";

export default async function AdminPricesPage() {
  // Everyone reads prices (the API does too); only admins see the form.
  const user = await requirePageUser("read");
  const { entries } = await listModelPrices();
  return (
    <>
      <PageHeader
        title="Model prices"
        description="US dollars per million tokens. Each model call is priced at the price in effect when it ran, so a new price changes what later calls cost (or earlier ones, from the time you give). A model without a price is unpriced, never $0. Defaults and ZAP_MODEL_PRICES apply until a model's first price set here. All changes audited."
      />
      <PricesClient entries={entries} canEdit={can(user.role, "policy:manage")} now={new Date().toISOString()} />
    </>
  );
}
