import type { ReactNode } from "react";
import { requireUser } from "@/lib/auth/session";
import { AppHeader } from "@/components/app-header";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { pendingReviewCounts, reviewedSlugs } from "./pending-review-counts";

/** Every page in this group needs a session; signed-out visitors go to the sign-in page. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const readable = await (await getBeliefServices()).listScopes(sessionPrincipal(user.id));
  // The switcher lists the user's scopes, then the public ones they may read without being a member.
  const scopes = readable.filter((s) => s.role !== null);
  const publicScopes = readable.filter((s) => s.role === null);
  const pendingReviews = await pendingReviewCounts(user.id, reviewedSlugs(scopes));
  return (
    <>
      <AppHeader user={user} scopes={scopes.map((s) => ({ slug: s.slug, name: s.name }))} publicScopes={publicScopes.map((s) => ({ slug: s.slug, name: s.name }))} pendingReviews={pendingReviews} />
      <main id="content" className="mx-auto max-w-6xl px-4 py-8 has-[[data-wide]]:max-w-none has-[[data-wide]]:py-4">{children}</main>
    </>
  );
}
