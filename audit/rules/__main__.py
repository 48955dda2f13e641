"""`python -m audit.rules`: print the catalogue as the README's Markdown table."""

from . import markdown_table

print(markdown_table(), end="")
