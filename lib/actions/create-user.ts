"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { createUserSchema } from "../users/schemas";
import { createUser } from "../users/server/users";

/** Admins create an account (one-time password returned once) or invite an OAuth user; audited. */
export const createUserAction = defineAction({
  name: "create-user",
  permission: "users:manage",
  input: createUserSchema,
  async handler({ input, user }) {
    const issued = await createUser(user, input);
    revalidatePath("/admin/users");
    return issued;
  },
});
