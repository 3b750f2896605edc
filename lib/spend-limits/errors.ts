// The refusal of a run start by a spend limit, as the browser, the API, a
// schedule's firing and a webhook's sender read it: one line naming the limit.
import { AppError } from "../errors";

/** 402: the scope has spent its limit for the window; raising the limit or waiting for the next window lets runs start again. */
export class SpendLimitReached extends AppError {
  constructor(message: string) {
    super("spend_limit_reached", 402, message);
    this.name = "SpendLimitReached";
  }
}
