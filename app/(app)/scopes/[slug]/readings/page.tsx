import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { sessionPrincipal } from "@/lib/access/principal";
import { requireUser } from "@/lib/auth/session";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { ReadingQueue, type QueueItem } from "@/components/readings/reading-queue";

export const metadata: Metadata = { title: "Needs a reader" };

const DECIDERS = new Set(["editor", "reviewer", "owner"]);

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

export default async function ReadingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const services = await getBeliefServices();
  const caller = sessionPrincipal(user.id);
  const scope = await services.getScope(caller, slug);
  if (!scope) notFound();
  const back = (
    <Link href={`/scopes/${slug}`} className="text-sm text-sky-700 hover:underline dark:text-sky-400">
      ← {scope.name}
    </Link>
  );
  if (!scope.role || !DECIDERS.has(scope.role)) {
    return (
      <div className="space-y-4">
        {back}
        <h1 className="text-2xl font-semibold tracking-tight">Needs a reader</h1>
        <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-testid="readings-forbidden">
          This queue is for this scope&apos;s editors, reviewers and owners.
        </p>
      </div>
    );
  }
  const queue = await services.listReadings(caller, slug);
  const items: QueueItem[] = [
    ...queue.undecided.map(
      (u): QueueItem => ({
        key: `${u.belief.id}#${u.reading.seq}`,
        kind: "undecided",
        beliefId: u.belief.id,
        beliefText: u.belief.text,
        credence: u.belief.credence,
        seq: u.reading.seq,
        otherText: u.evidence?.text ?? u.reading.sourceId,
        otherHref: null,
        source: u.evidence ? `${u.evidence.kind}${u.evidence.uri ? ` · ${u.evidence.uri}` : ""} · ${u.evidence.id}` : u.reading.sourceId,
        guess: u.reading.guess,
        confidence: u.reading.confidence,
        preview: u.preview,
      }),
    ),
    ...queue.possibleDuplicates.map(
      (d): QueueItem => ({
        key: `${d.belief.id}#${d.link.seq}`,
        kind: "possible_duplicate",
        beliefId: d.belief.id,
        beliefText: d.belief.text,
        credence: d.belief.credence,
        seq: d.link.seq,
        otherText: d.other?.text ?? d.link.otherBeliefId,
        otherHref: d.other ? `/scopes/${slug}/beliefs/${encodeURIComponent(d.other.id)}` : null,
        source: d.other ? `credence ${d.other.credence.toFixed(2)} · similarity ${d.link.score.toFixed(2)}` : `similarity ${d.link.score.toFixed(2)}`,
        guess: null,
        confidence: null,
        preview: d.preview,
      }),
    ),
  ];
  return (
    <div className="space-y-6">
      <div>
        {back}
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Needs a reader</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          <span data-testid="readings-count">{items.length}</span> open
          {items.length > 0
            ? `: ${plural(queue.undecided.length, "undecided reading")}, ${plural(queue.possibleDuplicates.length, "possible duplicate")}. None of them moves credence until someone decides it.`
            : "."}{" "}
          <Link href={`/scopes/${slug}/review`} className="underline">Review queue</Link>
        </p>
      </div>
      <ReadingQueue scope={slug} items={items} canDecide />
    </div>
  );
}
