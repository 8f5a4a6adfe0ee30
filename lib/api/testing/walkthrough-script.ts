/**
 * The REST API page (`docs/api-walkthrough.md`) as data: the reference prose, then a walkthrough whose every command
 * `lib/api/api-walkthrough.test.ts` runs against a fresh server, rendering the page with the real answers. The names
 * are the walkthrough's own (users `…@walkthrough.example`, scopes `walkthrough` and `walkthrough-notes`), so it can
 * be followed on the demo as well as on an empty server. Prose that states what an answer shows is kept true by the
 * step's `check`.
 */
import { expect } from "vitest";
import type { HttpStep, WalkthroughScript } from "./walkthrough-runner";

const SCOPE = "walkthrough";
const NOTES = "walkthrough-notes";
const OWNER_EMAIL = "olu@walkthrough.example";
const AGENT_EMAIL = "agent@walkthrough.example";
const PASSWORD = "walkthrough-secret";
/** Event times the walkthrough sends: Monday's and Thursday's statements, and a day between them. */
const MONDAY_AT = "2026-03-02T09:00:00Z";
const THURSDAY_AT = "2026-03-05T15:30:00Z";
const TUESDAY = "2026-03-03";

const s = `/scopes/${SCOPE}`;
type Body = Record<string, unknown>;
const asBody = (body: unknown) => body as Body;
const agent = (step: Omit<HttpStep, "kind" | "token">): HttpStep => ({ kind: "http", token: "TOKEN", ...step });
const owner = (step: Omit<HttpStep, "kind" | "token">): HttpStep => ({ kind: "http", token: "OWNER", ...step });

