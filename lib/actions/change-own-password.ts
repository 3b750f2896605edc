"use server";
import { defineAction } from "../http/server/action";
import { changeOwnPasswordSchema } from "../users/schemas";
import { changeOwnPassword } from "../users/server/users";
import { continueSessionAfterPasswordChange } from "../auth/server/password-change";

/** Every user changes their own password; their other sessions end, this one continues. */
export const changeOwnPasswordAction = defineAction({
  name: "change-own-password",
  permission: "read",
  input: changeOwnPasswordSchema,
  allowMustChangePassword: true,
  async handler({ input, user }) {
    await changeOwnPassword(user, input);
    await continueSessionAfterPasswordChange(user.email, input.newPassword);
    return { changed: true };
  },
});
