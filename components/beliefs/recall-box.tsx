"use client";

import Link from "next/link";
import { useState, useTransition, type FormEvent } from "react";
import { recallAction } from "@/lib/actions/belief-actions";
import type { RecallAnswer } from "@/lib/engine/recall";
import { buttonClass, humanMessage, inputClass } from "@/components/ui/form";
import { confidenceWords, tensionWords, uncertaintyWords } from "@/lib/engine/bands";

/** The recall question's limit (the services' recall input allows 2 000 characters). */
const RECALL_MAX_CHARS = 2_000;

/** "What do we believe about X, and where do we disagree?" — the settled answer or the contested briefing. */
export function RecallBox({ scope }: { scope: string }) {
  const [answer, setAnswer] = useState<RecallAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get("q") ?? "");
    // Refused here with the numbers (the server refuses it too, in the same words).
    if (q.trim().length > RECALL_MAX_CHARS) {
      setAnswer(null);
      setError(`Questions are limited to ${RECALL_MAX_CHARS.toLocaleString("en")} characters; this one has ${q.trim().length.toLocaleString("en")}. Shorten it and ask again.`);
      return;
    }
    startTransition(async () => {
      const result = await recallAction({ scope, q });
      if (result.ok) {
        setAnswer(result.data);
        setError(null);
      } else {
        setError(humanMessage(result.error.fields?.q ?? result.error.message));
      }
    });
  }

  return (
    <section className="rounded-lg border border-zinc-200 p-5 dark:border-zinc-800" aria-label="Recall" data-testid="recall">
      <form onSubmit={onSubmit} className="flex gap-2" role="search">
        <label htmlFor="recall-q" className="sr-only">Question</label>
        <input id="recall-q" name="q" required aria-invalid={error ? true : undefined} aria-describedby={error ? "recall-error" : undefined} className={`${inputClass} mt-0`} placeholder="What do we believe about the deploy branch?" />
        <button type="submit" className={buttonClass} disabled={pending}>
          {pending ? "Recalling…" : "Recall"}
        </button>
      </form>
      {error ? <p role="alert" id="recall-error" className="mt-3 text-sm text-red-700 dark:text-red-400" data-testid="recall-error">{error}</p> : null}
      {answer ? <RecallAnswerView scope={scope} answer={answer} /> : null}
    </section>
  );
}

/** Plain-language reasons (the engine's `reasons`), in the order the engine gives them. */
const REASON_TEXT: Readonly<Record<string, string>> = {
  standing_rebuttal: "The other view is answered by a rebuttal that still stands.",
  recency: "It rests on more recent evidence.",
  real_support: "It is backed by documents, measurements or checks, not only by what agents said.",
  reconfirmation: "It was confirmed again more recently.",
  credence: "It has the higher credence.",
  only_position: "No other belief in this scope takes a different position.",
};

/** Below this credence the best match is not presented as an answer: it leans false. */
const ANSWER_MIN_CREDENCE = 0.5;

type Shown = "settled" | "contested" | "insufficient";

/**
 * What the box shows: the engine's mode, except that an answer too weak to state (the engine's `insufficient`, or a
 * "settled" one with no confidence or a credence under one half) is shown as "not enough evidence", never in green.
 */
export function shownRecallMode(answer: Pick<RecallAnswer, "mode" | "confidence"> & { dominantCredence: number | null }): Shown | "no_answer" {
  const mode: string = answer.mode;
  if (mode === "no_answer") return "no_answer";
  if (mode === "contested") return "contested";
  if (mode === "insufficient") return "insufficient";
  if (answer.confidence <= 0 || (answer.dominantCredence !== null && answer.dominantCredence < ANSWER_MIN_CREDENCE)) return "insufficient";
  return "settled";
}

const MODE_LABEL: Readonly<Record<Shown, string>> = { settled: "Settled", contested: "Contested", insufficient: "Not enough evidence" };
const MODE_CLASS: Readonly<Record<Shown, string>> = {
  settled: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  contested: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  insufficient: "bg-zinc-200 text-zinc-900 dark:bg-zinc-700 dark:text-zinc-100",
};

