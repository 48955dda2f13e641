"""Packs for databases: the statements database clients run (read by
`audit.databases`), the databases' own tools, and the frameworks' migration
commands that drop or reset a database.

One module per database (`postgresql.py`, `mysql.py`...) declares its pack
with `statement_rules` (`_statements.py`): where each client takes its
statements is data in `audit.databases.CLIENTS`.
"""
