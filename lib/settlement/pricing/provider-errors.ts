import { ApiError } from "../../kernel/errors/api-error";
import { ProviderFailure } from "../../kernel/provider-failure";
import { apiErrorOf } from "./api-error-of";

/** A provider's failure in the API's terms, at the stage the flow was in; anything else passes. */
export async function withProviderErrors<T>(work: () => Promise<T>, stage: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    const translated = apiErrorOf(error);
    throw new ApiError(translated.code, { ...translated.options, stage });
  }
}
