import { z } from "zod";
import { ROLES } from "../auth/roles";

export const changeRoleSchema = z.object({
  userId: z.string().min(1, "userId is required").max(64),
  role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` }),
});
export type ChangeRoleInput = z.infer<typeof changeRoleSchema>;

/** A user as the admin page and the users API show it (never the password hash). */
export interface UserSummary {
  id: string;
  email: string;
  name: string;
  role: (typeof ROLES)[number];
  lastSignInAt: string | null;
  createdAt: string;
}
