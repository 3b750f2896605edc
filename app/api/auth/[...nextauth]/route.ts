// Auth.js endpoints (sign-in callbacks, session, CSRF).
import { handlers } from "@/lib/auth/server/auth";

export const { GET, POST } = handlers;
