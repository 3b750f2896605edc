import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { listApiKeys } from "@/lib/api-keys/server/api-keys";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { ApiKeysPanel } from "@/components/api-keys/api-keys-panel";
import { rolesWithin } from "@/components/api-keys/format";
import { ChangePasswordForm } from "./account-client";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const user = await requirePageUser("read", { allowMustChangePassword: true });
  // An admin's list holds every key; this page shows only the user's own (the admin page shows the rest).
  const keys = user.mustChangePassword ? [] : (await listApiKeys(user)).filter((key) => key.owner.id === user.id);
  return (
    <>
      <PageHeader title="Your account" description={`${user.name} · ${user.email} · ${user.role}`} />
      <div className="space-y-6">
        <div className="max-w-md space-y-4">
          {user.mustChangePassword ? (
            <Alert tone="info">You signed in with a one-time password. Choose your own password to continue.</Alert>
          ) : null}
          <ChangePasswordForm mustChange={user.mustChangePassword ?? false} />
        </div>
        {/* Keys wait for the user's own password: every other action refuses a one-time password. */}
        {user.mustChangePassword ? null : (
          <ApiKeysPanel
            keys={keys}
            kind="personal"
            roles={rolesWithin(user.role)}
            title="API keys"
            description={`For scripts and CI: send "Authorization: Bearer <token>" to any /api route. A key acts as you, with its role (never above yours), until it expires or you revoke it.`}
          />
        )}
      </div>
    </>
  );
}
