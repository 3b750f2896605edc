import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { listApiKeys } from "@/lib/api-keys/server/api-keys";
import { PageHeader } from "@/components/ui/page-header";
import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { rolesWithin } from "@/components/api-keys/format";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

export default async function AdminApiKeysPage() {
  const user = await requirePageUser("users:manage");
  const keys = await listApiKeys(user);
  return (
    <>
      <PageHeader
        title="API keys"
        description="Every key of every user, and service keys for programs that act for the workspace rather than a person. Revoking takes effect on the key's next request. All audited."
      />
      <ApiKeysPanel
        keys={keys}
        kind="service"
        roles={rolesWithin(user.role)}
        showOwner
        title="Every API key"
        description="The form creates a service key: owned by you, for a program that acts for the workspace; any role up to yours. The list holds every user's keys."
      />
    </>
  );
}
