import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./database";
import { ANALYZE_THRESHOLD, analyzeStaleTables, keepEmbeddedStatistics } from "./embedded-statistics";
import { freshEmbeddedFolder } from "./testing/test-backends";

describe("planner statistics on the embedded database", () => {
  let dataDir: string;
  let db: Database;
  beforeAll(async () => {
    dataDir = await freshEmbeddedFolder();
    db = await openDatabase({ dataDir });
    await db.sql.query("CREATE TABLE stats_probe (id integer PRIMARY KEY)");
  });
  afterAll(async () => {
    await db?.close();
    await rm(dataDir, { recursive: true, force: true });
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

  it("the keeper analyses in the background and stops cleanly", async () => {
    await insert(2000, 3999);
    const keeper = keepEmbeddedStatistics(db.sql, { firstDelayMs: 0, intervalMs: 20 });
    try {
      for (let i = 0; i < 200 && (await rowsSeen()) !== 3151; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await rowsSeen()).toBe(3151);
    } finally {
      await keeper.stop();
    }
  });
});
