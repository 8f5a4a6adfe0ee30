/**
 * Seeds the demo on the embedded default: users for the three roles, two scopes that cite each other through a
 * grant, and the seeds' own stories written through the belief services with a back-dated clock. Idempotent: a data folder that already holds the demo is left as it is.
 */
import type { Database } from "@/lib/db/database";
import { createUser, findUserByEmail } from "@/lib/identity/users";
import { createScope } from "@/lib/identity/scopes";
import { addMember } from "@/lib/identity/members";
import { addGrant } from "@/lib/identity/grants";
import { OPERATOR } from "@/lib/identity/identity-db";
import { sessionPrincipal } from "@/lib/access/principal";
import { selectAssessor } from "@/lib/assess/select-assessor";
import { createBeliefServices } from "@/lib/beliefs/create-belief-services";
import { seedDemoStories } from "@/lib/beliefs/demo-stories";
import { settableClock } from "@/lib/beliefs/settable-clock";
import { getGraphStore } from "@/lib/graph/select-graph-store";

export const DEMO_PASSWORD = "credence-demo";
export const DEMO_USERS = [
  { email: "owner@example.com", name: "Olu Owner", role: "owner" },
  { email: "reviewer@example.com", name: "Rae Reviewer", role: "reviewer" },
  { email: "analyst@example.com", name: "Ana Analyst", role: "editor" },
  { email: "outsider@example.com", name: "Oz Outsider", role: null },
] as const;

export async function seedDemo(db: Database): Promise<string> {
  const owner = DEMO_USERS[0];
  if (!(await findUserByEmail(db, owner.email))) {
    const ids = new Map<string, string>();
    for (const user of DEMO_USERS) {
      const created = await createUser(db, { email: user.email, password: DEMO_PASSWORD, name: user.name });
      ids.set(user.email, created.id);
    }
    const ownerId = ids.get(owner.email) ?? "";
    await createScope(db, { slug: "platform", name: "Platform team", ownerId });
    await createScope(db, { slug: "security-research", name: "Security research", ownerId, isPublic: true });
    for (const user of DEMO_USERS) {
      if (user.role && user.role !== "owner") {
        await addMember(db, OPERATOR, { scopeSlug: "platform", email: user.email, role: user.role });
      }
    }
    await addGrant(db, OPERATOR, { fromSlug: "security-research", toSlug: "platform" });
    await seedStories(db, ids);
  }
  const lines = DEMO_USERS.map((u) => `  ${u.email.padEnd(24)} ${u.role ?? "no membership"}`);
  return ["credence demo: sign in with any of these (password: credence-demo)", ...lines].join("\n");
}

/** The seeds' stories, written through the belief services with a back-dated clock (SPEC §8). */
async function seedStories(db: Database, userIds: Map<string, string>): Promise<void> {
  const store = await getGraphStore();
  const clock = settableClock();
  const services = createBeliefServices({ db, store, assessor: selectAssessor(process.env), clock });
  const as = (email: string) => sessionPrincipal(userIds.get(email) ?? "");
  await seedDemoStories(services, {
    scopeSlug: "platform",
    clock,
    users: { owner: as("owner@example.com"), editor: as("analyst@example.com"), reviewer: as("reviewer@example.com") },
  });
}
