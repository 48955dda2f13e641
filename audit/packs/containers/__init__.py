"""Packs for container engines: destructive cleanup, and containers that reach the host."""
