"""Packs for the file system beyond the core FS rules."""
