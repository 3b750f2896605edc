import "server-only";
// The saved-view operations, one each, from which the runs page's server
// actions and /api/views are built (every signed-in role keeps its own views).
import { operation } from "../../http/server/operation";
import { createViewSchema, deleteViewSchema, listViewsSchema, updateViewSchema } from "../schemas";
import { createView, deleteView, listViews, updateView } from "./views";

export const listViewsOperation = operation({
  name: "list-views",
  permission: "read",
  input: listViewsSchema,
  run: async ({ user }) => ({ views: await listViews(user) }),
});

export const createViewOperation = operation({
  name: "create-view",
  permission: "read",
  input: createViewSchema,
  run: ({ input, user }) => createView(user, input),
});

export const updateViewOperation = operation({
  name: "update-view",
  permission: "read",
  input: updateViewSchema,
  run: ({ input, user }) => updateView(user, input),
});

export const deleteViewOperation = operation({
  name: "delete-view",
  permission: "read",
  input: deleteViewSchema,
  run: ({ input, user }) => deleteView(user, input),
});
