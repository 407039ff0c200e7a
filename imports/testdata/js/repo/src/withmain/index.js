module.exports = 0;
