/** A step's own failure (in Russian, for the run log); `retry` when another try may succeed (a receiver's 5xx). */
export class StepError extends Error {
  constructor(
    message: string,
    readonly retry = false,
  ) {
    super(message);
  }
}
