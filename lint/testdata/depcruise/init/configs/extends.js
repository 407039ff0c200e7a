/** A configuration that extends a file which extends a shipped preset. */
module.exports = {
  extends: ["./base.json"],
  forbidden: [
    // Only the severity changes: the preset's conditions are kept.
    { name: "no-orphans", severity: "info" },
    { name: "tools-not-to-src", severity: "error", from: { path: "^tools" }, to: { path: "^src" } },
  ],
};
