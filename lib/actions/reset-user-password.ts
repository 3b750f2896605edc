"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { resetPasswordSchema } from "../users/schemas";
import { resetUserPassword } from "../users/server/users";

/** Admins give a user a new one-time password (returned once; their sessions end); audited. */
export const resetUserPasswordAction = defineAction({
  name: "reset-user-password",
  permission: "users:manage",
  input: resetPasswordSchema,
  async handler({ input, user }) {
    const issued = await resetUserPassword(user, input);
    revalidatePath("/admin/users");
    return issued;
  },
});
