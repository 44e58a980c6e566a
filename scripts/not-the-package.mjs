// `npm pack` (or `npm publish`) in the repository's root: its package.json is the repository's (private, with the
// service's scripts and devDependencies), not the package's, so this refuses, and says what makes the package.
console.error(
  "npm pack here would pack the repository, not the package. `npm run package` builds the controller's package in dist/package/ (controller/package-manifest.ts) and packs it there into order-tools-<version>.tgz.",
);
process.exit(1);
