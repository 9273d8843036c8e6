/**
 * Every module in `profiles/`, in file-name order, gathered at build time by the esbuild plugin
 * in `scripts/profileModules.mjs` (as bundlers' glob imports do): a new profile's file is all
 * the registry (`profiles.ts`) needs.
 */
declare module 'virtual:profile-modules' {
  const modules: readonly Readonly<Record<string, unknown>>[];
  export default modules;
}
