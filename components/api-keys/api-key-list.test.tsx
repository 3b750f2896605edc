import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ApiKeySummary } from "@/lib/api-keys/schemas";
import { ApiKeyList } from "./api-key-list";
import { rolesWithin } from "./format";

const base: ApiKeySummary = {
  id: "k1",
  name: "ci",
  prefix: "zap_abcdefghijkl",
  kind: "personal",
  role: "builder",
  owner: { id: "u1", email: "builder@zap.local" },
  createdById: "u1",
  createdAt: "2026-11-25T09:05:00.000Z",
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  status: "active",
};

const render = (keys: ApiKeySummary[], showOwner = false) => renderToStaticMarkup(createElement(ApiKeyList, { keys, showOwner, onRevoke: () => {} }));

describe("ApiKeyList", () => {
  it("shows an unused active key as never used, with a revoke button and its prefix, never more", () => {
    const html = render([base]);
    expect(html).toContain('data-testid="api-key-row-ci"');
    expect(html).toMatch(/data-testid="api-key-status-ci">active</);
    expect(html, "the success tone of an active key").toContain("bg-emerald-50");
    expect(html).toMatch(/data-testid="api-key-last-used-ci">never used</);
    expect(html).toContain(">zap_abcdefghijkl…<");
    expect(html).toContain('aria-label="Revoke ci"');
    expect(html, "expiry: none").toContain(">never<");
    expect(html, "the owner column is for admins").not.toContain("builder@zap.local");
  });

  it("holds when a key was last used and when it expires as instants (the browser writes them in the reader's zone), and the owner for admins", () => {
    const html = render([{ ...base, lastUsedAt: "2026-11-25T21:30:00.000Z", expiresAt: "2026-12-25T00:00:00.000Z" }], true);
    expect(html).toMatch(/data-testid="api-key-last-used-ci"><time dateTime="2026-11-25T21:30:00.000Z">/);
    expect(html).toContain('<time dateTime="2026-12-25T00:00:00.000Z">');
    expect(html).toMatch(/data-testid="api-key-owner-ci">builder@zap.local</);
  });

  it("offers no revoke button for revoked or expired keys, and gives them their own tones", () => {
    const html = render([
      { ...base, id: "k2", name: "old", status: "revoked", revokedAt: "2026-11-25T10:00:00.000Z" },
      { ...base, id: "k3", name: "lapsed", status: "expired", expiresAt: "2026-11-24T00:00:00.000Z" },
    ]);
    expect(html).toMatch(/data-testid="api-key-status-old">revoked</);
    expect(html).toMatch(/data-testid="api-key-status-lapsed">expired</);
    expect(html).toContain("bg-red-50");
    expect(html).toContain("bg-amber-50");
    expect(html).not.toContain("Revoke");
  });

  it("says so when there are no keys", () => {
    expect(render([])).toContain("No API keys yet.");
  });
});

describe("format", () => {
  it("offers a creator only the roles within theirs", () => {
    expect(rolesWithin("builder")).toEqual(["viewer", "builder"]);
    expect(rolesWithin("approver")).toEqual(["viewer", "approver"]);
    expect(rolesWithin("viewer")).toEqual(["viewer"]);
    expect(rolesWithin("admin")).toEqual(["viewer", "builder", "approver", "admin"]);
  });
});
