"""Packs for the cloud CLIs: deleting data stores, infrastructure and audit trails."""
