import "server-only";
// What the spend limits page offers to limit: saved graphs (builders and
// admins), users and API keys that are not revoked (admins only: the page
// shows them to no one else).
import { getDb } from "../../db/server/db";
import type { SpendTargets } from "../schemas";


export async function spendTargets(options: { people: boolean }): Promise<SpendTargets> {
  const db = getDb();
  const [graphs, users, keys] = await Promise.all([
    db.agent.findMany({ where: { archivedAt: null }, orderBy: { name: "asc" }, select: { name: true }, take: 500 }),
    options.people ? db.user.findMany({ where: { disabledAt: null }, orderBy: { email: "asc" }, select: { id: true, email: true }, take: 500 }) : Promise.resolve([]),
    options.people ? db.apiKey.findMany({ where: { revokedAt: null }, orderBy: { name: "asc" }, select: { id: true, name: true, owner: { select: { email: true } } }, take: 500 }) : Promise.resolve([]),
  ]);
  return { graphs: graphs.map((g) => g.name), users, apiKeys: keys.map((k) => ({ id: k.id, name: k.name, owner: k.owner.email })) };
}
