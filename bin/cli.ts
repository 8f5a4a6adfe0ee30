/**
 * Operator CLI: `npm run cli -- <command> [options]`. Works on a fresh data folder (migrating it), on a folder a
 * running server holds (through the server's socket, never opening the folder twice), and with DATABASE_URL.
 * Results go to stdout (`token create` prints the token alone); errors go to stderr as one line, exit code 1
 * (2 for usage errors).
 */
// Only light modules are imported here: `--help` and a usage error load nothing else, and a command loads the database,
// the services and what they need when it runs (lib/beliefs/get-belief-services: identity commands never load the
// assessor, the embedding runtime or a graph store).
import { parseArgs } from "node:util";
import type { Database } from "@/lib/db/database";
import { OPERATOR } from "@/lib/access/principal";
import type { BeliefServices } from "@/lib/beliefs/belief-services";
import type { ComposedServices } from "@/lib/beliefs/get-belief-services";
import type { GraphStore } from "@/lib/graph/graph-store";
import { isRole, ROLES } from "@/lib/access/roles";

class UsageError extends Error {}

type Options = Record<string, string | boolean | undefined>;
type Command = {
  usage: string;
  options: Record<string, { type: "string" | "boolean" }>;
  required: string[];
  /** Resolves to the exit code when it is not 0 (a replay mismatch, a refused import). */
  run(services: BeliefServices, options: Options, out: (line: string) => void, db: Database, store: () => Promise<GraphStore>): Promise<void | number>;
};

const cliIo = {
  out: (text: string) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};


const str = { type: "string" } as const;
const bool = { type: "boolean" } as const;

function text(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== "string") throw new UsageError(`missing --${name}`);
  return value;
}

function optionalText(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === "string" ? value : undefined;
}

function role(options: Options): (typeof ROLES)[number] {
  const value = text(options, "role");
  if (!isRole(value)) throw new UsageError(`bad role "${value}": use ${ROLES.join(", ")}`);
  return value;
}

