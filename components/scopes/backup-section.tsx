"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Label, buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";
import { Section } from "./section";

/** The largest file the import accepts (the server refuses a bigger one too). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

type Outcome =
  | { ok: true; slug: string; beliefs: number; evidence: number; historyItems: number }
  | { ok: false; message: string; fields: Record<string, string> };

const errorId = (field: string) => `backup-${field}-error`;

function FieldProblem({ outcome, field }: { outcome: Outcome | null; field: string }) {
  const message = outcome && !outcome.ok ? outcome.fields[field] : undefined;
  return message ? <p id={errorId(field)} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">{message}</p> : null;
}

/** The service's answer, as the form shows it: field messages beside their inputs, the rest above the button. */
async function outcomeOf(response: Response, slug: string): Promise<Outcome> {
  const body = (await response.json().catch(() => null)) as
    | { beliefs: number; evidence: number; historyItems: number }
    | { error?: { message?: string; details?: { fields?: { field: string; message: string }[] } } }
    | null;
  if (response.ok && body && "beliefs" in body) return { ok: true, slug, beliefs: body.beliefs, evidence: body.evidence, historyItems: body.historyItems };
  const error = body && "error" in body ? body.error : undefined;
  const fields: Record<string, string> = {};
  for (const f of error?.details?.fields ?? []) if (f.field === "slug" || f.field === "name" || f.field === "file") fields[f.field] ??= f.message;
  if (response.status === 409 && /slug/.test(error?.message ?? "")) fields.slug ??= error?.message ?? "";
  return { ok: false, message: error?.message ?? `The import failed (HTTP ${response.status}); nothing was written.`, fields };
}

/**
 * For the scope's owners: download the scope as JSON or as a zip with its history, and restore a backup into a new scope
 * (created by the import) or into an empty scope they own. The server checks the file, the role and the target; a
 * refused import writes nothing.
 */
export function BackupSection({ scope, ownedScopes }: { scope: string; ownedScopes: { slug: string; name: string }[] }) {
  const router = useRouter();
  const [target, setTarget] = useState<"new" | "existing">("new");
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) {
      setOutcome({ ok: false, message: "Choose a backup file.", fields: { file: "Choose a .json or .zip file downloaded from a scope's Settings." } });
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setOutcome({ ok: false, message: "The file is too big.", fields: { file: `The file is too big: at most ${MAX_FILE_BYTES / 1024 / 1024} MB.` } });
      return;
    }
    const slug = String(form.get(target === "new" ? "slug" : "existing") ?? "").trim().toLowerCase();
    if (slug === "") {
      setOutcome({ ok: false, message: "Name the scope to import into.", fields: target === "new" ? { slug: "Required." } : {} });
      return;
    }
    const query = target === "new" ? `?create=1&name=${encodeURIComponent(String(form.get("name") ?? ""))}` : "";
    setPending(true);
    setOutcome(null);
    try {
      const response = await fetch(`/scopes/${encodeURIComponent(slug)}/import${query}`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: file,
      });
      const result = await outcomeOf(response, slug);
      setOutcome(result);
      if (result.ok) router.refresh();
    } catch {
      setOutcome({ ok: false, message: "The server could not be reached; nothing was imported. Try again.", fields: {} });
    } finally {
      setPending(false);
    }
  }

  const invalid = (field: string) => (outcome && !outcome.ok && outcome.fields[field] ? { "aria-invalid": true, "aria-describedby": errorId(field) } : {});
  return (
    <Section
      title="Back up and restore"
      description="Download this scope as JSON (the same file as the CLI's export), or as a zip that adds each belief's history as its own file. Restore a backup into a new scope, or into an empty scope you own."
      testId="backup"
    >
      <div className="flex flex-wrap gap-2">
        <a href={`/scopes/${scope}/export?format=json`} download className={secondaryButtonClass} data-testid="export-json">
          Download JSON
        </a>
        <a href={`/scopes/${scope}/export?format=zip`} download className={secondaryButtonClass} data-testid="export-zip">
          Download zip with history
        </a>
      </div>
      <form onSubmit={onSubmit} className="mt-5 space-y-3" aria-label="Import a backup" noValidate>
        <div>
          <Label htmlFor="backup-file">Backup file (.json or .zip)</Label>
          <input id="backup-file" name="file" type="file" accept=".json,.zip,application/json,application/zip" className={`${inputClass} file:mr-3 file:rounded file:border-0 file:bg-zinc-100 file:px-2 file:py-1 dark:file:bg-zinc-800`} {...invalid("file")} />
          <FieldProblem outcome={outcome} field="file" />
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-zinc-700 dark:text-zinc-300">Import into</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="target" value="new" checked={target === "new"} onChange={() => setTarget("new")} className="size-4" /> a new scope
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="target" value="existing" checked={target === "existing"} onChange={() => setTarget("existing")} disabled={ownedScopes.length === 0} className="size-4" />
            an empty scope I own{ownedScopes.length === 0 ? " (none)" : ""}
          </label>
        </fieldset>
        {target === "new" ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <div>
              <Label htmlFor="backup-name">New scope&apos;s name</Label>
              <input id="backup-name" name="name" required className={inputClass} placeholder="Platform (restored)" {...invalid("name")} />
              <FieldProblem outcome={outcome} field="name" />
            </div>
            <div>
              <Label htmlFor="backup-slug">New scope&apos;s slug</Label>
              <input id="backup-slug" name="slug" required className={inputClass} placeholder="platform-restored" {...invalid("slug")} />
              <FieldProblem outcome={outcome} field="slug" />
            </div>
          </div>
        ) : (
          <div>
            <Label htmlFor="backup-existing">Scope to import into (it must be empty)</Label>
            <select id="backup-existing" name="existing" className={inputClass}>
              {ownedScopes.map((s) => (
                <option key={s.slug} value={s.slug}>{s.name} ({s.slug})</option>
              ))}
            </select>
          </div>
        )}
        {outcome && !outcome.ok && Object.keys(outcome.fields).length === 0 ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200" data-testid="import-error">
            {outcome.message}
          </p>
        ) : null}
        {outcome?.ok ? (
          <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100" data-testid="import-done">
            Imported {outcome.beliefs} belief{outcome.beliefs === 1 ? "" : "s"}, {outcome.evidence} evidence item{outcome.evidence === 1 ? "" : "s"} and {outcome.historyItems} history items into{" "}
            <Link href={`/scopes/${outcome.slug}`} className="font-medium underline">{outcome.slug}</Link>.
          </p>
        ) : null}
        <button type="submit" className={buttonClass} disabled={pending}>
          {pending ? "Importing…" : "Import"}
        </button>
      </form>
    </Section>
  );
}
