"""The package version, kept import-free so ``setup.cfg`` can read it."""

VERSION = "0.1.0"