const COMMANDS: Record<string, Command> = {
  "user create": {
    usage: "user create --email E --password P [--name N]",
    options: { email: str, password: str, name: str },
    required: ["email", "password"],
    async run(services, o, out) {
      const user = await services.createUser(OPERATOR, { email: text(o, "email"), password: text(o, "password"), name: optionalText(o, "name") });
      out(`created user ${user.email} (${user.id})`);
    },
  },
  "user list": {
    usage: "user list",
    options: {},
    required: [],
    async run(services, _o, out) {
      for (const user of await services.listUsers(OPERATOR)) out(`${user.email}\t${user.name ?? ""}\t${user.id}`);
    },
  },
  "user set-password": {
    usage: "user set-password --email E --password P",
    options: { email: str, password: str },
    required: ["email", "password"],
    async run(services, o, out) {
      await services.setPassword(OPERATOR, { email: text(o, "email"), password: text(o, "password") });
      out(`password set for ${text(o, "email").toLowerCase()}`);
    },
  },
  "scope create": {
    usage: "scope create --slug S --name N --owner E [--public]",
    options: { slug: str, name: str, owner: str, public: bool },
    required: ["slug", "name", "owner"],
    async run(services, o, out) {
      const scope = await services.createScope(OPERATOR, { slug: text(o, "slug"), name: text(o, "name"), ownerEmail: text(o, "owner"), isPublic: o.public === true });
      out(`created scope ${scope.slug} (${scope.id}), owner ${text(o, "owner").toLowerCase()}${scope.isPublic ? ", public" : ""}`);
    },
  },
  "scope list": {
    usage: "scope list",
    options: {},
    required: [],
    async run(services, _o, out) {
      for (const scope of await services.listAllScopes(OPERATOR)) {
        out(`${scope.slug}\t${scope.name}\t${scope.isPublic ? "public" : "private"}\t${scope.memberCount} members`);
      }
    },
  },
  "scope set-public": {
    usage: "scope set-public --scope S [--private]",
    options: { scope: str, private: bool },
    required: ["scope"],
    async run(services, o, out) {
      await services.setScopePublic(OPERATOR, text(o, "scope"), { isPublic: o.private !== true });
      out(`${text(o, "scope")} is now ${o.private === true ? "private" : "public"}`);
    },
  },
  "member add": {
    usage: "member add --scope S --email E --role viewer|editor|reviewer|owner",
    options: { scope: str, email: str, role: str },
    required: ["scope", "email", "role"],
    async run(services, o, out) {
      const member = await services.addMember(OPERATOR, text(o, "scope"), { email: text(o, "email"), role: role(o) });
      out(`added ${member.email} to ${text(o, "scope")} as ${member.role}`);
    },
  },
  "member role": {
    usage: "member role --scope S --email E --role viewer|editor|reviewer|owner",
    options: { scope: str, email: str, role: str },
    required: ["scope", "email", "role"],
    async run(services, o, out) {
      await services.changeRole(OPERATOR, text(o, "scope"), { email: text(o, "email"), role: role(o) });
      out(`${text(o, "email").toLowerCase()} is now ${role(o)} in ${text(o, "scope")}`);
    },
  },
  "member remove": {
    usage: "member remove --scope S --email E",
    options: { scope: str, email: str },
    required: ["scope", "email"],
    async run(services, o, out) {
      await services.removeMember(OPERATOR, text(o, "scope"), { email: text(o, "email") });
      out(`removed ${text(o, "email").toLowerCase()} from ${text(o, "scope")}`);
    },
  },
  "member list": {
    usage: "member list --scope S",
    options: { scope: str },
    required: ["scope"],
    async run(services, o, out) {
      for (const member of await services.listMembers(OPERATOR, text(o, "scope"))) out(`${member.email}\t${member.role}`);
    },
  },
  "grant add": {
    usage: "grant add --from S --to T   (scope T may then resolve scope S's items)",
    options: { from: str, to: str },
    required: ["from", "to"],
    async run(services, o, out) {
      const grant = await services.addGrant(OPERATOR, text(o, "from"), { toSlug: text(o, "to") });
      out(`${grant.toSlug} may now resolve ${grant.fromSlug}'s items`);
    },
  },
  "grant remove": {
    usage: "grant remove --from S --to T",
    options: { from: str, to: str },
    required: ["from", "to"],
    async run(services, o, out) {
      await services.removeGrant(OPERATOR, text(o, "from"), { toSlug: text(o, "to") });
      out(`${text(o, "to")} may no longer resolve ${text(o, "from")}'s items`);
    },
  },
  "token create": {
    usage: "token create --email E [--name N] [--scope S]   (prints the token alone)",
    options: { email: str, name: str, scope: str },
    required: ["email"],
    async run(services, o, out) {
      const created = await services.createToken(OPERATOR, { email: text(o, "email"), name: optionalText(o, "name") ?? "cli", scopeSlug: optionalText(o, "scope") });
      out(created.token);
    },
  },
  "token list": {
    usage: "token list --email E",
    options: { email: str },
    required: ["email"],
    async run(services, o, out) {
      for (const token of await services.listTokens(OPERATOR, { email: text(o, "email") })) {
        const state = token.revokedAt ? "revoked" : "active";
        out(`${token.id}\t${token.prefix}…\t${token.name}\t${token.scopeSlug ?? "(all scopes)"}\t${state}\t${token.lastUsedAt?.toISOString() ?? "never used"}`);
      }
    },
  },
  "token revoke": {
    usage: "token revoke --id ID",
    options: { id: str },
    required: ["id"],
    async run(services, o, out) {
      await services.revokeToken(OPERATOR, { tokenId: text(o, "id") });
      out(`revoked ${text(o, "id")}`);
    },
  },
  "replay check": {
    usage: "replay check [--scope S]   (exit 1 on any mismatch between a stored belief and the replay of its history)",
    options: { scope: str },
    required: [],
    async run(services, o) {
      const { replayCheckCommand } = await import("@/lib/beliefs/cli-commands");
      return replayCheckCommand(services, { scope: optionalText(o, "scope") }, cliIo);
    },
  },
  export: {
    usage: "export --scope S [--as-of ISO]   (the scope as JSON on stdout)",
    options: { scope: str, "as-of": str },
    required: ["scope"],
    async run(services, o) {
      const { exportCommand } = await import("@/lib/beliefs/cli-commands");
      const asOf = optionalText(o, "as-of");
      return exportCommand(services, { scope: text(o, "scope"), ...(asOf ? { asOf } : {}) }, cliIo);
    },
  },
  "export-readings": {
    usage: "export-readings --scope S [--source person|reader]   (labelled belief/evidence pairs as JSON lines; `read relations` reads them)",
    options: { scope: str, source: str },
    required: ["scope"],
    async run(services, o) {
      const { exportReadingsCommand } = await import("@/lib/beliefs/cli-commands");
      const source = optionalText(o, "source");
      return exportReadingsCommand(services, { scope: text(o, "scope"), ...(source !== undefined ? { source } : {}) }, cliIo);
    },
  },
  import: {
    usage: "import --scope S   (JSON from stdin, into an empty scope)",
    options: { scope: str },
    required: ["scope"],
    async run(services, o) {
      const { importCommand } = await import("@/lib/beliefs/cli-commands");
      return importCommand(services, { scope: text(o, "scope") }, cliIo);
    },
  },
  "params show": {
    usage: "params show --scope S   (the scope's current parameter set as JSON)",
    options: { scope: str },
    required: ["scope"],
    async run(services, o) {
      const { paramsShowCommand } = await import("@/lib/beliefs/cli-commands");
      return paramsShowCommand(services, { scope: text(o, "scope") }, cliIo);
    },
  },
  "params set": {
    usage: "params set --scope S   (a new parameter version from JSON on stdin)",
    options: { scope: str },
    required: ["scope"],
    async run(services, o) {
      const { paramsSetCommand } = await import("@/lib/beliefs/cli-commands");
      return paramsSetCommand(services, { scope: text(o, "scope") }, cliIo);
    },
  },
  "embeddings status": {
    usage: "embeddings status [--scope S]   (beliefs and evidence texts with a current vector of the configured model)",
    options: { scope: str },
    required: [],
    async run(services, o, out) {
      const slugs = o.scope ? [text(o, "scope")] : (await services.listAllScopes(OPERATOR)).map((s) => s.slug);
      for (const slug of slugs) {
        const s = await services.embeddingStatus(OPERATOR, slug);
        out(`${slug}\t${s.model}\tbeliefs ${s.beliefs.current}/${s.beliefs.total}\tevidence ${s.evidence.current}/${s.evidence.total}`);
      }
    },
  },
  "embeddings rebuild": {
    usage: "embeddings rebuild [--scope S]   (embeds what is missing or stale, e.g. after a model change; progress on stderr)",
    options: { scope: str },
    required: [],
    async run(services, o, out) {
      const slugs = o.scope ? [text(o, "scope")] : (await services.listAllScopes(OPERATOR)).map((s) => s.slug);
      for (const slug of slugs) {
        const result = await services.rebuildEmbeddings(OPERATOR, slug, {
          onProgress: (p) => cliIo.err(`embeddings rebuild: ${p.scope} ${p.done}/${p.total}`),
        });
        out(`${slug}\t${result.model}\tembedded ${result.embedded}\tbeliefs ${result.beliefs.current}/${result.beliefs.total}\tevidence ${result.evidence.current}/${result.evidence.total}`);
      }
    },
  },
  "demo seed": {
    usage: "demo seed   (the demo's users, scopes and stories, as `npm run demo` seeds them; a folder that has them is left as it is)",
    options: {},
    required: [],
    async run(_services, _o, out, db, store) {
      const { seedDemo } = await import("./seed-demo");
      out(await seedDemo(db, store));
    },
  },
  "db migrate": {
    usage: "db migrate   (applies pending migrations; every command does this first)",
    options: {},
    required: [],
    async run(_services, _o, out, db) {
      out(db.appliedMigrations.length ? `applied ${db.appliedMigrations.join(", ")}` : `up to date (${db.describe()})`);
    },
  },
};

