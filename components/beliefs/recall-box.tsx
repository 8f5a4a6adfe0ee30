"use client";

import Link from "next/link";
import { useState, useTransition, type FormEvent } from "react";
import { recallAction } from "@/lib/actions/belief-actions";
import type { RecallAnswer } from "@/lib/engine/recall";
import { buttonClass, inputClass } from "@/components/ui/form";

/** "What do we believe about X, and where do we disagree?" — the settled answer or the contested briefing. */
export function RecallBox({ scope }: { scope: string }) {
  const [answer, setAnswer] = useState<RecallAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get("q") ?? "");
    startTransition(async () => {
      const result = await recallAction({ scope, q });
      if (result.ok) {
        setAnswer(result.data);
        setError(null);
      } else {
        setError(result.error.message);
      }
    });
  }

  return (
    <section className="rounded-lg border border-zinc-200 p-5 dark:border-zinc-800" aria-label="Recall" data-testid="recall">
      <form onSubmit={onSubmit} className="flex gap-2" role="search">
        <label htmlFor="recall-q" className="sr-only">Question</label>
        <input id="recall-q" name="q" required className={`${inputClass} mt-0`} placeholder="What do we believe about the deploy branch?" />
        <button type="submit" className={buttonClass} disabled={pending}>
          {pending ? "Recalling…" : "Recall"}
        </button>
      </form>
      {error ? <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">{error}</p> : null}
      {answer ? <RecallAnswerView scope={scope} answer={answer} /> : null}
    </section>
  );
}

function RecallAnswerView({ scope, answer }: { scope: string; answer: RecallAnswer }) {
  if (answer.mode === "no_answer" || !answer.dominantAnswer) {
    return <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400" data-testid="recall-mode">Nothing in this scope speaks to that yet.</p>;
  }
  const contested = answer.mode === "contested";
  return (
    <div className="mt-4 space-y-3 text-sm">
      <p>
        <span
          data-testid="recall-mode"
          className={`rounded px-2 py-0.5 text-xs font-semibold uppercase ${contested ? "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100" : "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100"}`}
        >
          {answer.mode}
        </span>
        <span className="ml-3 text-zinc-600 dark:text-zinc-400">
          tension {answer.tension.toFixed(2)} · confidence {answer.confidence.toFixed(2)}
        </span>
      </p>
      <div>
        <h3 className="font-medium">{contested ? "Dominant answer" : "Answer"}</h3>
        <p data-testid="recall-dominant">{answer.dominantAnswer}</p>
        <BeliefLinks scope={scope} ids={answer.dominantBeliefIds} />
      </div>
      {contested && answer.competingInterpretation ? (
        <div>
          <h3 className="font-medium">Competing interpretation</h3>
          <p data-testid="recall-competing">{answer.competingInterpretation}</p>
          <BeliefLinks scope={scope} ids={answer.competingBeliefIds} />
        </div>
      ) : null}
      {answer.whyDominantWins ? (
        <div>
          <h3 className="font-medium">Why the dominant answer wins</h3>
          <p>{answer.whyDominantWins}</p>
        </div>
      ) : null}
    </div>
  );
}

function BeliefLinks({ scope, ids }: { scope: string; ids: readonly string[] }) {
  if (ids.length === 0) return null;
  return (
    <p className="mt-1 flex flex-wrap gap-2 text-xs">
      {ids.map((id) => (
        <Link key={id} href={`/scopes/${scope}/beliefs/${encodeURIComponent(id)}`} className="text-sky-700 hover:underline dark:text-sky-400">
          open belief
        </Link>
      ))}
    </p>
  );
}
