import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { listUsers } from "@/lib/users/server/users";
import { PageHeader } from "@/components/ui/page-header";
import { UsersTable } from "./users-client";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const user = await requirePageUser("users:manage");
  const users = await listUsers();
  return (
    <>
      <PageHeader title="Users" description="Who can sign in, and what their role lets them do. Role changes, disabling and password resets take effect on their next request (a disabled user's sessions end at once and stay ended when enabled again); sign-in blocks (ten wrong passwords from one address) can be lifted here. All audited." />
      <UsersTable users={users} currentUserId={user.id} />
    </>
  );
}
