import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { sessionPrincipal } from "@/lib/access/principal";
import { requireUser } from "@/lib/auth/session";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { paramSpec } from "@/lib/actions/params-catalog";
import { RevertParamsButton } from "@/components/params/revert-params-button";
import { ParamsForm } from "@/components/params/params-form";
import { diffParams } from "@/components/params/params-fields";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Parameters" };

export default async function ParametersPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const services = await getBeliefServices();
  const caller = sessionPrincipal(user.id);
  const scope = await services.getScope(caller, slug);
  if (!scope) notFound();
  const [current, versions] = await Promise.all([services.getParams(caller, slug), services.listParamsVersions(caller, slug)]);
  const authorIds = [...new Set(versions.map((v) => v.createdBy).filter((id): id is string => id !== null))];
  const authors = await services.memberEmails(caller, slug, authorIds);
  const newestFirst = versions.map((v, i) => ({ view: v, previous: i > 0 ? versions[i - 1] : undefined })).reverse();
  return (
    <div className="space-y-8">
      <div>
        <Link href={`/scopes/${slug}`} className="text-sm text-sky-700 hover:underline dark:text-sky-400">← {scope.name}</Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Parameters</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Current version <b data-testid="params-version">{current.version === 0 ? "defaults (0)" : current.version}</b>
          <span className="ml-2 font-mono text-xs">{current.paramsVersion}</span>. New writes use the current version; each
          belief keeps the version its replay recorded.
        </p>
      </div>
      <ParamsForm scope={slug} params={current.params} canEdit={scope.role === "owner"} />
      <section aria-label="Version history">
        <h2 className="mb-2 text-lg font-semibold">Version history</h2>
        <table className="w-full text-sm" data-testid="params-history">
          <thead className="text-left text-zinc-500">
            <tr>
              <th className="py-1 pr-3 font-medium">Version</th>
              <th className="py-1 pr-3 font-medium">When</th>
              <th className="py-1 pr-3 font-medium">By</th>
              <th className="py-1 pr-3 font-medium">Note</th>
              <th className="py-1 font-medium">Changes from the previous version</th>
            </tr>
          </thead>
          <tbody>
            {newestFirst.map(({ view, previous }) => {
              const changes = previous ? diffParams(previous.params, view.params) : [];
              return (
                <tr key={view.version} className="border-t border-zinc-100 align-top dark:border-zinc-800" data-testid="params-version-row">
                  <td className="py-2 pr-3 tabular-nums">{view.version === 0 ? "0 (defaults)" : view.version}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{view.createdAt ? <Time at={view.createdAt} /> : "—"}</td>
                  <td className="py-2 pr-3">{view.createdBy ? (authors.get(view.createdBy) ?? "a former member") : "—"}</td>
                  <td className="max-w-xs py-2 pr-3 whitespace-pre-wrap break-words" data-testid="params-version-note">{view.note ?? <span className="text-zinc-500">—</span>}</td>
                  <td className="py-2 font-mono text-xs">
                    {view.version === 0 ? (
                      <span className="font-sans text-zinc-500">the service defaults</span>
                    ) : changes.length === 0 ? (
                      <span className="font-sans text-zinc-500">no effective change</span>
                    ) : (
                      <ul>
                        {changes.map((c) => (
                          <li key={c.name}>
                            <span className="font-sans">{paramSpec(c.name).label}</span> ({c.name}): {String(c.from)} → <b>{String(c.to)}</b>
                          </li>
                        ))}
                      </ul>
                    )}
                    {scope.role === "owner" && view.version !== current.version ? (
                      <div className="mt-1 font-sans">
                        <RevertParamsButton scope={slug} version={view.version} />
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
    </div>
  );
}
