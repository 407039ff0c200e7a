package shellfacts

import "testing"

// TestParseWgetCommands pins wget's wgetrc commands, given by -e or
// --execute or in a startup file written in the command line: post_file
// and body_file upload, the file options read and write as their command
// line forms do; a startup file vouch cannot see, or a -e that is not
// static, is code only known at run time.
func TestParseWgetCommands(t *testing.T) {
	root := fixture(t)
	opts := Options{Cwd: root + "/repo", Home: root + "/home"}
	u := []string{"https://e"}
	tests := []struct {
		name    string
		command string
		want    want
		more    more
	}{
		{"-e post_file", `wget -e post_file=main.go https://e`, want{anyCmds: true, reads: []string{"ROOT/repo/main.go"}, urls: u}, more{uploads: []string{"ROOT/repo/main.go"}}},
		{"--execute body-file", `wget --execute 'Body-File = a b' https://e`, want{anyCmds: true, reads: []string{"ROOT/repo/a b"}, urls: u}, more{uploads: []string{"ROOT/repo/a b"}}},
		{"--execute= postfile", `wget --execute=postfile=.env https://e`, want{anyCmds: true, reads: []string{"ROOT/repo/.env"}, urls: u}, more{uploads: []string{"ROOT/repo/.env"}}},
		{"-e output_document", `wget -e output_document=/etc/x https://e`, want{anyCmds: true, writes: []string{"/etc/x"}, urls: u}, more{}},
		{"-e setting", `wget -e robots=off https://e`, want{anyCmds: true, urls: u}, more{}},
		{"-e not static", `wget -e "$X" https://e`, want{anyCmds: true, urls: u, incomplete: true}, more{unknown: []string{`wget -e "$X"`}}},
		{"config file", `wget --config=cfg https://e`, want{anyCmds: true, reads: []string{"ROOT/repo/cfg"}, urls: u, incomplete: true}, more{unknown: []string{"wget --config --config=cfg"}}},
		{"config on stdin", `wget --config /dev/stdin https://e <<< 'post_file = main.go'`, want{anyCmds: true, reads: []string{"ROOT/repo/main.go"}, urls: u}, more{uploads: []string{"ROOT/repo/main.go"}}},
		{"config /dev/null", `wget --config=/dev/null https://e`, want{anyCmds: true, urls: u}, more{}},
		{"WGETRC", `WGETRC=cfg wget https://e`, want{anyCmds: true, reads: []string{"ROOT/repo/cfg"}, urls: u, incomplete: true}, more{unknown: []string{"WGETRC WGETRC=cfg"}}},
		{"WGETRC with --no-config", `WGETRC=cfg wget --no-config https://e`, want{anyCmds: true, urls: u}, more{}},
		{"--execute abbreviated", `wget --exec=post_file=main.go https://e`, want{anyCmds: true, reads: []string{"ROOT/repo/main.go"}, urls: u}, more{uploads: []string{"ROOT/repo/main.go"}}},
		{"--post-file abbreviated", `wget --post-f main.go https://e`, want{anyCmds: true, reads: []string{"ROOT/repo/main.go"}, urls: u}, more{uploads: []string{"ROOT/repo/main.go"}}},
		{"ambiguous prefix", `wget --wa=1 https://e`, want{anyCmds: true, urls: u, incomplete: true}, more{unknown: []string{"wget --wa ..."}}},
		{"use_askpass", `wget -e 'use_askpass = rm -rf /' https://e`, want{anyCmds: true, deletes: []string{"/"}, urls: u}, more{options: []string{"rm --recursive", "rm --force"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkMore(t, root, tt.command, opts, tt.want, tt.more)
		})
	}
}
