import sys  # Standard library import.
import pytest  # Third party library import.

BAR = "bar"
