import { activityInfo } from "@temporalio/activity";
import type { Db } from "../../lib/db/prisma";

export interface SmokeActivityDeps {
  db: Db;
}

/** Activities of the smoke workflow: one database round trip from the worker. */
export function createSmokeActivities({ db }: SmokeActivityDeps) {
  return {
    async inspectDatabase(): Promise<{ userCount: number; workerIdentity: string }> {
      const userCount = await db.user.count();
      return { userCount, workerIdentity: `${activityInfo().taskQueue} · pid ${process.pid}` };
    },

    /** Returns `text` repeated `times` times: an activity result of any size. */
    async echoText({ text, times }: { text: string; times: number }): Promise<string> {
      return text.repeat(times);
    },
  };
}
