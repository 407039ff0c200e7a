package shellfacts

// crontabFiles: crontab FILE (or -, stdin) installs a crontab; the file is
// read. Whether it installs, lists (-l) or removes (-r) is in its options,
// which a policy reads from the command line.
func crontabFiles(w *walker, c *call) {
	p := parseOpts(c.args, optSpec{withValue: "unsT"})
	w.pathsTo(p.operands, w.reads, c.name)
	w.pathsTo(p.values("-T"), w.reads, c.name)
}
