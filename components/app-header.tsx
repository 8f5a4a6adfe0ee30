import Link from "next/link";
import { signOutAction } from "@/lib/actions/auth-actions";
import type { SessionUser } from "@/lib/auth/session";
import { ScopeSwitcher, type ScopeChoice } from "./scopes/scope-switcher";
import { PendingReviewLink } from "./review/pending-review-link";

/** `pendingReviews`: pending mutations per scope slug, for the scopes the user reviews or owns only. */
export function AppHeader({ user, scopes, publicScopes = [], pendingReviews = {} }: { user: SessionUser; scopes: ScopeChoice[]; publicScopes?: ScopeChoice[]; pendingReviews?: Readonly<Record<string, number>> }) {
  return (
    <header className="border-b border-zinc-200 bg-white/80 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/80">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4 sm:gap-4">
        <Link href="/" className="shrink-0 font-semibold tracking-tight">
          Credence
        </Link>
        {/* The switcher takes the width left over, so a long scope name never widens the page on a phone. */}
        <ScopeSwitcher scopes={scopes} publicScopes={publicScopes} />
        <div className="ml-auto flex shrink-0 items-center gap-1 text-sm sm:gap-3">
          <PendingReviewLink counts={pendingReviews} />
          <span className="hidden text-zinc-600 sm:inline dark:text-zinc-400" data-testid="signed-in-user">
            {user.name === user.email ? user.email : `${user.name} · ${user.email}`}
          </span>
          <form action={signOutAction}>
            <button type="submit" className="rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
              Sign out
            </button>
          </form>
        </div>
      </div>
    </header>
  );
}
