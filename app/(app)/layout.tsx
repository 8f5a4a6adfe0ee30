import type { ReactNode } from "react";
import { requireUser } from "@/lib/auth/session";
import { AppHeader } from "@/components/app-header";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";

/** Pending mutations per scope the user reviews or owns (capped at 100 per scope); a scope that fails to answer is left out. */
async function pendingReviewCounts(userId: string, slugs: readonly string[]): Promise<Record<string, number>> {
  if (slugs.length === 0) return {};
  const services = await getBeliefServices();
  const caller = sessionPrincipal(userId);
  const counts = await Promise.all(
    slugs.map(async (slug) => {
      try {
        const pending = await services.listMutations(caller, slug, { statuses: ["pending_review"], limit: 100 });
        return [slug, pending.length] as const;
      } catch (error) {
        console.error("pending review count failed", slug, error);
        return null;
      }
    }),
  );
  return Object.fromEntries(counts.filter((c) => c !== null));
}

/** Every page in this group needs a session; signed-out visitors go to the sign-in page. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const scopes = await (await getBeliefServices()).listMyScopes(sessionPrincipal(user.id));
  const pendingReviews = await pendingReviewCounts(
    user.id,
    scopes.filter((s) => s.role === "reviewer" || s.role === "owner").map((s) => s.slug),
  );
  return (
    <>
      <AppHeader user={user} scopes={scopes.map((s) => ({ slug: s.slug, name: s.name }))} pendingReviews={pendingReviews} />
      <main id="content" className="mx-auto max-w-6xl px-4 py-8 has-[[data-wide]]:max-w-none has-[[data-wide]]:py-4">{children}</main>
    </>
  );
}
