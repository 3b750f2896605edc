"use server";
import { revalidatePath } from "next/cache";
import { defineAction } from "../http/server/action";
import { setUserDisabledSchema } from "../users/schemas";
import { setUserDisabled } from "../users/server/users";

/** Admins disable an account (its sessions end at once) or enable it again; audited. */
export const setUserDisabledAction = defineAction({
  name: "set-user-disabled",
  permission: "users:manage",
  input: setUserDisabledSchema,
  async handler({ input, user }) {
    const updated = await setUserDisabled(user, input);
    revalidatePath("/admin/users");
    return updated;
  },
});
