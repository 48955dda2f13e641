"""Fuzzing the audit engine: bash generators, properties, parsers, the bash oracle.

    bash_grammar   hypothesis strategies for realistic bash
    embeddings     the places bash runs a command (for the metamorphic properties)
    parsers        executed-command sets from tree-sitter, mvdan/sh and bashlex
    properties     the checks, shared by the test files and the campaign
    oracle         real bash in a bubblewrap sandbox with logging stub programs
    campaign       `python -m fuzz.campaign --minutes N --out corpus/candidates/`

Tests live in `fuzz_*.py`; the `ci` hypothesis profile is the default.
"""
