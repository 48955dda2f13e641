"""MkDocs hooks: the pages and tables the code writes are generated on every build.

`reference` (next to this file) writes them; this module only hands them to
MkDocs. The build fails, with the reason, when the `audit` package it would
document is not this checkout's: a site built from another copy would
describe other rules.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

import reference  # MkDocs puts this folder on sys.path while it loads hooks
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

import audit


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    documented = Path(audit.__file__).resolve().parent
    if not documented.is_relative_to(reference.REPOSITORY):
        raise PluginError(
            f"the docs would describe the audit package at {documented}, not this checkout's "
            f"({reference.REPOSITORY}): install this checkout or run with PYTHONPATH={reference.REPOSITORY}"
        )
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for page in reference.generated_pages():
        inclusion = InclusionLevel.UNDEFINED if page.in_nav else InclusionLevel.NOT_IN_NAV
        files.append(File.generated(config, page.path.as_posix(), content=page.markdown, inclusion=inclusion))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    try:
        return reference.expand_markers(markdown, PurePosixPath(page.file.src_uri))
    except reference.GenerationError as error:
        raise PluginError(str(error)) from error


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    """`mkdocs serve` rebuilds when a file read at build time changes.

    A changed rule needs a restart: the registry is imported once.
    """
    for source in (reference.DEFAULT_POLICY, *reference.REPOSITORY_DOCUMENTS):
        server.watch(str(source))
    return server
