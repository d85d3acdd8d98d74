/** A problem with the client's request itself (not with Postgres); answered as JSON `{ message }`. */
export class RelayRequestError extends Error {
  override readonly name = "RelayRequestError";

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
