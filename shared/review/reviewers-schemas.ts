import { z } from "@hono/zod-openapi";

/** Who may be asked to review a file (docs/decisions/061-review-and-approval.md, "Requesting review in the viewer"). No server imports. */

export const MAX_CANDIDATES = 20;

export const reviewersQuery = z.object({
  q: z.string().trim().max(100, "не длиннее 100 символов").default("").openapi({ description: "a substring of the name or login" }),
});

export const reviewerCandidate = z.object({ user_id: z.string(), name: z.string(), login: z.string() }).openapi("ReviewerCandidate");
export type ReviewerCandidate = z.infer<typeof reviewerCandidate>;
export const reviewerCandidates = z.array(reviewerCandidate);
