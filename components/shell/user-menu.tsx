import Link from "@/components/ui/link";
import { signOutAction } from "@/lib/actions/sign-out";
import { Badge } from "@/components/ui/badge";
import type { SessionUser } from "@/lib/auth/server/session";

/** The signed-in user, their role, and sign-out. */
export function UserMenu({ user }: { user: SessionUser }) {
  return (
    <div className="border-t border-zinc-200 pt-4" data-testid="user-menu">
      <p className="truncate text-sm font-medium text-zinc-900">{user.name}</p>
      <p className="truncate text-xs text-zinc-500">{user.email}</p>
      <div className="mt-2 flex items-center justify-between">
        <Badge tone="info">
          <span data-testid="user-role">{user.role}</span>
        </Badge>
        <Link href="/account" className="text-xs font-medium text-zinc-600 hover:text-zinc-900">
          Account
        </Link>
        <form action={signOutAction}>
          <button type="submit" className="text-xs font-medium text-zinc-600 hover:text-zinc-900">
            Sign out
          </button>
        </form>
      </div>
    </div>
  );
}
