import { z } from "zod";
import type { BeliefText } from "@/lib/engine/assessor";
import { dataBlock, UNTRUSTED_NOTE, type PromptDefinition } from "./prompt-definition";

export const recallAnswerSchema = z.object({
  dominantAnswer: z.string().min(1),
  competingInterpretation: z.string().min(1).nullable(),
  reasoning: z.string().min(1),
});

export interface RecallInput {
  question: string;
  dominant: BeliefText;
  competing: BeliefText | null;
}

/** Recall phrasing (docs/design.md §4.6): answer with the dominant belief, keep the competing one visible. */
export const recallPrompt: PromptDefinition<RecallInput, z.infer<typeof recallAnswerSchema>> = {
  name: "recall_phrasing",
  version: "recall-v1",
  schema: recallAnswerSchema,
  messages: ({ question, dominant, competing }) => [
    {
      role: "system",
      content:
        "Answer the question from the dominant belief only, in one or two sentences, adding nothing it does not say. " +
        "If a competing belief is given, phrase it as `competingInterpretation` without dismissing it; otherwise null. " +
        UNTRUSTED_NOTE,
    },
    {
      role: "user",
      content: [dataBlock("question", question), dataBlock("dominant", dominant.text), competing ? dataBlock("competing", competing.text) : ""]
        .filter((s) => s.length > 0)
        .join("\n"),
    },
  ],
};
