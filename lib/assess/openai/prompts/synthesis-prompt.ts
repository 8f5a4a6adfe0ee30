import { z } from "zod";
import type { BeliefText } from "@/lib/engine/assessor";
import { dataBlock, UNTRUSTED_NOTE, type PromptDefinition } from "./prompt-definition";

export const synthesisAnswerSchema = z.object({
  text: z.string().min(1),
  contextTags: z.array(z.string().min(1)).max(8),
  reasoning: z.string().min(1),
});

/** Dialectical synthesis (docs/design.md §4.5): one falsifiable sentence that reconciles both sides by scoping them. */
export const synthesisPrompt: PromptDefinition<{ a: BeliefText; b: BeliefText }, z.infer<typeof synthesisAnswerSchema>> = {
  name: "dialectical_synthesis",
  version: "synthesis-v1",
  schema: synthesisAnswerSchema,
  messages: ({ a, b }) => [
    {
      role: "system",
      content:
        "Two beliefs rebut each other and both keep real support. Propose one falsifiable sentence that reconciles " +
        "them by saying where or when each holds, and list those scopes as `contextTags`. " +
        UNTRUSTED_NOTE,
    },
    { role: "user", content: [dataBlock("belief_a", a.text), dataBlock("belief_b", b.text)].join("\n") },
  ],
};
