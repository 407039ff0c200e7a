"""A standalone module (not a package) used in tests to verify that
import-linter raises a clear error when a single-file module is passed
as a root_package.
"""
