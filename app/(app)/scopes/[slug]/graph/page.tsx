import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireUser } from "@/lib/auth/session";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { GraphExplorer } from "@/components/graph/graph-explorer";
import { LARGE_SCOPE_BELIEFS } from "@/components/graph/topic-map";
import { TopicMapExplorer } from "@/components/graph/topic-map-explorer";

export const metadata: Metadata = { title: "Graph" };

/**
 * A scope of more than LARGE_SCOPE_BELIEFS beliefs opens as its topic map (overview first, then one expansion at a
 * time); a smaller one, or a link to a moment in the past or to one node's neighbourhood, as the whole graph.
 */
export default async function ScopeGraphPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { slug } = await params;
  const query = await searchParams;
  const user = await requireUser();
  const services = await getBeliefServices();
  const caller = sessionPrincipal(user.id);
  const scope = await services.getScope(caller, slug);
  if (!scope) notFound();
  const whole = query.whole !== undefined || query.asOf !== undefined || query.nodeId !== undefined;
  const beliefs = whole ? 0 : (await services.graphOverview(caller, slug, { notable: 0 })).beliefs;
  const fallback = (
    <div className="h-[70vh] animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-900" role="status">
      <span className="sr-only">Loading the graph…</span>
    </div>
  );
  const canEdit = scope.role === "editor" || scope.role === "reviewer" || scope.role === "owner";
  if (beliefs > LARGE_SCOPE_BELIEFS) {
    const canSave = canEdit;
    return (
      <Suspense fallback={fallback}>
        <TopicMapExplorer scope={scope.slug} scopeId={scope.id} scopeName={scope.name} canSave={canSave} />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={fallback}>
      <GraphExplorer scope={scope.slug} scopeId={scope.id} scopeName={scope.name} createdAt={scope.createdAt.toISOString()} now={new Date().toISOString()} canEdit={canEdit} />
    </Suspense>
  );
}
