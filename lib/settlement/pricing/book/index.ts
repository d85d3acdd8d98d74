export { priceBookMemory } from "./memory";
export { bookPricing } from "./priced";
export { refreshPriceBook } from "./refresh";
export { PRICE_SOURCES, type PriceSource } from "./sources";
