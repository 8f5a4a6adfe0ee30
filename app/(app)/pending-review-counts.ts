import { cache } from "react";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";

/**
 * Pending mutations per scope the user reviews or owns (capped at 100 per scope); a scope that fails to answer is left
 * out. Cached per request: the layout's header and the home page's scope list ask for the same counts.
 */
export function pendingReviewCounts(userId: string, slugs: readonly string[]): Promise<Record<string, number>> {
  // React's cache compares arguments by identity: the slugs travel as one string.
  return countsFor(userId, slugs.join("\n"));
}

const countsFor = cache(async (userId: string, joined: string): Promise<Record<string, number>> => {
  const slugs = joined === "" ? [] : joined.split("\n");
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
});

/** The slugs of the scopes where the user reviews (reviewer or owner). */
export function reviewedSlugs(scopes: readonly { slug: string; role: string | null }[]): string[] {
  return scopes.filter((s) => s.role === "reviewer" || s.role === "owner").map((s) => s.slug);
}
