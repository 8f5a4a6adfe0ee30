import type { ReactNode } from "react";
import { requireUser } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db/database";
import { listMyScopes } from "@/lib/identity/scopes";
import { AppHeader } from "@/components/app-header";

/** Every page in this group needs a session; signed-out visitors go to the sign-in page. */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const scopes = await listMyScopes(await getDatabase(), user.id);
  return (
    <>
      <AppHeader user={user} scopes={scopes.map((s) => ({ slug: s.slug, name: s.name }))} />
      <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
    </>
  );
}