const reference = `
# The REST API (\`/api/v1\`): reference and a curl walkthrough

Agents write beliefs over HTTP; everything here goes through the same belief services and the same authorised view
as the browser (docs/design.md §4–§7). The machine-readable contract is the OpenAPI 3.1 document at \`/api/v1/openapi.json\`,
browsable at \`/api/docs\`: every operation has an \`operationId\`, and every answer with a body a named schema
(\`lib/api/openapi-contract.test.ts\` checks both). Both sides come from one set of zod schemas: the request schemas the
services (or the route) parse with (\`lib/beliefs/belief-schemas.ts\`, \`lib/api/request-schemas.ts\`,
\`lib/api/job-schemas.ts\`), and the response schemas the presenters parse every answer with
(\`lib/api/response-schemas.ts\`, published as \`components.schemas\`). A body that would not fit its schema is a bug of
ours and answers 500, never a silently different shape.

A typed client: \`npx openapi-typescript http://127.0.0.1:3000/api/v1/openapi.json -o credence-api.ts\`, then
\`createClient<paths>()\` from \`openapi-fetch\`. \`tools/api-client/seed-scenarios.ts\` is such a client (its types,
\`tools/api-client/openapi-types.ts\`, are generated, not committed: \`npm run api:types\` writes them): it drives the
demo seeds' scenarios end to end, and \`CREDENCE_TOKEN=… CREDENCE_REVIEWER_TOKEN=… npx tsx
tools/api-client/seed-scenarios.ts <scope>\` runs it against a live server.

## Authentication

\`Authorization: Bearer <API token>\` (or the browser session). Tokens are made by an owner in scope settings or by
the operator CLI, shown once and stored hashed; a token acts as its user and may be limited to one scope:

\`\`\`console
$ npm run --silent cli -- token create --email agent@example.com --name "deploy agent" --scope platform
cred_…
\`\`\`

Roles: viewer reads; editor writes; reviewer also decides mutations and lifts freezes; owner also administers
(members, grants). Any user with a token not limited to one scope (or a browser session) may create a scope and
becomes its owner; a scope-limited token may not.

A browser session's writes must come from the app's own origin (\`Origin\`) with a JSON body; a token's writes may come
from anywhere.

## Endpoints

\`{scope}\` is the scope slug; paths are under \`/api/v1\`. Writes are POSTs (PATCH and DELETE for members and grants);
every POST accepts \`Idempotency-Key\`. The table is read off the OpenAPI document; \`GET /openapi.json\` serves it.

{{endpoints}}

Beliefs: a belief that is the subject of a write's answer or of a detail carries its ordered \`history\` (assimilate,
revisions, accepted syntheses, \`GET …/beliefs/{id}\`); lists (\`GET …/beliefs\`, syntheses, a detail's \`supersedes\`) and
mutation answers carry the stored state only: fetch the detail for its history.

Time: evidence, \`ingest\`, \`assimilate\` and \`harvest\` take \`observedAt\` (when it was true or seen; default when it
is recorded, at most 5 minutes ahead of the server's clock). A history entry keeps both: \`observedAt\` and \`time\`
(when it was recorded). Cooling, drift windows, the stability monitor and \`asOf\` (on a belief, \`recall\`, the ranked
\`GET …/beliefs?q=\` and the graph) go by \`observedAt\`, so an import in any order gives the same state.

\`assimilate\` relates a claim like \`ingest\` (\`match: "relate"\`, the default): a sure restatement of a live belief
reinforces it, and a changed value competes with the old one. A claim that only may restate one (a score just under
the twin threshold, or two claims that differ by one swapped word, "main branch" / "release branch") becomes a new
belief linked to it as a possible duplicate: \`possibleDuplicate\` in the answer, and \`GET …/readings\` lists it for a
reviewer. \`match: "exact"\` writes the claim verbatim, matched only by its normalised text.

\`recall\` answers in one of four modes: \`settled\` (one answer, well enough supported), \`contested\` (a dominant answer
and the competing interpretation, with the belief ids on each side and why the dominant one wins), \`insufficient\`
(the best candidate has credence below one half or confidence below 0.1: say so rather than answer) and \`no_answer\`.

A misread relation is corrected with \`POST …/evidence/{id}/relation\` (\`{beliefId, relation, reason}\`; \`relation\` is
\`SUPPORTS\`, \`REBUTS\`, \`CONTEXTUALIZES\` or \`UNRELATED\`, which counts for nothing): one \`revised\` history item per
entry of the evidence on the belief, so credence and tension move at once and replay reproduces them. The answer's
\`correction\` says who, when, from, to and why, with the belief's figures \`before\` and \`after\`; the undo is the same
call back to \`correction.from\`. A field to fix is named: \`relation\` when the evidence already bears that way, \`seq\`
(one entry) when its entries on the belief disagree, \`beliefId\` when it has no live entry there, \`evidenceId\` while its
reading is still undecided (decide the reading instead).

## Errors

Always \`{"error": {"code", "message", "details"}}\`, never a stack trace, never a 5xx for bad input.

| status | code(s) | when |
|---|---|---|
| 400 | \`malformed_json\`, \`malformed_path\` | the body is not JSON; the path is not valid percent-encoding |
| 401 | \`unauthenticated\` | no, malformed, unknown or revoked token |
| 403 | \`forbidden\` | the caller can see the thing but its role does not allow the action (a viewer writing, an editor deciding a mutation, a scope-limited token creating a scope); a session's write from another origin |
| 404 | \`not_found\` | the scope or id does not exist **or** is outside the caller's authorised view (identical answers) |
| 405 | \`method_not_allowed\` | a method the path does not answer (\`Allow\` names those it does) |
| 409 | \`conflict\`, \`oscillation_hard_stop\`, \`topic_frozen\`, \`idempotency_conflict\`, \`idempotency_in_progress\` | state conflicts; an Idempotency-Key reused for a different request; a duplicate still waiting after 30 s |
| 413 | \`payload_too_large\` | body over 1 MiB (declared or actual) |
| 415 | \`unsupported_media_type\` | a session's write without \`Content-Type: application/json\` |
| 422 | \`invalid\` | validation: \`details.fields = [{field: "evidence.0.tier", message}]\`, one per field, query parameters included (also U+0000 anywhere, an \`asOf\` or \`observedAt\` that is not an ISO-8601 date or date-time, and a bad \`Idempotency-Key\` header: \`header.Idempotency-Key\`) |
| 429 | \`rate_limited\` | the token's bucket is empty: \`Retry-After\` header (seconds), \`details: {limitPerMinute, retryAfterSeconds}\` |
| 431 | \`headers_too_large\` | the request line and headers are too large |
| 502 | \`assessment_failed\` | the configured LLM failed; nothing was written |
| 503 | \`unavailable\`, \`busy\` | the database or graph store is unreachable, or every database connection is in use; \`Retry-After\` says when to retry; nothing was written |

## Rate limits

Per token (per user for a browser session): a token bucket holding one minute's worth
(\`CREDENCE_RATE_LIMIT_PER_MINUTE\`, default 600), refilled continuously. Every answer carries \`RateLimit-Limit\` and
\`RateLimit-Remaining\`; an empty bucket answers 429 with \`Retry-After = ⌈(1 − tokens) / rate⌉\` seconds, before anything
is read or written. The MCP endpoint spends the same bucket. The buckets are shared by every app process: in Redis with \`REDIS_URL\`,
else in Postgres with \`DATABASE_URL\`; only the embedded default keeps them in its one process.

## Idempotent writes

Send \`Idempotency-Key: <1–255 printable ASCII characters>\` on any POST. Keys are stored in Postgres
(\`api_idempotency_keys\`), per principal (user + the scope its token is limited to), for 24 h:

* same key, same method + path + query + body bytes → the first answer again (status and body byte for byte, with
  \`Idempotent-Replayed: true\`), no second write — also for concurrent duplicates, which wait for the first;
* same key, anything different → 409 \`idempotency_conflict\`;
* only final answers are kept: 2xx, and 4xx apart from "not now" (408, 409 \`conflict\` or \`topic_frozen\`, 425, 429),
  after which a retry with the same key runs again; a 5xx releases the key unless its request had already written;
  malformed JSON never claims a key;
* a key whose first request died mid-way is taken over after 5 minutes.

## No oracle

A scope the caller may not read answers exactly like a scope that does not exist, and an id outside the caller's view
exactly like a missing id: same status, same body apart from the echoed slug or id, same credence effect when cited
(an unverified entry at \`model_assertion\`). By construction: one lookup per resolution with the visibility check inside
the query, so hidden and missing take the same code path. Proven by:

* \`lib/api/api-oracle.test.ts\` — records every database statement (Prisma and the SQL store through \`pg\`; Cypher on Neo4j) on the API
  path for a hidden and a missing id: the sequences are identical (texts in order, parameters apart from the id and
  clock readings) for getBelief, assimilate citing, retract (dry run and real), and unreadable-vs-missing scopes;
* \`lib/api/api.test.ts\` — every endpoint, private scope vs nonexistent scope and private id vs missing id, byte-equal
  answers; citation of a private grounded belief = citation of a missing id until a grant;
* timing: \`npm run bench:oracle\` (interleaved pairs, p50/p95 and the difference, with an A/A control row) —
  reported in BENCHMARKS.md, never asserted.

## Tests

| file | what |
|---|---|
| \`lib/api/api.test.ts\` | route handlers on embedded PGlite: 401s, deploy story, 422 fields, 400/413/403, no oracle on every endpoint, citation and grants, OpenAPI, fuzz (3 000 hostile requests: no 5xx, documented shape, nothing written) |
| \`lib/api/api-limits.test.ts\` | 429 + Retry-After per token, idempotent replay, 409 conflict, 8 concurrent duplicates → one write, expiry, per-principal keys |
| \`lib/api/api-oracle.test.ts\` | identical statement sequences for hidden vs missing, with the SQL store and with Neo4j |
| \`lib/api/api-server.test.ts\` | the production server over real HTTP, on the embedded default and on Neo4j (needs \`npx next build\` first) |
| \`lib/api/api-walkthrough.test.ts\` | runs the walkthrough below against a fresh production server and fails when this page differs from what it produced |
| \`lib/api/scopes-api.test.ts\` | scopes, members and grants over REST with the browser's authorisation rules |
| \`lib/api/event-time.test.ts\`, \`lib/api/as-of.test.ts\` | \`observedAt\` on every write and \`asOf\` on recall and ranked search |
| \`lib/api/rate-limiter.test.ts\` | the bucket's arithmetic and configuration |
| \`lib/api/openapi-contract.test.ts\` | every operation has an \`operationId\` and a named success schema; Redocly's \`recommended\` lint finds nothing; the seeds' scenarios, driven by the generated client over real HTTP (a node:http server in front of the route handlers, PGlite), answer bodies that validate against the document with Ajv (JSON Schema 2020-12 + formats), errors included |
| \`lib/api/generated-client.test.ts\` | \`tsc\` compiles the scenario script against what openapi-typescript makes of the live document (and refuses a misspelt parameter) |
`;

