import { describe, expect, it } from "vitest";
import { can, capRole, PERMISSIONS, roleWithin, ROLES, type Permission, type Role } from "./roles";

const EXPECTED: Record<Role, Permission[]> = {
  viewer: ["read"],
  builder: ["read", "agents:edit", "runs:launch", "monitors:manage"],
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

describe("roleWithin and capRole (an API key's role against its creator's and owner's)", () => {
  const grants = (role: Role) => new Set(PERMISSIONS.filter((p) => can(role, p)));
  it.each(ROLES.flatMap((role) => ROLES.map((limit) => [role, limit] as const)))("%s within %s: exactly when it grants no permission the limit lacks", (role, limit) => {
    const within = [...grants(role)].every((p) => grants(limit).has(p));
    expect(roleWithin(role, limit)).toBe(within);
  });

  it.each(ROLES.flatMap((role) => ROLES.map((limit) => [role, limit] as const)))("capRole(%s, %s) grants what both grant", (role, limit) => {
    const both = [...grants(role)].filter((p) => grants(limit).has(p));
    expect([...grants(capRole(role, limit))].sort()).toEqual(both.sort());
  });
});
