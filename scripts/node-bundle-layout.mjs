// Where a package's node build lives, in one place: scripts/node-bundle.mjs writes it there and
// scripts/package-conventions.mjs points each entry's `node` condition at it.

/** The command a package's `build` ends with to get a node build. */
export const NODE_BUNDLE_COMMAND = "node ../../scripts/node-bundle.mjs";

/** The folder of the node build, inside the package. */
export const NODE_BUNDLE_DIR = "dist/node-bundle";

/** Whether the package has a node build (its `build` script runs scripts/node-bundle.mjs). */
export function hasNodeBundle(manifest) {
  return typeof manifest.scripts?.build === "string" && manifest.scripts.build.includes(NODE_BUNDLE_COMMAND);
}

/** The node build of a tsc output file: `./dist/x/index.js` -> `./dist/node-bundle/x/index.js`. */
export function nodeTargetOf(defaultTarget) {
  if (typeof defaultTarget !== "string" || !/^\.\/dist\/.*\.js$/.test(defaultTarget)) return undefined;
  return defaultTarget.replace(/^\.\/dist\//, `./${NODE_BUNDLE_DIR}/`);
}
