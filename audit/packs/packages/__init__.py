"""Packs for package registries: what is published to everyone who installs from them."""
