"use client";

import { useParams, useRouter } from "next/navigation";

export interface ScopeChoice {
  slug: string;
  name: string;
}

/**
 * Jumps between the scopes the user belongs to and the public scopes they may read (a group of its own); a native
 * select keeps it keyboard- and screen-reader-friendly.
 */
export function ScopeSwitcher({ scopes, publicScopes = [] }: { scopes: ScopeChoice[]; publicScopes?: ScopeChoice[] }) {
  const router = useRouter();
  const params = useParams<{ slug?: string }>();
  if (scopes.length === 0 && publicScopes.length === 0) return null;
  return (
    <label className="flex min-w-0 flex-1 items-center gap-2 text-sm sm:flex-none">
      <span className="sr-only">Scope</span>
      <select
        aria-label="Switch scope"
        className="w-full min-w-0 truncate rounded-md border border-zinc-300 bg-white px-2 py-1 sm:w-auto sm:max-w-xs dark:border-zinc-700 dark:bg-zinc-900"
        value={params.slug ?? ""}
        onChange={(event) => router.push(event.target.value ? `/scopes/${event.target.value}` : "/")}
      >
        <option value="">All scopes</option>
        {publicScopes.length > 0 ? (
          <>
            <optgroup label="Your scopes">
              {scopes.map((scope) => (
                <option key={scope.slug} value={scope.slug}>
                  {scope.name}
                </option>
              ))}
            </optgroup>
            <optgroup label="Public scopes (read only)">
              {publicScopes.map((scope) => (
                <option key={scope.slug} value={scope.slug}>
                  {scope.name}
                </option>
              ))}
            </optgroup>
          </>
        ) : (
          scopes.map((scope) => (
            <option key={scope.slug} value={scope.slug}>
              {scope.name}
            </option>
          ))
        )}
      </select>
    </label>
  );
}
