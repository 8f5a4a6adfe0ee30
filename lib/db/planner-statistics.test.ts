import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./database";
import { ANALYZE_THRESHOLD, analyzeStaleTables, keepPlannerStatistics, needsPlannerStatistics } from "./planner-statistics";
import { TEST_BACKENDS, type TestLocation } from "./testing/test-backends";

describe.each(TEST_BACKENDS)("planner statistics, $name", (backend) => {
  let location: TestLocation;
  let db: Database;
  beforeAll(async () => {
    location = await backend.create();
    db = await location.open();
    // Left to this test alone: a server's autovacuum, where it is on, must not analyse it between the steps.
    await db.sql.query("CREATE TABLE stats_probe (id integer PRIMARY KEY) WITH (autovacuum_enabled = false)");
  });
  afterAll(async () => {
    await db?.close();
    await location?.cleanup();
  });

  const rowsSeen = async () => Number((await db.sql.query<{ n: number }>("SELECT reltuples AS n FROM pg_class WHERE relname = 'stats_probe'"))[0]!.n);
  const insert = async (from: number, to: number) => {
    await db.sql.query("INSERT INTO stats_probe SELECT g FROM generate_series($1::int, $2::int) g", [from, to]);
    // Table counters reach the statistics views at most once a second unless a flush is asked for.
    await db.sql.query("SELECT pg_stat_force_next_flush()");
  };

  it("analyses a table never analysed, then only when more rows changed than 50 + 10 % of its rows", async () => {
    await insert(1, 1000);
    expect(await rowsSeen()).toBeLessThan(0); // never analysed: the planner has no row count
    expect(await analyzeStaleTables(db.sql)).toContain("stats_probe");
    expect(await rowsSeen()).toBe(1000);
    expect(await analyzeStaleTables(db.sql)).not.toContain("stats_probe");

    await insert(1001, 1000 + ANALYZE_THRESHOLD + 100); // exactly at the threshold (50 + 10 % of 1 000): not yet
    expect(await analyzeStaleTables(db.sql)).not.toContain("stats_probe");
    await insert(1151, 1151);
    expect(await analyzeStaleTables(db.sql)).toContain("stats_probe");
    expect(await rowsSeen()).toBe(1151);
  });

  it("is needed exactly where nothing else analyses: always embedded, on a server when its autovacuum is off", async () => {
    const [{ autovacuum }] = (await db.sql.query<{ autovacuum: string }>("SHOW autovacuum")) as [{ autovacuum: string }];
    expect(await needsPlannerStatistics(db)).toBe(backend.name === "embedded" || autovacuum === "off");
  });

  it("the keeper analyses in the background and stops cleanly", async () => {
    await insert(2000, 3999);
    const keeper = keepPlannerStatistics(db.sql, { firstDelayMs: 0, intervalMs: 20 });
    try {
      for (let i = 0; i < 200 && (await rowsSeen()) !== 3151; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await rowsSeen()).toBe(3151);
    } finally {
      await keeper.stop();
    }
  });
});