const READ_USAGE = "read relations|restatements|messages   (JSON lines on stdin, one JSON line per input on stdout; read --help)";

function help(): string {
  return ["usage: npm run cli -- <command> [options]", "", ...[...Object.values(COMMANDS).map((c) => c.usage), READ_USAGE].map((u) => `  ${u}`)].join("\n");
}

/** `read KIND`: the batch reader (lib/beliefs/batch-read). Opens no database: it only reads text. */
async function readCommand(args: string[], out: (line: string) => void, fail: (message: string, code: number) => number): Promise<number> {
  const { composeReader, READ_HELP, READ_KINDS, readBatch } = await import("@/lib/beliefs/batch-read");
  if (args.length === 0 || args.includes("--help") || args[0] === "help") {
    out(READ_HELP);
    return args.length === 0 ? 2 : 0;
  }
  const kind = READ_KINDS.find((k) => k === args[0]);
  if (kind === undefined || args.length > 1) return fail(`usage: ${READ_USAGE}`, 2);
  const { createInterface } = await import("node:readline");
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const failed = await readBatch(kind, composeReader(), lines, out);
  return failed > 0 ? 1 : 0;
}

export async function main(argv: string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const fail = (message: string, code: number) => {
    process.stderr.write(`error: ${message.replace(/\s*\n\s*/g, " ")}\n`);
    return code;
  };
  if (argv.length === 0 || argv[0] === "help" || argv[0] === "--help") {
    out(help());
    return 0;
  }
  if (argv[0] === "read") return readCommand(argv.slice(1), out, fail);
  const twoWords = `${argv[0]} ${argv[1] ?? ""}`.trim();
  const key = COMMANDS[twoWords] ? twoWords : (argv[0] ?? "");
  const command = COMMANDS[key];
  if (!command) return fail(`unknown command "${key}"; run "npm run cli -- help"`, 2);

  let options: Options;
  try {
    options = parseArgs({ args: argv.slice(key.split(" ").length), options: command.options, strict: true, allowPositionals: false }).values;
    for (const name of command.required) if (options[name] === undefined) throw new UsageError(`missing --${name}`);
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}; usage: ${command.usage}`, 2);
  }

  let db: Database | undefined;
  let composed: ComposedServices | undefined;
  try {
    const [{ databaseConfigFromEnv, openDatabase }, { getEnv }, { composeServices }] = await Promise.all([
      import("@/lib/db/database"),
      import("@/lib/env"),
      import("@/lib/beliefs/get-belief-services"),
    ]);
    db = await openDatabase(databaseConfigFromEnv(getEnv(), { owner: "credence cli", ifHeld: "connect", maxConnections: 2 }));
    composed = await composeServices(db);
    return (await command.run(composed.services, options, out, db, composed.store)) ?? 0;
  } catch (error) {
    // A refusal (BeliefServiceError), a usage error found late, a held data folder, a database that cannot be reached:
    // the message is the line.
    return fail(error instanceof Error ? error.message : String(error), 1);
  } finally {
    await composed?.close();
    await db?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
