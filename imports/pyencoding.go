package imports

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Python decodes a source file with the encoding its PEP 263 coding line
// declares, before tokenizing. A declaration vouch ignored would let the
// bytes vouch reads as a comment run as code: under `# coding: utf-7` the
// comment `# +AAo-import subprocess` decodes to a line break and an
// import, and unicode_escape turns a written `\n` into one. vouch reads
// UTF-8 and the ASCII-compatible single-byte codecs (whose bytes below
// 0x80 are ASCII, so the tokenizer can read the bytes themselves); any
// other declared codec leaves the file unread, which vouch lint reports.

// pyEncodingProblem says why vouch cannot read the Python source src
// ("" when it can): a declared codec it does not read, or bytes that are
// not valid UTF-8 in a file Python reads as UTF-8.
func pyEncodingProblem(src []byte) string {
	name, line := pyCodingSpec(src)
	bom := len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF
	switch codec := pyCodec(name); {
	case name == "" || codec == "utf_8":
		if !utf8.Valid(src) {
			return "not valid UTF-8"
		}
	case bom:
		// CPython refuses the file: a byte order mark says UTF-8.
		return fmt.Sprintf("declares encoding %s on line %d after a UTF-8 byte order mark", name, line)
	case !pySingleByte[codec]:
		return fmt.Sprintf("declares encoding %s on line %d, which vouch does not read (only UTF-8 and ASCII-compatible single-byte encodings)", name, line)
	}
	return ""
}

// pyCodingSpec finds the coding declaration as CPython's tokenizer does
// (get_coding_spec, check_coding_spec): on line 1, or on line 2 when line 1
// holds nothing but blanks and a comment; in a line whose first non-blank
// character is '#'; the first "coding" followed by ':' or '=', blanks,
// and a non-empty name of letters, digits, '-', '_' and '.'. It returns
// the name as written and its line, or "" when there is none.
func pyCodingSpec(src []byte) (string, int) {
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		src = src[3:]
	}
	for n := 1; n <= 2; n++ {
		end := 0
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		line := src[:end]
		if name := pyCodingInLine(line); name != "" {
			return name, n
		}
		// Only a blank or comment-only line lets line 2 declare.
		i := 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\f') {
			i++
		}
		if i < len(line) && line[i] != '#' {
			return "", 0
		}
		if end < len(src) && src[end] == '\r' && end+1 < len(src) && src[end+1] == '\n' {
			end++
		}
		if end >= len(src) {
			break
		}
		src = src[end+1:]
	}
	return "", 0
}

// pyCodingInLine is the coding name a comment-only line declares, or "".
func pyCodingInLine(line []byte) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\f') {
		i++
	}
	if i >= len(line) || line[i] != '#' {
		return ""
	}
	s := string(line[i:])
	for {
		k := strings.Index(s, "coding")
		if k < 0 {
			return ""
		}
		s = s[k+6:]
		if s == "" || s[0] != ':' && s[0] != '=' {
			continue
		}
		t := strings.TrimLeft(s[1:], " \t")
		j := 0
		for j < len(t) && (isASCIIAlnum(t[j]) || t[j] == '-' || t[j] == '_' || t[j] == '.') {
			j++
		}
		if j > 0 {
			return t[:j]
		}
	}
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// pyCodec is the codec a declared name selects, as CPython finds it: the
// tokenizer's own spellings of UTF-8 and Latin-1 (get_normal_name), else
// the codec registry's normalisation (lower case, each run of characters
// other than letters, digits and '.' made one '_') and its aliases. A
// name vouch does not know is returned normalised, never a known codec.
func pyCodec(name string) string {
	if name == "" {
		return ""
	}
	low := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	if len(low) > 12 {
		// get_normal_name compares the first 12 characters only.
		low = low[:12]
	}
	switch {
	case low == "utf-8" || strings.HasPrefix(low, "utf-8-"):
		return "utf_8"
	case low == "latin-1" || low == "iso-8859-1" || low == "iso-latin-1" ||
		strings.HasPrefix(low, "latin-1-") || strings.HasPrefix(low, "iso-8859-1-") || strings.HasPrefix(low, "iso-latin-1-"):
		return "latin_1"
	}
	var b strings.Builder
	punct := false
	for _, c := range []byte(strings.ToLower(name)) {
		if isASCIIAlnum(c) || c == '.' {
			if punct && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteByte(c)
			punct = false
		} else {
			punct = true
		}
	}
	norm := b.String()
	if a, ok := pyCodecAliases[norm]; ok {
		return a
	}
	if a, ok := pyCodecAliases[strings.ReplaceAll(norm, ".", "_")]; ok {
		return a
	}
	return norm
}

// pySingleByte are the codecs (Python's module names) whose bytes 0x00 to
// 0x7F decode to ASCII, one byte per character: the tokenizer reads
// such a file's bytes as they are. EBCDIC code pages and multi-byte
// encodings (Shift_JIS, whose second bytes include '\\', GBK, Big5, ...)
// are not among them.
var pySingleByte = map[string]bool{
	"ascii": true, "latin_1": true,
	"iso8859_2": true, "iso8859_3": true, "iso8859_4": true, "iso8859_5": true, "iso8859_6": true,
	"iso8859_7": true, "iso8859_8": true, "iso8859_9": true, "iso8859_10": true, "iso8859_11": true,
	"iso8859_13": true, "iso8859_14": true, "iso8859_15": true, "iso8859_16": true,
	"cp1250": true, "cp1251": true, "cp1252": true, "cp1253": true, "cp1254": true,
	"cp1255": true, "cp1256": true, "cp1257": true, "cp1258": true,
	"cp437": true, "cp850": true, "cp852": true, "cp855": true, "cp857": true, "cp858": true,
	"cp860": true, "cp861": true, "cp862": true, "cp863": true, "cp865": true, "cp866": true,
	"cp869": true, "cp874": true,
	"koi8_r": true, "koi8_u": true, "koi8_t": true, "kz1048": true, "ptcp154": true, "tis_620": true,
	"mac_roman": true, "mac_cyrillic": true, "mac_greek": true, "mac_iceland": true,
	"mac_latin2": true, "mac_turkish": true,
}

