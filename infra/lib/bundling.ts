/**
 * How every handler is bundled: used by the CDK functions (api-function.ts) and by the
 * handler benchmark (bench/handlers.ts), so the benchmark measures what is deployed.
 */
/** Makes ESM bundles that contain CommonJS dependencies work (`Dynamic require of ...`). */
export const ESM_REQUIRE_BANNER = "import{createRequire}from'module';const require=createRequire(import.meta.url);";

export const HANDLER_BUNDLING = {
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  banner: ESM_REQUIRE_BANNER,
  /**
   * Nothing external: the AWS SDK is bundled and tree-shaken too. Loading the runtime's
   * unbundled SDK (hundreds of CommonJS files) costs 120-230 ms cold; bundled, ~60-80 ms.
   */
  externalModules: [] as string[],
} as const;
