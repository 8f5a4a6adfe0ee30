"use client";

import { useState, useTransition } from "react";
import { revokeScopeTokenAction } from "@/lib/actions/scope-actions";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { secondaryButtonClass } from "@/components/ui/form";
import { useToast } from "@/components/ui/toast";
import { Time } from "@/components/ui/time";
import { Section } from "./section";

export interface ScopeTokenRow {
  id: string;
  name: string;
  prefix: string;
  /** The scope the token is limited to, or null: it acts in every scope its holder belongs to. */
  scopeSlug: string | null;
  holderId: string;
  holderEmail: string;
  holderName: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * For the scope's owners: every live token of every member that can act in this scope (unrestricted, or limited to it),
 * whoever holds it, with a revoke that asks first. The list and the revoke are both decided by the service; this only
 * shows what it returns.
 */
export function ScopeTokensSection({ scope, currentUserId, tokens }: { scope: string; currentUserId: string; tokens: ScopeTokenRow[] }) {
  const toast = useToast();
  const [asking, setAsking] = useState<ScopeTokenRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const holder = (t: ScopeTokenRow) => (t.holderId === currentUserId ? `${t.holderEmail} (you)` : t.holderEmail);
  function revoke(token: ScopeTokenRow) {
    startTransition(async () => {
      const result = await revokeScopeTokenAction({ scope, tokenId: token.id });
      if (result.ok) {
        setAsking(null);
        setError(null);
        toast({ tone: "ok", text: `Revoked “${token.name}” of ${token.holderEmail}: agents using it are refused from now on.` });
      } else {
        setError(result.error.message);
      }
    });
  }
  return (
    <Section
      title="Tokens that can reach this scope"
      description="Every live API token of a member that can act here: tokens limited to this scope and tokens not limited to any. Revoking one stops it at once, for its holder too."
      testId="scope-tokens"
    >
      {tokens.length === 0 ? (
        <p className="text-sm text-zinc-500">No live token can reach this scope.</p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-left text-zinc-500">
            <tr>
              <th className="py-1 pr-2 font-medium">Token</th>
              <th className="hidden py-1 pr-2 font-medium md:table-cell">Held by</th>
              <th className="hidden py-1 pr-2 font-medium sm:table-cell">Reaches</th>
              <th className="hidden py-1 pr-2 font-medium lg:table-cell">Created</th>
              <th className="hidden py-1 pr-2 font-medium lg:table-cell">Last used</th>
              <th className="py-1"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id} className="border-t border-zinc-100 align-top dark:border-zinc-800" data-testid="scope-token-row">
                <td className="py-2 pr-2 wrap-anywhere">
                  <span className="font-medium">{token.name}</span> <span className="font-mono text-xs text-zinc-500">{token.prefix}…</span>
                  {/* Narrower screens fold the other columns under the name, so the table fits a phone. */}
                  <span className="block text-xs text-zinc-600 md:hidden dark:text-zinc-400">Held by {holder(token)}</span>
                  <span className="block text-xs text-zinc-600 sm:hidden dark:text-zinc-400">Reaches {token.scopeSlug ? "this scope only" : "all their scopes"}</span>
                  <span className="block text-xs text-zinc-600 lg:hidden dark:text-zinc-400">
                    Created <Time at={token.createdAt} /> · last used {token.lastUsedAt ? <Time at={token.lastUsedAt} /> : "never"}
                  </span>
                </td>
                <td className="hidden py-2 pr-2 wrap-anywhere md:table-cell" data-testid="scope-token-holder">
                  {holder(token)}
                  {token.holderName ? <span className="block text-xs text-zinc-500">{token.holderName}</span> : null}
                </td>
                <td className="hidden py-2 pr-2 sm:table-cell">{token.scopeSlug ? "this scope only" : "all their scopes"}</td>
                <td className="hidden py-2 pr-2 whitespace-nowrap lg:table-cell"><Time at={token.createdAt} /></td>
                <td className="hidden py-2 pr-2 whitespace-nowrap lg:table-cell">{token.lastUsedAt ? <Time at={token.lastUsedAt} /> : "never"}</td>
                <td className="py-2 text-right">
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    disabled={pending}
                    onClick={() => { setError(null); setAsking(token); }}
                    aria-label={`Revoke ${token.name} of ${token.holderEmail}`}
                  >
                    Revoke…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={asking !== null}
        title="Revoke this token?"
        confirmLabel="Yes, revoke"
        initialFocus="cancel"
        pending={pending}
        onConfirm={() => { if (asking) revoke(asking); }}
        onCancel={() => { setAsking(null); setError(null); }}
        testId="revoke-token-confirm"
      >
        {asking ? (
          <>
            <p>
              “{asking.name}” ({asking.prefix}…), held by {holder(asking)}. Agents using it are refused from their next request; it cannot be
              turned back on, its holder would create a new one.
            </p>
            {asking.scopeSlug === null ? (
              <p className="font-medium text-amber-800 dark:text-amber-300">It is not limited to this scope: it stops working in every scope its holder belongs to.</p>
            ) : null}
            {error ? <p role="alert" className="text-red-700 dark:text-red-400">{error}</p> : null}
          </>
        ) : null}
      </ConfirmDialog>
    </Section>
  );
}