const intro = `
## Walkthrough

Every command below ran, in this order, against a fresh server (\`CREDENCE_DATA_DIR=$(mktemp -d) npm start -- --port 3191\`
after \`npx next build\`; the offline reader with the local embedding model, no OpenAI key), and every output is its real
answer, shaped with \`jq\`. \`lib/api/api-walkthrough.test.ts\` produced this page and fails when it no longer matches, so
it cannot drift. What changes from run to run is replaced: ids by \`b_1\`, \`ev_2\`, \`mut_1\`, \`id_3\`… (numbered in order
of appearance, so the same id reads the same everywhere), server times by \`<time 1>\`…, the reader's version by
\`<version>\`, and numbers are rounded to 4 decimals. Use the ids your own server answers.

The names are the walkthrough's own, so you can follow it on \`npm run demo\` as well (\`API=http://127.0.0.1:3000/api/v1\`);
on a server where they already exist, pick other emails and slugs. Here:

\`\`\`console
$ API=http://127.0.0.1:3191/api/v1
\`\`\`
`;

export const WALKTHROUGH: WalkthroughScript = {
  reference,
  intro,
  sections: [
    {
      title: "Setup: users and tokens with the operator CLI, a scope over the API",
      prose: `The CLI works beside the running server (it connects through the server's socket on the embedded default). An
owner and an agent get accounts, and the owner a token that is not limited to a scope, so it may create scopes.`,
      steps: [
        { kind: "cli", args: ["user", "create", "--email", OWNER_EMAIL, "--password", PASSWORD, "--name", "Olu Owner"] },
        { kind: "cli", args: ["user", "create", "--email", AGENT_EMAIL, "--password", PASSWORD, "--name", "Deploy agent"] },
        { kind: "cli", args: ["token", "create", "--email", OWNER_EMAIL, "--name", "owner"], assign: "OWNER" },
        owner({
          prose: "The owner creates the team's scope over the API and becomes its owner, then adds the agent as an editor:",
          path: "/scopes",
          body: { slug: SCOPE, name: "Walkthrough team" },
          status: 201,
          jq: "-c .",
          check: (body) => expect(asBody(body).scope).toMatchObject({ slug: SCOPE, role: "owner" }),
        }),
        owner({
          path: `${s}/members`,
          body: { email: AGENT_EMAIL, role: "editor" },
          status: 201,
          jq: "-c .",
        }),
        owner({
          prose: "A second private scope for the owner's own notes; the agent is not a member of it (it comes back under *No oracle*).",
          path: "/scopes",
          body: { slug: NOTES, name: "Owner notes" },
          status: 201,
          jq: "-c .",
        }),
        {
          kind: "cli",
          prose: "The agent's token, limited to the team's scope:",
          args: ["token", "create", "--email", AGENT_EMAIL, "--name", "deploy agent", "--scope", SCOPE],
          assign: "TOKEN",
        },
        agent({
          prose: "The token's scopes, with its role in each (a scope-limited token lists its own scope only), and the refusal when it tries to create one:",
          path: "/scopes",
          status: 200,
          jq: "-c .",
          check: (body) => expect(asBody(body).scopes).toEqual([{ slug: SCOPE, name: "Walkthrough team", public: false, role: "editor" }]),
        }),
        agent({ path: "/scopes", body: { slug: "agent-scope", name: "Agent scope" }, status: 403, showStatus: true }),
      ],
    },
    {
      title: "Deploy branch: ingest with event time, disagreement, contested recall, asOf",
      prose: `Two statements about the deploy branch, each with the time it was made (\`observedAt\`): Monday's, then Thursday's,
which contradicts it. A dry run stages the change-set and writes nothing; then Monday's statement commits, and
Thursday's rebuts it (it also becomes a belief of its own, docs/design.md §4.3).`,
      steps: [
        agent({
          path: `${s}/ingest`,
          query: [["dryRun", "true"]],
          body: { text: "Deploys go from the main branch.", observedAt: MONDAY_AT },
          status: 200,
          jq: `-c '{outcome, discarded, ess: .ess.ess, created: [.changes.created[] | {text, credence: .after.credence}]}'`,
          check: (body) => expect(asBody(body).outcome).toBe("dry_run"),
        }),
        agent({
          path: `${s}/ingest`,
          body: { text: "Deploys go from the main branch.", topic: "deploy branch", observedAt: MONDAY_AT },
          status: 200,
          jq: `-c '{outcome, evidence: .evidence | {id, observedAt}, created: [.changes.created[] | {beliefId, credence: .after.credence}]}'`,
          capture: { name: "MONDAY", jq: ".changes.created[0].beliefId", note: "the new belief's id, from the output above" },
        }),
        agent({
          path: `${s}/ingest`,
          body: { text: "Deploys go out from the protected release branch; nothing is ever deployed from the main branch.", observedAt: THURSDAY_AT },
          status: 200,
          jq: `'{outcome, created: [.changes.created[] | {beliefId, credence: .after.credence}], revised: [.changes.revised[] | {beliefId, before: .before.credence, after: .after.credence}], disagreements: [.disagreements[] | {beliefId, strength, reasoning}]}'`,
          check: (body) => expect((asBody(body).disagreements as { beliefId: string }[]).length).toBeGreaterThan(0),
        }),
        agent({
          prose: "Recall now: `contested`, with Thursday's release branch dominant and the reason in words.",
          path: `${s}/recall`,
          query: [["q", "Which branch do we deploy from?"]],
          status: 200,
          jq: ".",
          check: (body) => expect(asBody(body)).toMatchObject({ mode: "contested", dominantAnswer: expect.stringContaining("release branch") }),
        }),
        agent({
          prose: `The same question \`asOf\` Tuesday, when only Monday's statement had been made: one observation is too little to
rely on (confidence below 0.1), so recall says \`insufficient\` rather than answer.`,
          path: `${s}/recall`,
          query: [
            ["q", "Which branch do we deploy from?"],
            ["asOf", TUESDAY],
          ],
          status: 200,
          jq: `-c '{mode, dominantAnswer, whyDominantWins, confidence, beliefIds}'`,
          check: (body) => expect(asBody(body)).toMatchObject({ mode: "insufficient", dominantAnswer: "Deploys go from the main branch." }),
        }),
      ],
    },
    {
      title: "A belief's history",
      prose: `Monday's belief with its history: one entry per piece of evidence, each with when it was observed (\`observedAt\`)
and when it was recorded (\`time\`). Thursday's statement rebuts it at the observation tier; the belief as it stood on
Tuesday (\`asOf\`) is replayed from the entries observed by then; and the stored state always equals the replay of the
history.`,
      steps: [
        agent({
          path: `${s}/beliefs/$MONDAY`,
          status: 200,
          jq: `'.belief | {text, credence, confidence, tension, status, history: [.history[] | select(.type == "entry") | {seq, relation, sourceId, tier, verified, weight, ess, contribution, observedAt, time}]}'`,
          check: (body) => {
            const entries = ((asBody(body).belief as Body).history as Body[]).filter((item) => item.type === "entry");
            expect(entries.map((e) => e.relation)).toEqual(["SUPPORTS", "REBUTS"]);
          },
        }),
        agent({
          path: `${s}/beliefs/$MONDAY`,
          query: [["asOf", TUESDAY]],
          status: 200,
          jq: `-c '{asOf, credence: .belief.credence, entries: [.belief.history[] | select(.type == "entry") | .seq]}'`,
        }),
        agent({ path: `${s}/beliefs/$MONDAY/replay`, status: 200, jq: `-c '{matches, stored: .stored.credence}'`, check: (body) => expect(asBody(body).matches).toBe(true) }),
      ],
    },
    {
      title: "Evidence + assimilate: a verified item, a made-up id, a restatement",
      prose: `An executable check is registered as evidence and cited with a made-up id beside it. The made-up id is
unverified: it counts as a model assertion, exactly as an id hidden in another scope would. The answer's \`belief\`
carries its whole \`history\`.`,
      steps: [
        agent({
          path: `${s}/evidence`,
          body: { kind: "executable_check", text: "CI job release-smoke passed on the release branch build." },
          status: 201,
          assign: { name: "EV", jq: ".evidence.id" },
        }),
        agent({
          path: `${s}/assimilate`,
          body: {
            claim: "The release pipeline is safe to deploy from.",
            topic: "release pipeline",
            evidence: [
              { sourceId: "$EV", tier: "executable_check", direction: "+" },
              { sourceId: "ev_made_up", tier: "document", direction: "+" },
            ],
          },
          status: 200,
          jq: `'{created, belief: .belief | {id, credence, status, evidenceCount}, entries: [.entries[] | {sourceId, tier, effectiveTier, verified, contribution}]}'`,
          capture: { name: "SAFE", jq: ".belief.id" },
          check: (body) => {
            const entries = asBody(body).entries as Body[];
            expect(entries[0]).toMatchObject({ verified: true, effectiveTier: "executable_check" });
            expect(entries[1]).toMatchObject({ sourceId: "ev_made_up", verified: false, effectiveTier: "model_assertion" });
          },
        }),
        agent({
          prose: `The same claim in other words: \`assimilate\` reads it as a restatement of the live belief and reinforces that
belief (\`created: false\`, the same id) instead of starting a second one.`,
          path: `${s}/assimilate`,
          body: { claim: "It is safe to deploy from the release pipeline.", evidence: [{ tier: "observation" }] },
          status: 200,
          jq: `-c '{created, belief: .belief | {id, text, credence}}'`,
          check: (body) => expect(asBody(body).created).toBe(false),
        }),
        agent({
          prose: "With `match: \"exact\"` the claim is written verbatim, matched only by its normalised text: a new belief.",
          path: `${s}/assimilate`,
          body: { claim: "It is safe to deploy from the release pipeline.", match: "exact", evidence: [{ tier: "observation" }] },
          status: 200,
          jq: `-c '{created, belief: .belief | {id, text, credence}}'`,
          check: (body) => expect(asBody(body).created).toBe(true),
        }),
        agent({
          prose: "A bad body answers 422 naming every field:",
          path: `${s}/assimilate`,
          body: { claim: "Deploys are fast.", evidence: [{ tier: "hearsay", direction: "sideways" }] },
          status: 422,
          jq: "-c .",
        }),
      ],
    },
    {
      title: "Mutation + review (with an Idempotency-Key)",
      prose: `Four policy documents ground a belief that the rate limit is 100 requests per minute (canonical); recall answers
it \`settled\`. An agent proposes 50 per minute from one observation: the protocol refuses to auto-resolve and queues
it for review. The same key and body replays the answer (no second mutation); the same key with another body is a
409.`,
      steps: [
        ...[1, 2, 3, 4].map(
          (n): HttpStep =>
            agent({
              path: `${s}/evidence`,
              body: { kind: "document", text: `API gateway policy ${n}: 100 requests per minute per token.` },
              status: 201,
              assign: { name: `DOC${n}`, jq: ".evidence.id" },
            }),
        ),
        agent({
          path: `${s}/assimilate`,
          body: {
            claim: "The public API rate limit is 100 requests per minute.",
            topic: "api rate limit",
            evidence: [1, 2, 3, 4].map((n) => ({ sourceId: `$DOC${n}`, tier: "document" })),
          },
          status: 200,
          jq: `-c '.belief | {id, credence, confidence, status}'`,
          check: (body) => expect((asBody(body).belief as Body).status).toBe("canonical"),
        }),
        agent({
          path: `${s}/recall`,
          query: [["q", "What is the public API rate limit?"]],
          status: 200,
          jq: `-c '{mode, dominantAnswer, whyDominantWins, confidence}'`,
          check: (body) => expect(asBody(body).mode).toBe("settled"),
        }),
        agent({
          path: `${s}/evidence`,
          body: { kind: "observation", text: "An integration test saw HTTP 429 responses at 50 requests per minute." },
          status: 201,
          assign: { name: "SIGHT", jq: ".evidence.id" },
        }),
        agent({
          path: `${s}/mutations`,
          headers: { "Idempotency-Key": "rate-limit-50-v1" },
          body: { belief: "The public API rate limit is 50 requests per minute.", strength: 0.7, reason: "Seen by the integration test.", evidenceIds: ["$SIGHT"], sourceEvent: "$SIGHT", mutationType: "updated" },
          status: 201,
          jq: `'.mutation | {id, decision, status, warnings, grantedCredence, conflictReport: .conflictReport | {existingText, decision, reasoning}}'`,
          capture: { name: "MUT", jq: ".mutation.id" },
          check: (body) => expect((asBody(body).mutation as Body).status).toBe("pending_review"),
        }),
        agent({
          path: `${s}/mutations`,
          headers: { "Idempotency-Key": "rate-limit-50-v1" },
          body: { belief: "The public API rate limit is 50 requests per minute.", strength: 0.7, reason: "Seen by the integration test.", evidenceIds: ["$SIGHT"], sourceEvent: "$SIGHT", mutationType: "updated" },
          status: 201,
          pipe: "-D - -o /dev/null | grep -iE '^(HTTP|idempotent-replayed)'",
        }),
        agent({
          path: `${s}/mutations`,
          headers: { "Idempotency-Key": "rate-limit-50-v1" },
          body: { belief: "The public API rate limit is 60 requests per minute.", strength: 0.7, reason: "Seen by the integration test.", evidenceIds: ["$SIGHT"], sourceEvent: "$SIGHT", mutationType: "updated" },
          status: 409,
          jq: "-c .",
        }),
        agent({
          prose: "The review queue, then the agent (an editor) trying to approve its own proposal, and the owner approving it with `supersede`:",
          path: `${s}/mutations`,
          query: [["status", "pending_review"]],
          status: 200,
          jq: `-c '[.mutations[] | {id, belief, decision, status}]'`,
        }),
        agent({ path: `${s}/mutations/$MUT/decision`, body: { decision: "approve", note: "agent approving itself" }, status: 403, jq: "-c ." }),
        owner({
          path: `${s}/mutations/$MUT/decision`,
          body: { decision: "approve", resolution: "supersede", note: "Gateway configuration changed; 50 a minute is current." },
          status: 200,
          jq: `-c '{mutation: .mutation | {id, status, decision}, belief: .belief | {id, text, credence, status, supersedesId}}'`,
          check: (body) => expect((asBody(body).belief as Body).supersedesId).toEqual(expect.any(String)),
        }),
        agent({
          prose: `Recall follows the supersession to the new belief, which rests on one observation: \`insufficient\`, with the
reason, where the old document-backed answer was \`settled\`.`,
          path: `${s}/recall`,
          query: [["q", "What is the public API rate limit?"]],
          status: 200,
          jq: `-c '{mode, dominantAnswer, whyDominantWins, confidence}'`,
          check: (body) => expect(asBody(body)).toMatchObject({ mode: "insufficient", dominantAnswer: "The public API rate limit is 50 requests per minute." }),
        }),
      ],
    },
    {
      title: "Retraction: dry run, then for real",
      prose: `Retracting the CI check: the dry run reports what would move and writes nothing (the belief reads as before); the
real retraction appends \`retracted\` events and replays.`,
      steps: [
        agent({
          path: `${s}/retractions`,
          query: [["dryRun", "true"]],
          body: { sourceId: "$EV" },
          status: 200,
          jq: `'{dryRun, changeSetId, touched: [.touched[] | {id, text, before: .before.credence, after: .credence, retractedSeqs}]}'`,
          check: (body) => expect(asBody(body)).toMatchObject({ dryRun: true, changeSetId: null }),
        }),
        agent({ path: `${s}/beliefs/$SAFE`, status: 200, jq: `-c '.belief | {credence, status}'` }),
        agent({
          path: `${s}/retractions`,
          body: { sourceId: "$EV" },
          status: 200,
          jq: `-c '{dryRun, touched: [.touched[] | {id, after: .credence, retractedSeqs}]}'`,
          check: (body) => expect(asBody(body).dryRun).toBe(false),
        }),
      ],
    },
    {
      title: "Search, no oracle, graph",
      prose: `Ranked search (relevance × credence), now and \`asOf\` Tuesday. Then the agent asks the owner's private notes
scope for Monday's belief: the answer is the one a scope that does not exist gets (only the echoed slug differs).`,
      steps: [
        agent({ path: `${s}/beliefs`, query: [["q", "deploy branch"], ["k", "3"]], status: 200, jq: `-c '[.beliefs[] | {text, credence, relevance, score}]'` }),
        agent({
          path: `${s}/beliefs`,
          query: [
            ["q", "deploy branch"],
            ["asOf", TUESDAY],
          ],
          status: 200,
          jq: `-c '[.beliefs[] | {text, credence}]'`,
          check: (body) => expect((asBody(body).beliefs as Body[]).map((b) => b.text)).toEqual(["Deploys go from the main branch."]),
        }),
        agent({ path: `/scopes/${NOTES}/beliefs/$MONDAY`, status: 404, showStatus: true }),
        agent({ path: "/scopes/no-such-scope/beliefs/$MONDAY", status: 404, showStatus: true }),
        agent({
          path: `${s}/graph`,
          status: 200,
          jq: `-c '{nodes: (.nodes | length), edges: [.edges[].data.type] | group_by(.) | map({(.[0]): length}) | add}'`,
        }),
      ],
    },
    {
      title: "Jobs: long work in the background",
      prose: `\`POST /jobs\` queues an ingest or a harvest (its \`input\` is the synchronous operation's body) and answers 202 at
once; \`GET /jobs/{id}/events\` streams the job each time it changes and ends when it has succeeded or failed, and
\`GET /jobs/{id}\` reads it. Another caller's job answers like a missing one.`,
      steps: [
        agent({
          path: "/jobs",
          body: { kind: "ingest", scope: SCOPE, input: { text: "Release builds are signed with the team key.", topic: "release pipeline" } },
          status: 202,
          jq: `-c '{id, kind, scope, state}'`,
          capture: { name: "JOB", jq: ".id" },
        }),
        agent({
          prose: "Follow it to the end (the last event is the finished job):",
          path: "/jobs/$JOB/events",
          status: 200,
          pipe: `-N | sed -n 's/^data: //p' | tail -n 1 | jq -c '{state, attempts, outcome: .result.outcome}'`,
        }),
        agent({
          path: "/jobs/$JOB",
          status: 200,
          jq: `-c '{state, result: .result | {outcome, created: [.changes.created[] | {beliefId, credence: .after.credence}]}}'`,
          check: (body) => expect(asBody(body).state).toBe("succeeded"),
        }),
      ],
    },
  ],
  outro: `
### What the walkthrough shows

* **Scopes over the API**: an owner's unrestricted token creates scopes and adds members; a scope-limited token sees
  its own scope only and may not create one.
* **Event time**: Thursday's statement rebuts Monday's belief; recall is \`contested\` now and \`insufficient\` as of
  Tuesday, when only Monday's single observation existed; the belief's history keeps when each thing was observed and
  when it was recorded.
* **Evidence + assimilate**: the executable check counts at its tier; the made-up id is unverified and capped at
  \`model_assertion\`, the same as any id hidden in another scope. A restatement reinforces the belief it restates;
  \`match: "exact"\` writes a claim as stated.
* **Mutation + review**: the protocol queues a numeric conflict with a canonical belief for review; an editor may
  not decide (403, it can see the mutation); the owner approves with \`supersede\`, and recall follows the chain to an
  answer too weakly supported to give (\`insufficient\`).
* **Retraction**: the dry run reports the drop without writing; the real retraction applies it.
* **No oracle**: a private scope answers the agent like \`no-such-scope\`.
* **Jobs**: queued work is followed to its end and read back with the synchronous operation's answer.
`,
};
