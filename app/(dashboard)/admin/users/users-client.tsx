"use client";
import { useState, useTransition } from "react";
import { changeUserRoleAction } from "@/lib/actions/change-user-role";
import { ROLES, ROLE_DESCRIPTIONS, type Role } from "@/lib/auth/roles";
import type { UserSummary } from "@/lib/users/schemas";
import { Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";

export function UsersTable({ users, currentUserId }: { users: UserSummary[]; currentUserId: string }) {
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function changeRole(user: UserSummary, role: Role) {
    startTransition(async () => {
      const result = await changeUserRoleAction({ userId: user.id, role });
      setMessage(result.ok ? { tone: "success", text: `${user.email} is now ${role}.` } : { tone: "error", text: result.error.message });
    });
  }

  return (
    <div className="space-y-4">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Card>
        <table className="min-w-full divide-y divide-zinc-200 text-sm">
          <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="px-4 py-3">User</th>
              <th className="px-4 py-3">Role</th>
              <th className="px-4 py-3">Last sign-in</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {users.map((u) => (
              <tr key={u.id} data-testid={`user-row-${u.email}`}>
                <td className="px-4 py-3">
                  <p className="font-medium text-zinc-900">
                    {u.name} {u.id === currentUserId ? <span className="text-xs text-zinc-500">(you)</span> : null}
                  </p>
                  <p className="text-zinc-500">{u.email}</p>
                </td>
                <td className="px-4 py-3">
                  <Select
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    disabled={pending}
                    onChange={(e) => changeRole(u, e.target.value as Role)}
                    className="w-40"
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r} title={ROLE_DESCRIPTIONS[r]}>
                        {r}
                      </option>
                    ))}
                  </Select>
                </td>
                <td className="px-4 py-3 text-zinc-600">{u.lastSignInAt ? new Date(u.lastSignInAt).toLocaleString() : "never"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </div>
  );
}
