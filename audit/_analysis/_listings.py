"""Listings of a directory's entries, read as the globs that match the same names.

What `ls` prints is only known at run time, but not which names: every entry of
the directory, as `*` (and `.[!.]*` with -a or -A) matches them. So `ls | xargs
rm -rf` is `rm -rf *`, and `rm -rf $(ls -A)`, where the unquoted substitution
splits into the names, is `rm -rf * .[!.]*`. `git ls-files` prints every tracked
file below the working directory: what `find . -type f` would, less `.git`.
"""

from __future__ import annotations

# ls options that list every entry of a directory, one name a line; -a and -A add the hidden ones.
_LS_LISTS = frozenset({"-1", "-a", "-A", "--all", "--almost-all"})
# git ls-files options that change only how the tracked files are printed (`-z`: NUL-separated).
_LS_FILES_PRINTS = frozenset({"-z", "--full-name", "--cached", "-c"})


def ls_globs(argv: list[str]) -> tuple[str, ...]:
    """`ls [-A] [DIR]`: the entries ls prints as globs, `DIR/*` (and `DIR/.[!.]*` with -a or -A); ()
    for other options (`ls -l` prints more than names), several directories (ls prints a heading
    for each) or a pattern (`ls *.log` lists files)."""
    listing = _ls_listing(argv)
    return tuple(listing[0] + name for name in listing[1]) if listing is not None else ()


def ls_names(argv: list[str]) -> tuple[str, ...]:
    """The names `ls [-A] [DIR]` prints, without the directory, as the globs matching them: what
    `xargs -I{}` puts in place of `{}` (`ls -A ~ | xargs -I{} rm -rf ~/{}` is `rm -rf ~/* ~/.[!.]*`)."""
    listing = _ls_listing(argv)
    return listing[1] if listing is not None else ()


def _ls_listing(argv: list[str]) -> tuple[str, tuple[str, ...]] | None:
    """The directory `ls` lists (as a prefix, "" for the working directory) and the globs of the
    names it prints; None when it prints anything else."""
    if argv[0].rpartition("/")[2] != "ls":
        return None
    options = [word for word in argv[1:] if word.startswith("-") and word != "-"]
    directories = [word for word in argv[1:] if word not in options]
    if not all(_lists_names(option) for option in options) or len(directories) > 1:
        return None
    if directories and any(character in directories[0] for character in "*?["):
        return None
    prefix = directories[0].rstrip("/") + "/" if directories else ""
    hidden = any(option in ("--all", "--almost-all") or "a" in option.lower() for option in options)
    return prefix, ("*", ".[!.]*") if hidden else ("*",)


def _lists_names(option: str) -> bool:
    """An option, or a cluster of them, among `_LS_LISTS` (`-1A`)."""
    return option in _LS_LISTS or (not option.startswith("--") and all(f"-{flag}" in _LS_LISTS for flag in option[1:]))


def working_directory_listing(argv: list[str]) -> str | None:
    """`ls`, `ls -A`: the working directory's entries as the text of globs an unquoted substitution
    splits into (`* .[!.]*`); None for a listing of another directory, whose names ls prints without
    the directory, or anything else."""
    globs = ls_globs(argv)
    return " ".join(globs) if globs and "/" not in globs[0] else None


def tracked_files(argv: list[str]) -> bool:
    """`git ls-files [-z]`: every file git tracks below the working directory, nothing narrowing them."""
    return argv[:2] == ["git", "ls-files"] and all(word in _LS_FILES_PRINTS for word in argv[2:])
