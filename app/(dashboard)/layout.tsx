import type { ReactNode } from "react";
import Link from "@/components/ui/link";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { NavLinks, type NavItem } from "@/components/shell/nav-links";
import { UserMenu } from "@/components/shell/user-menu";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // Each page sends a user with a one-time password to /account; the shell itself must not, or /account could not render.
  const user = await requirePageUser("read", { allowMustChangePassword: true });
  const items: NavItem[] = [
    { href: "/", label: "Overview" },
    { href: "/agents", label: "Agents" },
    { href: "/runs", label: "Runs" },
    { href: "/inbox", label: "Inbox" },
    { href: "/monitors", label: "Monitors" },
    { href: "/evaluators", label: "Evaluators" },
    { href: "/schedules", label: "Schedules" },
    { href: "/webhooks", label: "Webhooks" },
    { href: "/spend-limits", label: "Spend limits" },
    ...(can(user.role, "users:manage") ? [{ href: "/admin/users", label: "Users" }] : []),
    ...(can(user.role, "users:manage") ? [{ href: "/admin/api-keys", label: "API keys" }] : []),
    ...(can(user.role, "users:manage") ? [{ href: "/admin/slack", label: "Slack" }] : []),
    ...(can(user.role, "users:manage") ? [{ href: "/admin/approval-channels", label: "Approval channels" }] : []),
    ...(can(user.role, "policy:manage") ? [{ href: "/admin/policy", label: "Approval policy" }] : []),
    ...(can(user.role, "policy:manage") ? [{ href: "/admin/prices", label: "Model prices" }] : []),
    ...(can(user.role, "mcp:manage") ? [{ href: "/admin/mcp", label: "MCP servers" }] : []),
  ];
  return (
    <div className="flex min-h-screen">
      <aside className="flex w-56 shrink-0 flex-col justify-between border-r border-zinc-200 bg-zinc-100/70 p-4">
        <div>
          <Link href="/" className="mb-6 flex items-center gap-2 px-2 text-lg font-semibold tracking-tight">
            <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-indigo-600 text-sm text-white">
              Z
            </span>
            Zap Studio
          </Link>
          <NavLinks items={items} />
        </div>
        <UserMenu user={user} />
      </aside>
      <main className="flex-1 overflow-x-auto px-8 py-8">{children}</main>
    </div>
  );
}
