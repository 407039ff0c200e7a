import testpackage.high.green
