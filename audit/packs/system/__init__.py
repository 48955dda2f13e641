"""Packs for the host itself: the security controls that watch and protect it."""
