"""Packs for code hosting and application platforms: deleted repositories, releases, apps and secrets."""
