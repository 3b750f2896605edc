import { afterEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { PATCH } from "./route";
import { changeUserRole } from "@/lib/users/server/users";
import type { SessionUser } from "@/lib/auth/server/session";

const admin: SessionUser = { id: "admin-1", email: "admin@zap.local", name: "Admin", role: "admin" };
vi.mock("@/lib/auth/server/session", () => ({ requireUser: vi.fn(async () => admin) }));
// The users' operations module also declares the own-password change, which signs in again through Auth.js; not under test here.
vi.mock("@/lib/auth/server/password-change", () => ({ continueSessionAfterPasswordChange: vi.fn() }));
vi.mock("@/lib/users/server/users", () => ({
  changeUserRole: vi.fn(async (_actor: SessionUser, input: { userId: string; role: string }) => ({ id: input.userId, role: input.role })),
}));

const patch = (id: string, body: object) =>
  PATCH(new NextRequest(`http://127.0.0.1/api/users/${id}/role`, { method: "PATCH", body: JSON.stringify(body), headers: { "content-type": "application/json", origin: "http://127.0.0.1", host: "127.0.0.1" } }), {
    params: Promise.resolve({ id }),
  });

describe("PATCH /api/users/:id/role", () => {
  afterEach(() => vi.mocked(changeUserRole).mockClear());

  it("refuses a malformed user id with 422 naming the field, not a 500", async () => {
    const response = await patch("x".repeat(65), { role: "builder" });
    expect(response.status).toBe(422);
    expect((await response.json()).error).toMatchObject({ code: "validation_failed", issues: [{ path: "userId" }] });
    expect(changeUserRole).not.toHaveBeenCalled();
  });

  it("refuses a field of another operation (disabled) with 422 naming it", async () => {
    const response = await patch("user-2", { role: "builder", disabled: true });
    expect(response.status).toBe(422);
    expect((await response.json()).error.issues).toEqual([{ path: "(root)", message: 'Unrecognized key: "disabled"' }]);
    expect(changeUserRole).not.toHaveBeenCalled();
  });

  it("changes the role for a well-formed id and answers the operation's result", async () => {
    const response = await patch("user-2", { role: "builder" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: "user-2", role: "builder" });
    expect(changeUserRole).toHaveBeenCalledWith(admin, { userId: "user-2", role: "builder" });
  });
});
