import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { ChangePasswordForm } from "./account-client";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const user = await requirePageUser("read", { allowMustChangePassword: true });
  return (
    <>
      <PageHeader title="Your account" description={`${user.name} · ${user.email} · ${user.role}`} />
      <div className="max-w-md space-y-4">
        {user.mustChangePassword ? (
          <Alert tone="info">You signed in with a one-time password. Choose your own password to continue.</Alert>
        ) : null}
        <ChangePasswordForm mustChange={user.mustChangePassword ?? false} />
      </div>
    </>
  );
}
