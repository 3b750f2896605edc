import "server-only";
// The operations on accounts, one each (schema, permission, act and audit in
// users.ts), from which the admin page's and the account page's server actions
// and the /api/users and /api/me routes are built.
import { operation } from "../../http/server/operation";
import { continueSessionAfterPasswordChange } from "../../auth/server/password-change";
import { changeOwnPasswordSchema, changeRoleSchema, createUserSchema, liftSignInBlockSchema, resetPasswordSchema, setUserDisabledSchema } from "../schemas";
import { changeOwnPassword, changeUserRole, createUser, liftSignInBlock, resetUserPassword, setUserDisabled } from "./users";

export const createUserOperation = operation({ name: "create-user", permission: "users:manage", input: createUserSchema, run: ({ input, user }) => createUser(user, input) });

export const changeUserRoleOperation = operation({ name: "change-user-role", permission: "users:manage", input: changeRoleSchema, run: ({ input, user }) => changeUserRole(user, input) });

export const setUserDisabledOperation = operation({
  name: "set-user-disabled",
  permission: "users:manage",
  input: setUserDisabledSchema,
  run: ({ input, user }) => setUserDisabled(user, input),
});

export const resetUserPasswordOperation = operation({
  name: "reset-user-password",
  permission: "users:manage",
  input: resetPasswordSchema,
  run: ({ input, user }) => resetUserPassword(user, input),
});

/** Admins lift an account's sign-in blocks (the users page shows them); audited. */
export const liftSignInBlockOperation = operation({
  name: "lift-sign-in-block",
  permission: "users:manage",
  input: liftSignInBlockSchema,
  run: ({ input, user }) => liftSignInBlock(user, input),
});

/** Everyone changes their own password, even while holding a one-time one; their other sessions end, this one continues. Never with an API key. */
export const changeOwnPasswordOperation = operation({
  name: "change-own-password",
  permission: "read",
  input: changeOwnPasswordSchema,
  allowMustChangePassword: true,
  sessionOnly: true,
  async run({ input, user }) {
    await changeOwnPassword(user, input);
    await continueSessionAfterPasswordChange(user.email, input.newPassword);
    return { changed: true };
  },
});
