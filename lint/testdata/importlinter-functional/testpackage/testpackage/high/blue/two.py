from testpackage.indirect import brown
