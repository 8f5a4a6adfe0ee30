import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/session";
import { sessionPrincipal } from "@/lib/access/principal";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { MembersSection } from "@/components/scopes/members-section";
import { GrantsSection } from "@/components/scopes/grants-section";
import { PublicToggle } from "@/components/scopes/public-toggle";
import { TokensSection } from "@/components/scopes/tokens-section";
import { ScopeTokensSection } from "@/components/scopes/scope-tokens-section";
import { BackupSection } from "@/components/scopes/backup-section";

export const metadata: Metadata = { title: "Scope settings" };

export default async function ScopeSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const services = await getBeliefServices();
  const caller = sessionPrincipal(user.id);
  const scope = await services.getScope(caller, slug);
  if (!scope || !scope.role) notFound(); // settings are for members; a public scope's readers see its graph, not its roster
  const isOwner = scope.role === "owner";
  const [members, grants, tokens, scopeTokens, myScopes] = await Promise.all([
    services.listMembers(caller, slug),
    services.listGrants(caller, slug),
    services.listTokens(caller),
    // Owners govern every token that can reach the scope; other members see only their own, below.
    isOwner ? services.listScopeTokens(caller, slug) : Promise.resolve([]),
    isOwner ? services.listMyScopes(caller) : Promise.resolve([]),
  ]);
  return (
    <div className="space-y-10">
      <div>
        <Link href={`/scopes/${scope.slug}`} className="text-sm text-sky-700 hover:underline dark:text-sky-400">
          ← {scope.name}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Settings</h1>
        {!isOwner ? (
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Only owners can change these settings.</p>
        ) : null}
      </div>
      <MembersSection
        scope={scope.slug}
        canManage={isOwner}
        currentUserId={user.id}
        members={members.map((m) => ({ userId: m.userId, email: m.email, name: m.name ?? null, role: m.role }))}
      />
      <PublicToggle scope={scope.slug} isPublic={scope.isPublic} canManage={isOwner} />
      <GrantsSection scope={scope.slug} canManage={isOwner} grants={grants.map((g) => ({ slug: g.toSlug, name: g.toName }))} />
      <TokensSection
        scope={scope.slug}
        tokens={tokens.map((t) => ({
          id: t.id,
          name: t.name,
          prefix: t.prefix,
          scopeSlug: t.scopeSlug ?? null,
          createdAt: t.createdAt.toISOString(),
          lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
          revokedAt: t.revokedAt?.toISOString() ?? null,
        }))}
      />
      {isOwner ? (
        <BackupSection
          scope={scope.slug}
          // Other scopes this user owns; whether one is empty is decided by the import itself, which refuses one that is not.
          ownedScopes={myScopes.filter((s) => s.role === "owner" && s.slug !== scope.slug).map((s) => ({ slug: s.slug, name: s.name }))}
        />
      ) : null}
      {isOwner ? (
        <ScopeTokensSection
          scope={scope.slug}
          currentUserId={user.id}
          tokens={scopeTokens.map((t) => ({
            id: t.id,
            name: t.name,
            prefix: t.prefix,
            scopeSlug: t.scopeSlug,
            holderId: t.userId,
            holderEmail: t.userEmail,
            holderName: t.userName,
            createdAt: t.createdAt.toISOString(),
            lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
          }))}
        />
      ) : null}
    </div>
  );
}
