"""Packs for infrastructure as code: destroy runs, unreviewed applies, state surgery."""
