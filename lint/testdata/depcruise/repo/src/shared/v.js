const b = require('../b/index');
module.exports = b;
