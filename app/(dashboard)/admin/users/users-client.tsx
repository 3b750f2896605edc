"use client";
import { useInBrowser } from "@/components/ui/date-time";
import { useState, useTransition, type FormEvent } from "react";
import { changeUserRoleAction } from "@/lib/actions/change-user-role";
import { createUserAction } from "@/lib/actions/create-user";
import { setUserDisabledAction } from "@/lib/actions/set-user-disabled";
import { resetUserPasswordAction } from "@/lib/actions/reset-user-password";
import { liftSignInBlockAction } from "@/lib/actions/lift-sign-in-block";
import { ROLES, ROLE_DESCRIPTIONS, isRole, type Role } from "@/lib/access/roles";
import type { IssuedPassword, UserSummary } from "@/lib/users/schemas";
import { Input, Label, Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { formatDateTime } from "@/lib/format/figures";

type Message = { tone: "error" | "success"; text: string };

const STATUS_TONE = { active: "success", disabled: "danger", invited: "info" } as const;

/** What the account's sign-in block is, in one line: which addresses are refused, and whether the account is on guard. */
function blockText(block: NonNullable<UserSummary["signInBlock"]>): string {
  const parts = block.addresses.map((a) => `${a.address === "direct" || a.address === "-" ? "every address (no trusted proxy)" : a.address} until ${formatDateTime(a.until)}`);
  if (block.guardedUntil) parts.push(`on guard until ${formatDateTime(block.guardedUntil)} (only addresses without recent failures may try)`);
  return `Sign-in blocked: ${parts.join("; ")}`;
}

/** The one-time password of a new or reset account, shown once: it is not stored and cannot be shown again. */
function IssuedPasswordNotice({ issued, onDismiss }: { issued: IssuedPassword & { oneTimePassword: string }; onDismiss: () => void }) {
  return (
    <Alert tone="info">
      <p>
        One-time password for <strong>{issued.user.email}</strong> — give it to them now; it is not shown again. They choose their own at first
        sign-in.
      </p>
      <p className="mt-2 flex items-center gap-3">
        <code data-testid="one-time-password" className="rounded bg-white px-2 py-1 font-mono text-sm text-zinc-900 ring-1 ring-indigo-200">
          {issued.oneTimePassword}
        </code>
        <button type="button" className="text-xs font-medium underline" onClick={onDismiss}>
          Done
        </button>
      </p>
    </Alert>
  );
}

function CreateUserForm({ pending, onSubmit }: { pending: boolean; onSubmit: (form: FormData) => void }) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(new FormData(event.currentTarget));
  }
  return (
    <Card>
      <CardHeader title="Add a user" description="With a one-time password they replace at first sign-in, or as an invitation to sign in with GitHub or Google." />
      <CardBody>
        <form onSubmit={submit} className="grid gap-3 sm:grid-cols-[2fr_2fr_1fr_1.4fr_auto] sm:items-end">
          <div>
            <Label htmlFor="new-user-email">Email</Label>
            <Input id="new-user-email" name="email" type="email" required maxLength={320} />
          </div>
          <div>
            <Label htmlFor="new-user-name">Name</Label>
            <Input id="new-user-name" name="name" required maxLength={200} />
          </div>
          <div>
            <Label htmlFor="new-user-role">Role</Label>
            <Select id="new-user-role" name="role" defaultValue="viewer">
              {ROLES.map((r) => (
                <option key={r} value={r} title={ROLE_DESCRIPTIONS[r]}>
                  {r}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor="new-user-kind">Sign-in</Label>
            <Select id="new-user-kind" name="kind" defaultValue="password">
              <option value="password">one-time password</option>
              <option value="invite">invite (GitHub/Google)</option>
            </Select>
          </div>
          <Button type="submit" disabled={pending}>
            Add user
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}

/** The sentence under the table saying what a reset does, which each reset button points to. */
const RESET_NOTE_ID = "password-reset-note";

export function UsersTable({ users, currentUserId }: { users: UserSummary[]; currentUserId: string }) {
  // A block's moments are written in the reader's zone, known only in the browser (a server-written one differs at hydration).
  const inBrowser = useInBrowser();
  const [message, setMessage] = useState<Message | null>(null);
  const [issued, setIssued] = useState<(IssuedPassword & { oneTimePassword: string }) | null>(null);
  const [pending, startTransition] = useTransition();

  function run<T>(action: () => Promise<{ ok: true; data: T } | { ok: false; error: { message: string } }>, success: (data: T) => string) {
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? { tone: "success", text: success(result.data) } : { tone: "error", text: result.error.message });
    });
  }

  function showIssued(data: IssuedPassword) {
    if (data.oneTimePassword) setIssued({ ...data, oneTimePassword: data.oneTimePassword });
  }

  function create(form: FormData) {
    const role = String(form.get("role"));
    const input = {
      email: String(form.get("email") ?? ""),
      name: String(form.get("name") ?? ""),
      role: isRole(role) ? role : "viewer",
      kind: form.get("kind") === "invite" ? ("invite" as const) : ("password" as const),
    };
    run(
      () => createUserAction(input),
      (data) => {
        showIssued(data);
        return data.oneTimePassword ? `${data.user.email} was added.` : `${data.user.email} was invited; they sign in with GitHub or Google.`;
      },
    );
  }

  return (
    <div className="space-y-4">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      {issued ? <IssuedPasswordNotice issued={issued} onDismiss={() => setIssued(null)} /> : null}
      <CreateUserForm pending={pending} onSubmit={create} />
      <Card>
        <table className="min-w-full divide-y divide-zinc-200 text-sm">
          <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="px-4 py-3">User</th>
              <th className="px-4 py-3">Status</th>
              <th className="px-4 py-3">Role</th>
              <th className="px-4 py-3">Last sign-in</th>
              <th className="px-4 py-3">Actions</th>
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
                <td className="space-x-1 px-4 py-3">
                  <Badge tone={STATUS_TONE[u.status]}>
                    <span data-testid={`user-status-${u.email}`}>{u.status}</span>
                  </Badge>
                  {u.isDemo ? <Badge tone="warning">demo</Badge> : null}
                  {u.mustChangePassword ? <Badge>one-time password</Badge> : null}
                  {u.signInBlock ? (
                    <span className="mt-1 flex max-w-xs items-start gap-2" data-testid={`sign-in-block-${u.email}`}>
                      <span className="text-xs text-amber-700">{inBrowser ? blockText(u.signInBlock) : "Sign-in blocked"}</span>
                      <button
                        type="button"
                        className="text-xs font-medium underline"
                        disabled={pending}
                        aria-label={`Lift the sign-in block of ${u.email}`}
                        onClick={() => run(() => liftSignInBlockAction({ userId: u.id }), () => `${u.email}'s sign-in block was lifted.`)}
                      >
                        Lift
                      </button>
                    </span>
                  ) : null}
                </td>
                <td className="px-4 py-3">
                  <Select
                    aria-label={`Role of ${u.email}`}
                    value={u.role}
                    disabled={pending}
                    onChange={(e) => {
                      const role = e.target.value as Role;
                      run(() => changeUserRoleAction({ userId: u.id, role }), () => `${u.email} is now ${role}.`);
                    }}
                    className="w-40"
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r} title={ROLE_DESCRIPTIONS[r]}>
                        {r}
                      </option>
                    ))}
                  </Select>
                </td>
                <td className="px-4 py-3 text-zinc-600">{u.lastSignInAt ? <DateTime value={u.lastSignInAt} /> : "never"}</td>
                <td className="space-x-2 whitespace-nowrap px-4 py-3">
                  {u.id === currentUserId ? null : (
                    <>
                      <Button
                        variant={u.status === "disabled" ? "secondary" : "danger"}
                        disabled={pending}
                        aria-label={`${u.status === "disabled" ? "Enable" : "Disable"} ${u.email}`}
                        onClick={() => {
                          const disabled = u.status !== "disabled";
                          run(() => setUserDisabledAction({ userId: u.id, disabled }), () => `${u.email} is ${disabled ? "disabled; their sessions have ended" : "enabled"}.`);
                        }}
                      >
                        {u.status === "disabled" ? "Enable" : "Disable"}
                      </Button>
                      <Button
                        variant="secondary"
                        disabled={pending}
                        aria-label={`Reset the password of ${u.email}`}
                        aria-describedby={RESET_NOTE_ID}
                        onClick={() =>
                          run(
                            () => resetUserPasswordAction({ userId: u.id }),
                            (data) => {
                              showIssued(data);
                              const keys = data.revokedApiKeys.length;
                              return `${u.email} has a new one-time password; their sessions have ended${keys > 0 ? ` and ${keys === 1 ? "1 personal API key was" : `${keys} personal API keys were`} revoked` : ""}.`;
                            },
                          )
                        }
                      >
                        Reset password
                      </Button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p id={RESET_NOTE_ID} className="border-t border-zinc-100 px-4 py-3 text-xs text-zinc-500">
          Reset password gives a new one-time password, ends the user&apos;s sessions and revokes their personal API keys; service keys they own are
          refused until they choose a new password.
        </p>
      </Card>
    </div>
  );
}
