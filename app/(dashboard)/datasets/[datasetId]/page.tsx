import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { getDb } from "@/lib/db/server/db";
import { AppError } from "@/lib/errors";
import { ITEMS_PAGE_SIZE, DATASET_ID_PATTERN } from "@/lib/datasets/schemas";
import { listVersions, readItemsPage } from "@/lib/datasets/server/items";
import { DatasetPage } from "./dataset-client";

export const metadata: Metadata = { title: "Dataset" };
export const dynamic = "force-dynamic";

const whole = (value: string | undefined) => (value && /^\d{1,7}$/.test(value) ? Number(value) : undefined);

export default async function DatasetRoute({ params, searchParams }: { params: Promise<{ datasetId: string }>; searchParams: Promise<{ version?: string; page?: string }> }) {
  const user = await requirePageUser("read");
  const { datasetId } = await params;
  if (!DATASET_ID_PATTERN.test(datasetId)) notFound();
  const query = await searchParams;
  const version = whole(query.version);
  const page = Math.max(1, whole(query.page) ?? 1);
  const read = await Promise.all([readItemsPage(getDb(), { datasetId, ...(version ? { version } : {}), page, pageSize: ITEMS_PAGE_SIZE }), listVersions(getDb(), datasetId)]).catch((error: unknown) => {
    // An unknown dataset or version is the page's 404, not an error page.
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  });
  if (!read) notFound();
  const [items, { versions }] = read;
  return <DatasetPage page={items} versions={versions} canEdit={can(user.role, "agents:edit")} />;
}
