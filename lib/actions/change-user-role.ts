"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { changeRoleSchema } from "../users/schemas";
import { changeUserRole } from "../users/server/users";

/** Admins change another user's role (audited; the last admin cannot be demoted). */
export const changeUserRoleAction = defineAction({
  name: "change-user-role",
  permission: "users:manage",
  input: changeRoleSchema,
  async handler({ input, user }) {
    const updated = await changeUserRole(user, input);
    revalidatePath("/admin/users");
    return updated;
  },
});
