/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-orphans',
      severity: 'error',
      from: {orphan: true, pathNot: '\\.d\\.ts$'},
      to: {},
    },
  ],
  allowed: [
    {from: {path: '^src/(a|b|c)/'}, to: {path: '^src/(a|b|c)/'}},
    {from: {}, to: {dependencyTypes: ['core', 'npm']}},
    {from: {path: '^src/feature/'}, to: {path: '^src/'}},
  ],
  allowedSeverity: 'error',
  options: {
    tsPreCompilationDeps: true,
    exclude: {path: '^src/legacy'},
    doNotFollow: ['node_modules', '^src/shared'],
    includeOnly: '^(src|node_modules)/',
    tsConfig: {fileName: 'tsconfig.json'},
  },
};
