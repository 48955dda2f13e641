"""Releases of real packages that were published with malicious code (PK005): a maintainer's
account taken over, or a maintainer sabotaging their own package. Each was withdrawn from its
registry, but mirrors, caches and lock files keep them, and an exact pin installs one again.

Program knowledge, as the popular names of `_imitations` are: the incidents publicly reported and
named below, by the exact versions the registries' advisories list.
"""

from __future__ import annotations

# npm, by package: the versions with the malicious code.
NPM_COMPROMISED: dict[str, frozenset[str]] = {
    # Sabotaged by their maintainer (January 2022, March 2022).
    "colors": frozenset({"1.4.1", "1.4.2", "1.4.44-liberty-2"}),
    "faker": frozenset({"6.6.6"}),
    "node-ipc": frozenset({"10.1.1", "10.1.2", "10.1.3"}),
    # Hijacked accounts: event-stream (2018), eslint-scope (2018), ua-parser-js, coa and rc (2021).
    "event-stream": frozenset({"3.3.6"}),
    "flatmap-stream": frozenset({"0.1.1"}),
    "eslint-scope": frozenset({"3.7.2"}),
    "ua-parser-js": frozenset({"0.7.29", "0.8.0", "1.0.0"}),
    "coa": frozenset({"2.0.3", "2.0.4", "2.1.1", "2.1.3", "3.0.1", "3.1.3"}),
    "rc": frozenset({"1.2.9", "1.3.9", "2.3.9"}),
    # Stolen publishing tokens (2024): a wallet drainer, a cryptominer.
    "@solana/web3.js": frozenset({"1.95.6", "1.95.7"}),
    "@lottiefiles/lottie-player": frozenset({"2.0.5", "2.0.6", "2.0.7"}),
    "@rspack/core": frozenset({"1.1.7"}),
    "@rspack/cli": frozenset({"1.1.7"}),
    # 2025: eslint-config-prettier's phished token, nx's "s1ngularity", the chalk/debug takeover,
    # and the first "Shai-Hulud" worm releases.
    "eslint-config-prettier": frozenset({"8.10.1", "9.1.1", "10.1.6", "10.1.7"}),
    "nx": frozenset({"20.9.0", "20.10.0", "20.11.0", "20.12.0", "21.5.0", "21.6.0", "21.7.0", "21.8.0"}),
    "chalk": frozenset({"5.6.1"}),
    "debug": frozenset({"4.4.2"}),
    "ansi-styles": frozenset({"6.2.2"}),
    "ansi-regex": frozenset({"6.2.1"}),
    "strip-ansi": frozenset({"7.1.1"}),
    "supports-color": frozenset({"10.2.1"}),
    "wrap-ansi": frozenset({"9.0.1"}),
    "color-convert": frozenset({"3.1.1"}),
    "color-name": frozenset({"2.0.1"}),
    "slice-ansi": frozenset({"7.1.1"}),
    "error-ex": frozenset({"1.3.3"}),
    "is-arrayish": frozenset({"0.3.3"}),
    "simple-swizzle": frozenset({"0.2.3"}),
    "has-ansi": frozenset({"6.0.1"}),
    "chalk-template": frozenset({"1.1.1"}),
    "backslash": frozenset({"0.2.1"}),
    "supports-hyperlinks": frozenset({"4.1.1"}),
    "@ctrl/tinycolor": frozenset({"4.1.1", "4.1.2"}),
}

# PyPI, by normalised name: ultralytics' poisoned build pipeline (December 2024), num2words'
# phished maintainer (July 2025).
PYPI_COMPROMISED: dict[str, frozenset[str]] = {
    "ultralytics": frozenset({"8.3.41", "8.3.42", "8.3.45", "8.3.46"}),
    "num2words": frozenset({"0.5.15"}),
}
