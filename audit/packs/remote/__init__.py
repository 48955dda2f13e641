"""Packs for copying to other machines: syncs that delete at the destination."""
