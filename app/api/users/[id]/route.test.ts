import { afterEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { PATCH } from "./route";
import { changeUserRole } from "@/lib/users/server/users";
import type { SessionUser } from "@/lib/auth/server/session";

const admin: SessionUser = { id: "admin-1", email: "admin@zap.local", name: "Admin", role: "admin" };
vi.mock("@/lib/auth/server/session", () => ({ requireUser: vi.fn(async () => admin) }));
vi.mock("@/lib/users/server/users", () => ({
  changeUserRole: vi.fn(async (_actor: SessionUser, input: { userId: string; role: string }) => ({ id: input.userId, role: input.role })),
}));

const patch = (id: string, body: object) =>
  PATCH(new NextRequest(`http://127.0.0.1/api/users/${id}`, { method: "PATCH", body: JSON.stringify(body), headers: { "content-type": "application/json", origin: "http://127.0.0.1", host: "127.0.0.1" } }), { params: Promise.resolve({ id }) });

describe("PATCH /api/users/:id", () => {
  afterEach(() => vi.mocked(changeUserRole).mockClear());

  it("refuses a malformed user id with 422 naming the parameter, not a 500", async () => {
    const response = await patch("x".repeat(65), { role: "builder" });
    expect(response.status).toBe(422);
    expect((await response.json()).error).toMatchObject({ code: "validation_failed", issues: [{ path: "id" }] });
    expect(changeUserRole).not.toHaveBeenCalled();
  });

  it("changes the role for a well-formed id", async () => {
    const response = await patch("user-2", { role: "builder" });
    expect(response.status).toBe(200);
    expect(changeUserRole).toHaveBeenCalledWith(admin, { userId: "user-2", role: "builder" });
  });
});
