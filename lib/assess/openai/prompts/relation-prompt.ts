import { z } from "zod";
import type { BeliefText } from "@/lib/engine/assessor";
import { dataBlock, UNTRUSTED_NOTE, type PromptDefinition } from "./prompt-definition";

const DECIDED = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"] as const;

export const relationAnswerSchema = z.object({
  relation: z.enum([...DECIDED, "UNDECIDED"]),
  strength: z.number().min(0).max(1),
  /** Probability that the answer is right (for UNDECIDED: that `guess` is). */
  confidence: z.number().min(0).max(1),
  /** The best guess when `relation` is UNDECIDED; null otherwise. */
  guess: z.enum(DECIDED).nullable(),
  reasoning: z.string().min(1),
});

/** Relation of evidence to one belief (docs/design.md §4.3, §6). */
export const relationPrompt: PromptDefinition<{ evidence: string; belief: BeliefText }, z.infer<typeof relationAnswerSchema>> = {
  name: "evidence_relation",
  version: "relation-v2",
  schema: relationAnswerSchema,
  messages: ({ evidence, belief }) => [
    {
      role: "system",
      content:
        "Classify how the evidence bears on the belief. SUPPORTS: makes it more likely. REBUTS: makes it less likely " +
        "(negation, a conflicting number, a changed state, the opposite effect). CONTEXTUALIZES: narrows where, for " +
        "whom or when it holds without saying it is false (only for team X, in region Y, an exemption, a population " +
        "that was not studied). UNRELATED: does not bear on it. `strength` in [0,1] is how strongly it bears in that " +
        "direction; 0 for UNRELATED and UNDECIDED. `confidence` in [0,1] is the probability that your answer is " +
        "right. When you cannot tell which of the four holds, answer UNDECIDED, put the most likely one in `guess` " +
        "and its probability in `confidence`; otherwise `guess` is null. " +
        UNTRUSTED_NOTE,
    },
    {
      role: "user",
      content: [
        dataBlock("belief", belief.text),
        belief.contextTags && belief.contextTags.length > 0 ? dataBlock("belief_context", belief.contextTags.join(", ")) : "",
        dataBlock("evidence", evidence),
      ]
        .filter((s) => s.length > 0)
        .join("\n"),
    },
  ],
};
