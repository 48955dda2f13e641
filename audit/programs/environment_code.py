"""Code that prints the whole environment: `python3 -c 'print(dict(os.environ))'`,
`perl -e 'print %ENV'`, `node -p process.env`, `ruby -e 'p ENV.to_h'`, `php -r
'print_r(getenv());'`, awk's `for (k in ENVIRON)`. Read only when the command's
output is followed towards a network sender (the secrets analysis), so a
search over the code text costs nothing on other commands.

A single variable read by name (`os.environ["HOME"]`, `$ENV{PATH}`,
`process.env.PORT`, `ENVIRON["HOME"]`) is not the whole environment."""

from __future__ import annotations

import re

# Compiled on first use (re's own cache): only code piped towards a sender is searched.
_WHOLE_ENVIRONMENT = {
    # `os.environ` not indexed or asked for one name.
    "python": r"\bos\s*\.\s*environ\b(?!\s*\[|\s*\.\s*(?:get|setdefault|pop)\b)",
    # The hash in list context (`print %ENV`, `keys %ENV`), never `$ENV{NAME}`.
    "perl": r"%ENV\b",
    "ruby": r"\bENV\b(?!\s*\[|\s*\.\s*(?:fetch|key\?|has_key\?|include\?)\b)",
    "javascript": r"\bprocess\s*\.\s*env\b(?!\s*[.\[?])|\bDeno\s*\.\s*env\s*\.\s*toObject\b",
    "php": r"\bgetenv\s*\(\s*\)|\$_ENV\b|\$_SERVER\b",
    "awk": r"\bENVIRON\b(?!\s*\[)",
}


def prints_whole_environment(language: str, code: str) -> bool:
    """Whether code in `language` reads the whole environment (and so may print it)."""
    pattern = _WHOLE_ENVIRONMENT.get(language)
    return pattern is not None and re.search(pattern, code) is not None
