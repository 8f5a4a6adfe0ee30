"use client";

import { useState, useTransition } from "react";
import { createTokenAction, revokeTokenAction } from "@/lib/actions/scope-actions";
import { useFormAction } from "@/components/ui/use-form-action";
import { FieldError, FormError, Label, buttonClass, inputClass, secondaryButtonClass } from "@/components/ui/form";
import { Section } from "./section";
import { Time } from "@/components/ui/time";

export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scopeSlug: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const when = (iso: string | null) => (iso ? <Time at={iso} /> : "never");

export function TokensSection({ scope, tokens }: { scope: string; tokens: TokenRow[] }) {
  const { state, pending, onSubmit } = useFormAction(createTokenAction);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  return (
    <Section title="Your API tokens" description="Agents use a token as you, over the REST API and MCP. A token is shown once; store it safely." testId="tokens">
      {state?.ok ? (
        <div className="mb-4 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-800 dark:bg-emerald-950" role="status">
          <p className="font-medium">Copy this token now. It will not be shown again.</p>
          <div className="mt-2 flex flex-wrap items-start gap-2">
            <code className="min-w-0 flex-1 break-all font-mono" data-testid="new-token">
              {state.data.token}
            </code>
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => {
                const token = state.data.token;
                navigator.clipboard.writeText(token).then(
                  () => setCopied("yes"),
                  () => setCopied("failed"),
                );
              }}
            >
              Copy token
            </button>
          </div>
          {copied ? (
            <p className="mt-1 text-xs" data-testid="token-copied">
              {copied === "yes" ? "Copied to the clipboard." : "The browser refused the clipboard: select the token and copy it by hand."}
            </p>
          ) : null}
        </div>
      ) : null}
      {tokens.length === 0 ? (
        <p className="text-sm text-zinc-500">You have no tokens.</p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-left text-zinc-500">
            <tr>
              <th className="py-1 font-medium">Name</th>
              <th className="hidden py-1 font-medium sm:table-cell">Token</th>
              <th className="py-1 font-medium">Limited to</th>
              <th className="hidden py-1 font-medium sm:table-cell">Last used</th>
              <th className="py-1"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id} className="border-t border-zinc-100 dark:border-zinc-800" data-testid="token-row">
                <td className="py-2 pr-2 wrap-anywhere">
                  {token.name}
                  {/* Below sm the token and last-used columns fold under the name, so the table fits a phone. */}
                  <span className="block font-mono text-xs text-zinc-500 sm:hidden">{token.prefix}…</span>
                  <span className="block text-xs text-zinc-500 sm:hidden">Last used: {when(token.lastUsedAt)}</span>
                </td>
                <td className="hidden py-2 font-mono text-xs sm:table-cell">{token.prefix}…</td>
                <td className="py-2 pr-2 wrap-anywhere">{token.scopeSlug ?? "all my scopes"}</td>
                <td className="hidden py-2 sm:table-cell">{when(token.lastUsedAt)}</td>
                <td className="py-2 text-right">
                  {token.revokedAt ? (
                    <span className="text-xs text-zinc-500">revoked</span>
                  ) : revoking === token.id ? (
                    <span className="inline-flex flex-wrap items-center justify-end gap-2">
                      <span className="text-xs">Agents using it stop at once.</span>
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        disabled={busy}
                        onClick={() =>
                          startTransition(async () => {
                            const result = await revokeTokenAction({ scope, tokenId: token.id });
                            setRevoking(null);
                            setError(result.ok ? null : result.error.message);
                          })
                        }
                      >
                        Yes, revoke
                      </button>
                      <button type="button" className="text-xs text-sky-700 hover:underline dark:text-sky-400" onClick={() => setRevoking(null)}>
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button type="button" className={secondaryButtonClass} disabled={busy} onClick={() => { setError(null); setRevoking(token.id); }}>
                      Revoke…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error ? <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">{error}</p> : null}
      <form onSubmit={(event) => { setError(null); setCopied(null); onSubmit(event); }} className="mt-4 grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end" aria-label="Create an API token">
        <input type="hidden" name="scope" value={scope} />
        <div>
          <Label htmlFor="token-name">Token name</Label>
          <input id="token-name" name="name" required className={inputClass} placeholder="research-agent" />
          <FieldError state={state} name="name" />
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm">
          <input type="checkbox" name="limitToScope" defaultChecked className="size-4" /> Only this scope
        </label>
        <button type="submit" className={buttonClass} disabled={pending}>
          Create token
        </button>
        <div className="sm:col-span-3">
          <FormError state={state} shown={["name"]} />
        </div>
      </form>
    </Section>
  );
}
