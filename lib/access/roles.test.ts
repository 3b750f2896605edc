import { describe, expect, it } from "vitest";
import { can, PERMISSIONS, ROLES, type Permission, type Role } from "./roles";

const EXPECTED: Record<Role, Permission[]> = {
  viewer: ["read"],
  builder: ["read", "agents:edit", "runs:launch"],
  approver: ["read", "approvals:decide"],
  admin: [...PERMISSIONS],
};

describe("can", () => {
  it.each(ROLES.flatMap((role) => PERMISSIONS.map((permission) => [role, permission] as const)))("%s → %s", (role, permission) => {
    expect(can(role, permission)).toBe(EXPECTED[role].includes(permission));
  });

  it("grants nothing to unknown or missing roles", () => {
    expect(can("root", "read")).toBe(false);
    expect(can(undefined, "read")).toBe(false);
    expect(can(null, "users:manage")).toBe(false);
  });
});
