/**
 * Seeds the demo on the embedded default: users for the three roles, two scopes that cite each other through a
 * grant, the platform team's stories and the public scope's own short story, written through the belief services with a back-dated clock. Idempotent: a data folder that already holds the demo is left as it is.
 */
import { OPERATOR, sessionPrincipal, tokenPrincipal } from "@/lib/access/principal";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import { demoStart, seedDemoStories } from "@/lib/beliefs/demo-stories";
import { seedPublicStory } from "@/lib/beliefs/demo-public-story";
import { composeServices, type ComposeOptions } from "@/lib/beliefs/get-belief-services";
import { settableClock, type SettableClock } from "@/lib/beliefs/settable-clock";
import type { Database } from "@/lib/db/database";
import { getGraphStore } from "@/lib/graph/select-graph-store";

export const DEMO_PASSWORD = "credence-demo";
export const DEMO_USERS = [
  { email: "owner@example.com", name: "Olu Owner", role: "owner" },
  { email: "reviewer@example.com", name: "Rae Reviewer", role: "reviewer" },
  { email: "analyst@example.com", name: "Ana Analyst", role: "editor" },
  { email: "outsider@example.com", name: "Oz Outsider", role: null },
] as const;

/**
 * `store`: the graph store to write through, or how to get it — the server's process store by default; the CLI passes
 * the one it composed for its own connection. It is needed only when the stories are written.
 */
export async function seedDemo(db: Database, store?: ComposeOptions["store"]): Promise<string> {
  const owner = DEMO_USERS[0];
  // The stories are back-dated: the services read time from this clock (docs/design.md §8).
  const clock = settableClock();
  const { services } = await composeServices(db, { store: store ?? getGraphStore, clock });
  const known = (await services.listUsers(OPERATOR)).some((u) => u.email === owner.email);
  if (!known) {
    const ids = new Map<string, string>();
    for (const user of DEMO_USERS) {
      const created = await services.createUser(OPERATOR, { email: user.email, password: DEMO_PASSWORD, name: user.name });
      ids.set(user.email, created.id);
    }
    await services.createScope(OPERATOR, { slug: "platform", name: "Platform team", ownerEmail: owner.email });
    await services.createScope(OPERATOR, { slug: "security-research", name: "Security research", ownerEmail: owner.email, isPublic: true });
    for (const user of DEMO_USERS) {
      if (user.role && user.role !== "owner") {
        await services.addMember(OPERATOR, "platform", { email: user.email, role: user.role });
      }
    }
    await services.addGrant(OPERATOR, "security-research", { toSlug: "platform" });
    await seedStories(services, clock, ids);
  }
  const lines = DEMO_USERS.map((u) => `  ${u.email.padEnd(24)} ${u.role ?? "no membership"}`);
  return ["credence demo: sign in with any of these (password: credence-demo)", ...lines].join("\n");
}

/** The seeds' stories, written through the belief services with the back-dated clock. */
async function seedStories(services: BeliefServices, clock: SettableClock, userIds: Map<string, string>): Promise<void> {
  const as = (email: string) => sessionPrincipal(userIds.get(email) ?? "");
  // The stories' agent writes through an API token of the analyst's, as an agent would, so the journal says so.
  const token = await services.createToken(OPERATOR, { email: "analyst@example.com", name: "release-assistant" });
  const agent = tokenPrincipal({ userId: token.userId, scopeId: token.scopeId, tokenId: token.id, name: token.name });
  const start = demoStart();
  await seedDemoStories(services, {
    scopeSlug: "platform",
    clock,
    start,
    users: { owner: as("owner@example.com"), editor: as("analyst@example.com"), reviewer: as("reviewer@example.com"), agent },
  });
  // The public scope the outsider can read: its own short story, after the platform team's (which ends on day 9).
  await seedPublicStory(services, {
    scopeSlug: "security-research",
    author: as("owner@example.com"),
    clock,
    start: new Date(Date.parse(start) + 10 * 24 * 3_600_000).toISOString(),
  });
}
