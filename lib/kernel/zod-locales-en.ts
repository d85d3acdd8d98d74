/**
 * The worker's stand-in for zod's locale index (wrangler.toml `[alias]`): English only. Zod re-exports
 * every locale as a namespace (`z.locales`), which esbuild cannot tree-shake, so ~260 KB of messages
 * in 50 languages would ship although the service answers its own bilingual error model and zod
 * registers English by default.
 */
export { default as en } from "zod/v4/locales/en.js";