// pyCodecAliases maps CPython's aliases (encodings/aliases.py) of the
// codecs vouch reads to their module names; names it does not list are
// not read.
var pyCodecAliases = func() map[string]string {
	m := map[string]string{
		// UTF-8, and UTF-8 with a signature.
		"utf8": "utf_8", "utf_8": "utf_8", "u8": "utf_8", "utf": "utf_8", "utf8_ucs2": "utf_8",
		"utf8_ucs4": "utf_8", "cp65001": "utf_8", "utf_8_sig": "utf_8", "utf8_sig": "utf_8",
		"ascii": "ascii", "646": "ascii", "ansi_x3.4_1968": "ascii", "ansi_x3_4_1968": "ascii",
		"ansi_x3.4_1986": "ascii", "cp367": "ascii", "csascii": "ascii", "ibm367": "ascii",
		"iso646_us": "ascii", "iso_646.irv_1991": "ascii", "iso_ir_6": "ascii", "us": "ascii", "us_ascii": "ascii",
		"latin_1": "latin_1", "8859": "latin_1", "cp819": "latin_1", "csisolatin1": "latin_1",
		"ibm819": "latin_1", "iso8859": "latin_1", "iso8859_1": "latin_1", "iso_8859_1": "latin_1",
		"iso_8859_1_1987": "latin_1", "iso_ir_100": "latin_1", "l1": "latin_1", "latin": "latin_1", "latin1": "latin_1",
		"latin2": "iso8859_2", "l2": "iso8859_2", "latin3": "iso8859_3", "l3": "iso8859_3",
		"latin4": "iso8859_4", "l4": "iso8859_4", "cyrillic": "iso8859_5", "arabic": "iso8859_6",
		"greek": "iso8859_7", "greek8": "iso8859_7", "hebrew": "iso8859_8", "latin5": "iso8859_9", "l5": "iso8859_9",
		"latin6": "iso8859_10", "l6": "iso8859_10", "thai": "iso8859_11", "latin7": "iso8859_13", "l7": "iso8859_13",
		"latin8": "iso8859_14", "l8": "iso8859_14", "latin9": "iso8859_15", "l9": "iso8859_15",
		"latin10": "iso8859_16", "l10": "iso8859_16",
		"koi8_r": "koi8_r", "cskoi8r": "koi8_r", "koi8_u": "koi8_u", "koi8_t": "koi8_t",
		"kz1048": "kz1048", "kz_1048": "kz1048", "rk1048": "kz1048", "strk1048_2002": "kz1048",
		"ptcp154": "ptcp154", "csptcp154": "ptcp154", "pt154": "ptcp154", "cp154": "ptcp154", "cyrillic_asian": "ptcp154",
		"tis_620": "tis_620", "tis620": "tis_620", "tis_620_0": "tis_620", "tis_620_2529_0": "tis_620",
		"tis_620_2529_1": "tis_620", "iso_ir_166": "tis_620",
		"mac_roman": "mac_roman", "macroman": "mac_roman", "macintosh": "mac_roman",
		"mac_cyrillic": "mac_cyrillic", "maccyrillic": "mac_cyrillic", "mac_greek": "mac_greek", "macgreek": "mac_greek",
		"mac_iceland": "mac_iceland", "maciceland": "mac_iceland", "mac_latin2": "mac_latin2", "maclatin2": "mac_latin2",
		"maccentraleurope": "mac_latin2", "mac_centeuro": "mac_latin2", "mac_turkish": "mac_turkish", "macturkish": "mac_turkish",
	}
	for _, n := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "13", "14", "15", "16"} {
		m["iso8859_"+n] = "iso8859_" + n
		m["iso_8859_"+n] = "iso8859_" + n
	}
	for _, n := range []string{"1250", "1251", "1252", "1253", "1254", "1255", "1256", "1257", "1258"} {
		m["cp"+n] = "cp" + n
		m["windows_"+n] = "cp" + n
		m[n] = "cp" + n
	}
	for _, n := range []string{"437", "850", "852", "855", "857", "858", "860", "861", "862", "863", "865", "866", "869", "874"} {
		m["cp"+n] = "cp" + n
		m["ibm"+n] = "cp" + n
		m[n] = "cp" + n
		m["cs"+"ibm"+n] = "cp" + n
	}
	return m
}()

// pyBytesEncoded reports whether src declares a single-byte encoding,
// so the tokenizer read its bytes and names above 0x7F are not UTF-8.
func pyBytesEncoded(src []byte) bool {
	name, _ := pyCodingSpec(src)
	return name != "" && pySingleByte[pyCodec(name)]
}

// latin1String is s with each byte above 0x7F read as the Latin-1
// character of that value: how a name written in a single-byte encoding
// is named in records (exact for Latin-1; other single-byte encodings'
// letters above 0x7F come out as their Latin-1 reading).
func latin1String(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}
