/**
 * `npm run bench:oracle [-- --iterations N --warmup W]`: how long the API takes to answer for an id (or scope) that
 * exists but is hidden from the caller versus one that does not exist (docs/design.md §5: timing is measured and reported,
 * never asserted). Runs the REST route handlers in process on a fresh embedded PGlite (the API harness), the same
 * path a request takes after Next's router: authentication, rate limit, the authorised view, services, SQL store.
 *
 * Each iteration runs one hidden and one missing probe in random order (interleaved, so drift, GC and cache effects
 * fall on both sides alike) and times each from the handler call to the last byte of the answer.
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { createRateLimiter, setRateLimiter } from "@/lib/api/rate-limiter";
import { json, openApiHarness, type ApiHarness } from "@/lib/api/testing/api-harness";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as beliefRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as recallRoute from "@/app/api/v1/scopes/[scope]/recall/route";
import * as retractionsRoute from "@/app/api/v1/scopes/[scope]/retractions/route";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "300" }, warmup: { type: "string", default: "30" } } });
const ITERATIONS = Number(values.iterations);
const WARMUP = Number(values.warmup);
if (!Number.isInteger(ITERATIONS) || ITERATIONS < 10 || !Number.isInteger(WARMUP) || WARMUP < 0) {
  console.error("usage: bench-oracle [--iterations N≥10] [--warmup W≥0]");
  process.exit(2);
}

type Probe = { name: string; hidden: () => string; missing: () => string; send: (h: ApiHarness, id: string) => Promise<Response>; expect: number };

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const fmt = (ms: number) => ms.toFixed(2);

async function main(): Promise<void> {
  setRateLimiter(createRateLimiter(1_000_000_000));
  const h = await openApiHarness(`bench${randomUUID().slice(0, 6)}`);
  try {
    const secret = h.scopes.secret;
    const home = h.scopes.home;
    const asSecretOwner = { token: h.tokens.secretOwner };
    const ev = await json(await h.call(evidenceRoute.POST, "POST", `/scopes/${secret}/evidence`, { scope: secret }, { ...asSecretOwner, body: { kind: "document", text: "Audit memo." } }));
    const evidenceId = (ev.evidence as { id: string }).id;
    const grounded = await json(
      await h.call(assimilateRoute.POST, "POST", `/scopes/${secret}/assimilate`, { scope: secret }, {
        ...asSecretOwner,
        body: { claim: "The vault rotates its keys weekly.", evidence: [{ sourceId: evidenceId, tier: "document" }] },
      }),
    );
    const beliefId = (grounded.belief as { id: string }).id;
    // Citations write; spreading them over several targets keeps each history short, as in real use.
    const targets: string[] = [];
    for (let i = 0; i < 20; i++) {
      const t = await json(
        await h.call(assimilateRoute.POST, "POST", `/scopes/${home}/assimilate`, { scope: home }, {
          token: h.tokens.editor,
          body: { claim: `Component ${i} rotates its credentials on schedule.`, evidence: [{ tier: "model_assertion" }] },
        }),
      );
      targets.push((t.belief as { id: string }).id);
    }
    let cursor = 0;
    const nextTarget = () => targets[cursor++ % targets.length] as string;

    const editor = { token: h.tokens.editor };
    const probes: Probe[] = [
      {
        name: "GET belief (private id vs missing id)",
        hidden: () => beliefId,
        missing: () => `b_${randomUUID()}`,
        send: (hh, id) => hh.call(beliefRoute.GET, "GET", `/scopes/${home}/beliefs/${id}`, { scope: home, id }, editor),
        expect: 404,
      },
      {
        // A/A control: two missing ids. Its Δ is the noise floor the other rows should be read against.
        name: "control: GET belief (missing id vs missing id)",
        hidden: () => `b_${randomUUID()}`,
        missing: () => `b_${randomUUID()}`,
        send: (hh, id) => hh.call(beliefRoute.GET, "GET", `/scopes/${home}/beliefs/${id}`, { scope: home, id }, editor),
        expect: 404,
      },
      {
        name: "POST assimilate citing (private belief vs missing id)",
        hidden: () => beliefId,
        missing: () => `b_${randomUUID()}`,
        send: (hh, id) =>
          hh.call(assimilateRoute.POST, "POST", `/scopes/${home}/assimilate`, { scope: home }, { ...editor, body: { beliefId: nextTarget(), evidence: [{ sourceId: id, tier: "document" }] } }),
        expect: 200,
      },
      {
        name: "POST retractions (private evidence vs missing id)",
        hidden: () => evidenceId,
        missing: () => `ev_${randomUUID()}`,
        send: (hh, id) => hh.call(retractionsRoute.POST, "POST", `/scopes/${home}/retractions`, { scope: home }, { ...editor, body: { sourceId: id } }),
        expect: 404,
      },
      {
        name: "GET recall (private scope vs missing scope)",
        hidden: () => secret,
        missing: () => `nope-${randomUUID().slice(0, 8)}`,
        send: (hh, slug) => hh.call(recallRoute.GET, "GET", `/scopes/${slug}/recall`, { scope: slug }, { token: h.tokens.outsider, query: { q: "vault keys" } }),
        expect: 404,
      },
    ];

    const rows: string[] = [];
    for (const probe of probes) {
      const times = { hidden: [] as number[], missing: [] as number[] };
      for (let i = 0; i < WARMUP + ITERATIONS; i++) {
        const order: ("hidden" | "missing")[] = Math.random() < 0.5 ? ["hidden", "missing"] : ["missing", "hidden"];
        for (const side of order) {
          const id = probe[side]();
          const started = performance.now();
          const response = await probe.send(h, id);
          await response.arrayBuffer();
          const elapsed = performance.now() - started;
          if (response.status !== probe.expect) throw new Error(`${probe.name}: ${side} answered ${response.status}, expected ${probe.expect}`);
          if (i >= WARMUP) times[side].push(elapsed);
        }
      }
      const hs = [...times.hidden].sort((a, b) => a - b);
      const ms = [...times.missing].sort((a, b) => a - b);
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      const [h50, m50, h95, m95] = [quantile(hs, 0.5), quantile(ms, 0.5), quantile(hs, 0.95), quantile(ms, 0.95)];
      rows.push(
        `| ${probe.name} | ${ITERATIONS} | ${fmt(h50)} | ${fmt(m50)} | ${fmt(h50 - m50)} (${(((h50 - m50) / m50) * 100).toFixed(1)} %) | ${fmt(h95)} | ${fmt(m95)} | ${fmt(h95 - m95)} | ${fmt(mean(hs) - mean(ms))} |`,
      );
      console.error(`done: ${probe.name}`);
    }
    console.log(`Oracle timing: hidden vs missing over the API path (embedded PGlite, ${ITERATIONS} interleaved pairs per row after ${WARMUP} warm-up pairs; ms)\n`);
    console.log("| probe | n | hidden p50 | missing p50 | Δ p50 | hidden p95 | missing p95 | Δ p95 | Δ mean |");
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const row of rows) console.log(row);
    console.log(
      "\nΔ = hidden − missing (for the control: first − second missing id). Reported, not asserted: the statements are identical (lib/api/api-oracle.test.ts); what remains is noise and the database's own per-row work, to be read against the control row.",
    );
  } finally {
    setRateLimiter(undefined);
    await h.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
