"""Packs for object storage: mass deletion, object deletion, deleting syncs."""