function RecallAnswerView({ scope, answer }: { scope: string; answer: RecallAnswer & { dominantCredence?: number | null } }) {
  const shown = shownRecallMode({ mode: answer.mode, confidence: answer.confidence, dominantCredence: answer.dominantCredence ?? null });
  if (shown === "no_answer" || !answer.dominantAnswer) {
    return <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400" data-testid="recall-mode">Nothing in this scope speaks to that yet.</p>;
  }
  const contested = shown === "contested";
  const competing = contested && answer.competingInterpretation ? answer.competingInterpretation : null;
  const reasons = answer.reasons.filter((r) => !(competing && r === "only_position")).map((r) => REASON_TEXT[r]).filter((r): r is string => r !== undefined);
  return (
    <div className="mt-4 space-y-3 text-sm">
      <p>
        <span data-testid="recall-mode" className={`rounded px-2 py-0.5 text-xs font-semibold ${MODE_CLASS[shown]}`}>
          {MODE_LABEL[shown]}
        </span>
      </p>
      <RecallFigures answer={answer} contested={contested} />
      {shown === "insufficient" ? (
        <div data-testid="recall-insufficient">
          <p>The scope does not hold this firmly enough to give an answer. The closest belief it has is:</p>
          <p className="mt-1 border-l-2 border-zinc-300 pl-3 text-zinc-700 dark:border-zinc-600 dark:text-zinc-300" data-testid="recall-dominant">{answer.dominantAnswer}</p>
          <p className="mt-1 text-zinc-600 dark:text-zinc-400">
            {answer.confidence <= 0 ? "Nothing real stands behind it yet (no confidence). " : ""}
            {answer.dominantCredence !== undefined && answer.dominantCredence !== null && answer.dominantCredence < ANSWER_MIN_CREDENCE
              ? `Its credence is ${answer.dominantCredence.toFixed(2)}: the scope leans towards it being false. `
              : ""}
            Add evidence to settle it.
          </p>
          <BeliefLinks scope={scope} ids={answer.dominantBeliefIds} />
        </div>
      ) : (
        <div>
          <h3 className="font-medium">{contested ? "Dominant answer" : "Answer"}</h3>
          <p data-testid="recall-dominant">{answer.dominantAnswer}</p>
          <BeliefLinks scope={scope} ids={answer.dominantBeliefIds} />
        </div>
      )}
      {competing ? (
        <div>
          <h3 className="font-medium">Competing view</h3>
          <p data-testid="recall-competing">{competing}</p>
          <BeliefLinks scope={scope} ids={answer.competingBeliefIds} />
        </div>
      ) : null}
      {shown !== "insufficient" && reasons.length > 0 ? (
        <div>
          <h3 className="font-medium">{contested ? "Why the dominant answer leads" : "Why"}</h3>
          <ul className="list-disc pl-5" data-testid="recall-why">
            {reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/**
 * The answer's figures, each named for what it measures: in a contested answer the tension is between the two views
 * (not the dominant belief's own tension, which the beliefs table shows); uncertainty (1 − confidence) is spelled out
 * and drawn, so a thin answer looks thin.
 */
function RecallFigures({ answer, contested }: { answer: RecallAnswer & { dominantCredence?: number | null }; contested: boolean }) {
  const uncertainty = Math.max(0, Math.min(1, 1 - answer.confidence));
  return (
    <dl className="grid gap-x-6 gap-y-1 text-zinc-700 sm:grid-cols-2 dark:text-zinc-300" data-testid="recall-figures">
      {answer.dominantCredence !== undefined && answer.dominantCredence !== null ? (
        <div>
          <dt className="inline text-zinc-600 dark:text-zinc-400">Credence of the {contested ? "dominant answer" : "answer"}: </dt>
          <dd className="inline tabular-nums">{answer.dominantCredence.toFixed(2)}</dd>
        </div>
      ) : null}
      <div>
        <dt className="inline text-zinc-600 dark:text-zinc-400">{contested ? "Tension between the two views: " : "Tension of this belief (as in the table): "}</dt>
        <dd className="inline">
          <span className="tabular-nums">{answer.tension.toFixed(2)}</span> ({tensionWords(answer.tension)})
        </dd>
      </div>
      <div>
        <dt className="inline text-zinc-600 dark:text-zinc-400">Confidence: </dt>
        <dd className="inline">
          <span className="tabular-nums">{answer.confidence.toFixed(2)}</span> ({confidenceWords(answer.confidence)})
        </dd>
      </div>
      <div className="flex items-center gap-2" data-testid="recall-uncertainty">
        <dt className="text-zinc-600 dark:text-zinc-400">Uncertainty:</dt>
        <dd className="flex items-center gap-2">
          <span className="tabular-nums">{uncertainty.toFixed(2)}</span>
          <span className="relative inline-block h-2 w-24 overflow-hidden rounded bg-zinc-200 dark:bg-zinc-700" aria-hidden="true">
            <span className="absolute inset-y-0 left-0 rounded bg-zinc-600 dark:bg-zinc-300" style={{ width: `${Math.round(uncertainty * 100)}%` }} />
          </span>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{uncertaintyWords(answer.confidence)}</span>
        </dd>
      </div>
    </dl>
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
