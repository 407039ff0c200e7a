from pytest import mark

from testpackage.high import green
