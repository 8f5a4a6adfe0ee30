/**
 * The SQL store's split fold checkpoint (`graph_fold_sources`, migration 20261201220000): a checkpoint written by the
 * previous version (one whole JSON document in `fold_checkpoint`, no rows) is still read as covering every source, the
 * next write folds onto it and splits it into a head and rows, and a write then touches only the rows it cites.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { TEST_BACKENDS, type TestLocation } from "@/lib/db/testing/test-backends";
import { assimilate, assimilateOnCheckpoint, checkReplay, defaultParams, foldCheckpoint, joinCheckpoint } from "@/lib/engine";
import { changeSet, makeEvidence, uid } from "../testing/fixtures";
import type { ScopeView } from "../graph-store";
import { createSqlGraphStore } from "./sql-graph-store";

describe.each(TEST_BACKENDS)("graph_fold_sources on $name", (backend) => {
  let location: TestLocation;
  let db: Database;
  beforeAll(async () => {
    location = await backend.create();
    db = await location.open();
  });
  afterAll(async () => {
    await db?.close();
    await location?.cleanup();
  });

  it("reads a whole checkpoint of the previous version, folds onto it, splits it, then writes only the cited rows", async () => {
    const store = createSqlGraphStore({ sql: db.sql });
    const scope = uid("s");
    const v: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
    const evs = Array.from({ length: 5 }, (_, i) => makeEvidence(scope, `source ${i}`, { kind: "document" }));
    await store.apply(changeSet({ evidence: evs }));
    const base = { resolver: store.resolverFor(v), params: defaultParams, actor: "alice" };
    const created = await assimilate({
      ...base,
      target: { create: { id: uid("b"), scope, topic: "split", text: "Checkpoints split." } },
      evidence: evs.map((e) => ({ sourceId: e.id, tier: "document" })),
      time: "2026-01-05T09:00:00.000Z",
      changeSetId: uid("cs"),
    });
    await store.apply(created.changeSet);
    const id = created.write.record.belief.id;
    const rows = async () => (await db.sql.query<{ source: string }>("SELECT source FROM graph_fold_sources WHERE belief_id = $1 ORDER BY source", [id])).map((r) => r.source);
    expect(await rows()).toEqual(evs.map((e) => e.id).sort());

    // As the previous version stored it: the whole checkpoint in fold_checkpoint, no rows.
    const whole = foldCheckpoint(created.write.record.history, defaultParams);
    await db.sql.query("UPDATE graph_beliefs SET fold_checkpoint = $2::jsonb WHERE id = $1", [id, JSON.stringify(whole)]);
    await db.sql.query("DELETE FROM graph_fold_sources WHERE belief_id = $1", [id]);
    const legacy = await store.loadBeliefHead(v, id, { historyLimit: 0, checkpointSources: [evs[0]?.id ?? ""] });
    expect(legacy?.checkpoint?.covered).toBe("all");
    expect(legacy?.checkpoint && joinCheckpoint(legacy.checkpoint)).toEqual(whole);

    const write = async (sourceId: string, minute: number) => {
      const head = await store.loadBeliefHead(v, id, { historyLimit: 0, checkpointSources: [sourceId] });
      if (!head) throw new Error("belief vanished");
      const folded = await assimilateOnCheckpoint({ ...base, head, evidence: [{ sourceId, tier: "document" }], time: `2026-01-05T10:${String(minute).padStart(2, "0")}:00.000Z`, changeSetId: uid("cs") });
      if ("fallback" in folded) throw new Error(`unexpected fallback ${folded.fallback}`);
      await store.apply(folded.changeSet);
      return folded;
    };
    // Folded onto the whole checkpoint: the write stores a head and every row again.
    await write(evs[1]?.id ?? "", 1);
    expect(await rows()).toEqual(evs.map((e) => e.id).sort());
    const head = await db.sql.query<{ cp: Record<string, unknown> }>("SELECT fold_checkpoint AS cp FROM graph_beliefs WHERE id = $1", [id]);
    expect(head[0]?.cp).not.toHaveProperty("sources");
    // Folded onto a partial slice: the change-set carries the cited row only; the others stay as they were.
    const partial = await write(evs[2]?.id ?? "", 2);
    expect(partial.changeSet.beliefs[0]?.checkpoint?.sources.map((r) => r[0])).toEqual([evs[2]?.id]);
    const record = await store.loadBelief(v, id);
    if (!record) throw new Error("belief vanished");
    expect(checkReplay(record.belief, record.history, defaultParams).mismatches).toEqual([]);
    const all = await store.loadBeliefHead(v, id, { historyLimit: 0 });
    expect(all?.checkpoint && JSON.stringify(joinCheckpoint(all.checkpoint))).toBe(JSON.stringify(foldCheckpoint(record.history, defaultParams)));
  });
});
