/** Short jobs (a probe or one frame) run in their own lane, so they never wait behind encodes (queue.mjs). */
const lightOperations = new Set(["metadata", "preview"]);
export const laneOf = (job) => (lightOperations.has(job.operation) ? "light" : "encode");
