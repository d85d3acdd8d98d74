import type { ServiceContext } from "../kernel/context";
import { ApiError } from "../kernel/errors/api-error";
import { refuseDenied, type ScreenedAddress } from "./screen";

/** Refusals that already are screening's answer. */
const SCREENING_CODES = new Set(["SANCTIONED_ADDRESS", "SCREENING_UNAVAILABLE"]);

/**
 * Runs the work before a write that reads the deny list itself (noneDenied in its WHERE). A party
 * on the deny list is told so before anything else, as when the list was read first: a refusal the
 * work raises (a volume limit, slippage, a route) is first checked against the list, and is 403
 * SANCTIONED_ADDRESS instead when a party is on it. That read happens only on a refusal.
 */
export async function deniedFirst<T>(
  ctx: ServiceContext,
  subjects: readonly ScreenedAddress[],
  stage: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && !SCREENING_CODES.has(error.code))
      await refuseDenied(ctx, subjects, stage);
    throw error;
  }
}

/**
 * Runs an insert that writes only while no party is on the deny list, and answers its row. When it
 * writes nothing, the list is read: a party on it is 403 SANCTIONED_ADDRESS naming its field; none
 * (the listing was lifted between the two statements) runs the insert once more, read the same way
 * after it. Undefined when the insert wrote nothing with nobody listed, twice: a unique index
 * refused it (another request's row won), for the caller to read.
 */
export async function insertUnlessDenied<T>(
  ctx: ServiceContext,
  subjects: readonly ScreenedAddress[],
  stage: string,
  insert: () => Promise<readonly T[]>,
): Promise<T | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const [row] = await insert();
    if (row !== undefined) return row;
    await refuseDenied(ctx, subjects, stage);
  }
  return undefined;
}
