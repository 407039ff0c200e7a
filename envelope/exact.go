package envelope

import (
	"math"
	"math/big"
	"strconv"
)

// appendExact appends the number written as text (a decimal, already
// read as f) so that it keeps the value the agent wrote, or returns a
// message saying why it cannot.
//
// Why: a float64 holds every integer only up to 2^53; beyond that,
// distinct decimals read as one float, and a float that is a whole number
// is compared as that integer. 9007199254740993.0 would become
// 9007199254740992, and 9007199254740993.5 would become the integer
// 9007199254740994, each passing an any_of, equals or not_contains that
// the written value fails. So a decimal whose value is an integer in int64
// range is written as that integer, and a decimal that is not a whole
// number but whose float is (past 2^53, or too small for a float: 1e-400
// would be 0) is refused, with the advice to quote it. Other floats are
// compared as float64, as the rulespec's own literals are.
func appendExact(buf []byte, text string, f float64) ([]byte, string) {
	if f != math.Trunc(f) {
		// Not whole: the text is not a whole number either (every
		// integer below 2^53 is exact, and every float above is whole),
		// so this is the common case and needs no exact arithmetic.
		return strconv.AppendFloat(buf, f, 'g', -1, 64), ""
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		// A YAML spelling big.Rat does not read (underscores, a
		// sexagesimal or hex float): keep what yaml.v3 made of it.
		return strconv.AppendFloat(buf, f, 'g', -1, 64), ""
	}
	if r.Sign() == 0 {
		// 0, 0.0 and -0.0: the float's form keeps the sign as written.
		return strconv.AppendFloat(buf, f, 'g', -1, 64), ""
	}
	if r.IsInt() && r.Num().IsInt64() {
		return strconv.AppendInt(buf, r.Num().Int64(), 10), ""
	}
	if !r.IsInt() && f == math.Trunc(f) {
		return buf, inexactMsg
	}
	return strconv.AppendFloat(buf, f, 'g', -1, 64), ""
}

const inexactMsg = "number is not a whole number, but a 64-bit float cannot tell it from one (past 2^53, or too small for a float), so it would compare as a whole number; quote it to keep it as a string"
