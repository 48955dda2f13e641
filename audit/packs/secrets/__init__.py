"""Packs for secrets managers: destroyed secrets and keys."""
