/** Screening every address the service deals with: the operator's deny list and Chainalysis's oracle. */
export { allowAddress, type DeniedAddress, denyAddress, listDeniedAddresses, noneDenied } from "./deny-list";
export { assertWithinVolumeLimits, recordWithinVolumeLimits } from "./limits";
export { oracleAnswersOf } from "./oracle";
export { listedAmong, type ScreenedAddress, screenAddresses, screenOnOracles } from "./screen";
export { deniedFirst, insertUnlessDenied } from "./screened-write";
