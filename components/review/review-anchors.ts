/** Ids on the review queue page that its client components move focus to (plain constants: server and client share them). */

/** The "Pending mutations" heading (focusable): focus goes there after a decision takes a card out of the queue. */
export const PENDING_HEADING_ID = "pending-mutations-heading";
