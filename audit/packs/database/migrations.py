"""database.migrations: the application frameworks' commands that drop, wipe or reset a
database, or roll its schema back (Rails, Django, Laravel, Phoenix, Prisma,
Sequelize, TypeORM, Knex, Alembic, Entity Framework, Supabase, Flyway,
Liquibase), and dbt rebuilding a production warehouse's tables."""

from __future__ import annotations

from ..._analysis import StdinKind
from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from ...rules._paths import names_production
from .._invocation import Found, Predicate, any_operand, command, pack_rule
from .._listings import literal_commands

_DJANGO = ("manage.py",)
_LARAVEL = ("artisan",)
_PYTHON = ("python", "python3")


def _script_task(scripts: tuple[str, ...], *tasks: str) -> Predicate:
    """`python manage.py flush`, `php artisan db:wipe`: the script, then one of the tasks."""

    def runs(found: Found) -> Arg | None:
        operands = found.reading.operands
        if len(operands) < 2 or not _is_script(operands[0], scripts):
            return None
        return operands[1] if operands[1].value in tasks else None

    return runs


def _migrates_to_zero(found: Found) -> Arg | None:
    """`python manage.py migrate APP zero`: every migration of the app unapplied, its tables dropped."""
    operands = found.reading.operands
    if len(operands) < 4 or not _is_script(operands[0], _DJANGO) or operands[1].value != "migrate":
        return None
    return operands[3] if operands[3].value == "zero" else None


def _runs_flush_statements(found: Found) -> Arg | None:
    """`python manage.py sqlflush | python manage.py dbshell`: the statements `sqlflush` prints (a
    TRUNCATE or DELETE of every table) run in the database shell, as `manage.py flush` would; through
    the filters of the stages between too (`| grep -v auth |`)."""
    shell = _script_task(_DJANGO, "dbshell")(found)
    stdin = found.subject.stdin if shell is not None else None
    while stdin is not None and stdin.kind is StdinKind.PIPE and stdin.writer is not None:
        for words in literal_commands((stdin.writer,)):
            script = next((index for index, word in enumerate(words) if word.rsplit("/", 1)[-1] in _DJANGO), None)
            if script is not None and words[script + 1 : script + 2] == ["sqlflush"]:
                return shell
        stdin = stdin.upstream
    return None


def _unless_testing(predicate: Predicate, variables: tuple[str, ...], testing: str) -> Predicate:
    """`RAILS_ENV=test rails db:reset`: the framework's test database, which the test suite rebuilds
    anyway, so the command passes (as the rule's safer alternative advises). The environment is named
    by a variable the command sets, or by a `NAME=VALUE` operand (rake reads those as variables);
    not when the command also points `DATABASE_URL` somewhere, which wins over the named environment."""

    def outside_tests(found: Found) -> Arg | None:
        if _named_environment(found, variables) == testing and found.subject.setting("DATABASE_URL") is None:
            return None
        return predicate(found)

    return outside_tests


def _named_environment(found: Found, variables: tuple[str, ...]) -> str | None:
    """The environment the command names: by a variable it sets, or a `NAME=VALUE` operand (rake's)."""
    named = found.subject.setting(*variables)
    if named is None:
        operands = (value.partition("=") for word in found.reading.operands for value in word.values)
        named = next((value for name, equals, value in operands if equals and name in variables), None)
    return named


def _in_production(predicate: Predicate, variables: tuple[str, ...]) -> Predicate:
    """`RAILS_ENV=production rails db:migrate`, `DJANGO_SETTINGS_MODULE=app.settings.prod`: the command
    names a production environment."""

    def named_production(found: Found) -> Arg | None:
        named = _named_environment(found, variables)
        return predicate(found) if named is not None and names_production(named) else None

    return named_production


def _production_settings(found: Found) -> Arg | None:
    """Django's `--settings=app.settings.production` (or `--settings MODULE`): settings named for production."""
    given = _settings_option(found)
    return given[0] if given is not None and names_production(given[1]) else None


def _settings_option(found: Found) -> tuple[Arg, str] | None:
    """Django's `--settings=MODULE` (or `--settings MODULE`): the option's word and the module."""
    args = found.reading.args
    for index, word in enumerate(args):
        name, equals, given = (word.value or "").partition("=")
        if name == "--settings":
            return word, given if equals else (args[index + 1].value or "" if index + 1 < len(args) else "")
    return None


def _django_settings(found: Found) -> str | None:
    """The settings module a Django command names: its `--settings`, else `DJANGO_SETTINGS_MODULE` set by
    the command."""
    given = _settings_option(found)
    return given[1] if given is not None else found.subject.setting("DJANGO_SETTINGS_MODULE")


def _unless_django_testing(predicate: Predicate) -> Predicate:
    """`manage.py flush --settings=app.settings.test`: a settings module named for tests configures the
    test database, which the test suite rebuilds anyway (as `RAILS_ENV=test` does for Rails)."""

    def outside_tests(found: Found) -> Arg | None:
        module = _django_settings(found) or ""
        last = module.rpartition(".")[2]
        if last in ("test", "tests", "testing") or last.endswith(("_test", "_tests", "_testing")):
            return None
        return predicate(found)

    return outside_tests


_RAILS_ENVIRONMENT = ("RAILS_ENV", "RACK_ENV")


def _is_script(word: Arg, scripts: tuple[str, ...]) -> bool:
    return any(value.rsplit("/", 1)[-1] in scripts for value in word.values)


def _downgrade_to(*, base: bool) -> Predicate:
    """`alembic downgrade base` (everything) or to a revision (`-1`, `ae10`): the revision is the
    word after `downgrade` that is no option (`-1` is a relative revision, not an option)."""

    def target(found: Found) -> Arg | None:
        args = found.reading.args
        after = next((index for index, word in enumerate(args) if word.value == "downgrade"), len(args))
        for word in args[after + 1 :]:
            value = word.value or ""
            if value.startswith("-") and not value[1:].isdigit():
                continue
            return word if (value == "base") is base else None
        return None

    return target


DROP_DATABASE = pack_rule(
    id="DB001",
    name="framework-drops-database",
    severity=Severity.HIGH,
    summary="A framework command that drops, wipes or resets the database (`rails db:drop`, `manage.py flush` or its statements piped into `manage.py dbshell`, `artisan migrate:fresh`, `prisma migrate reset`...); not of the test environment the command names (`RAILS_ENV=test`, `MIX_ENV=test`, `APP_ENV=testing`, Django settings named for tests).",
    rationale="These delete every table or row of the configured database, which is whatever the environment points at, production included.",
    safer_alternative="Check which database the environment configures; reset only a disposable test database (`RAILS_ENV=test`).",
    matches=(
        command(
            ("rails", "rake"),
            where=_unless_testing(
                any_operand(
                    "db:drop", "db:drop:*", "db:reset", "db:purge", "db:purge:*", "db:schema:load", "db:structure:load",
                    "db:migrate:reset", "db:seed:replant", "db:truncate_all",
                ),
                _RAILS_ENVIRONMENT, "test",
            ),
        ),
        command(_PYTHON, where=_unless_django_testing(_script_task(_DJANGO, "flush", "reset_db"))),
        command(_PYTHON, where=_runs_flush_statements),
        command(_PYTHON, where=_migrates_to_zero),
        command(
            "php",
            where=_unless_testing(
                _script_task(_LARAVEL, "migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe"),
                ("APP_ENV",), "testing",
            ),
        ),
        command("mix", where=_unless_testing(any_operand("ecto.drop", "ecto.reset"), ("MIX_ENV",), "test")),
        command("prisma", "migrate reset"),
        command("prisma", "db push", requires=("--force-reset",)),
        command(("sequelize", "sequelize-cli"), "db:drop"),
        command(("sequelize", "sequelize-cli"), "db:migrate:undo:all"),
        command(("typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm"), "schema:drop"),
        command("knex", "migrate:rollback", requires=("--all",)),
        command("alembic", "downgrade", unless=("--sql",), where=_downgrade_to(base=True)),
        command("dotnet", "ef database drop", unless=("--dry-run",)),
        command("supabase", "db reset"),
        command("flyway", "clean"),
        command("liquibase", "dropAll"),
    ),
    message="drops or wipes the application's database",
    must_match=("rails db:drop", "python manage.py flush --noinput", "php artisan migrate:fresh --seed", "npx prisma migrate reset --force", "alembic downgrade base"),
    must_not_match=("rails db:migrate", "python manage.py migrate", "php artisan migrate", "npx prisma migrate dev --name init", "alembic upgrade head", "RAILS_ENV=test bin/rails db:reset", "MIX_ENV=test mix ecto.reset", "python manage.py flush --noinput --settings=app.settings.test"),
)  # fmt: skip

ROLLBACK = pack_rule(
    id="DB002",
    name="framework-rolls-back-schema",
    severity=Severity.MEDIUM,
    summary="A framework command that rolls the schema back or applies changes that lose data (`prisma db push --accept-data-loss`, `knex migrate:rollback`, `alembic downgrade -1`, `rails db:rollback`).",
    rationale="A rollback runs the migrations' down steps, which drop the tables and columns they added with their data; the scope is the migrations rolled back.",
    safer_alternative="Check what the down migration drops; back the data up first, or write a new forward migration instead.",
    matches=(
        command(("rails", "rake"), where=any_operand("db:rollback", "db:migrate:down")),
        command("prisma", "db push", requires=("--accept-data-loss",), unless=("--force-reset",)),
        command("knex", "migrate:rollback", unless=("--all",)),
        command(("typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm"), "migration:revert"),
        command(("sequelize", "sequelize-cli"), "db:seed:undo:all"),
        command("alembic", "downgrade", unless=("--sql",), where=_downgrade_to(base=False)),
    ),
    message="rolls the schema back (dropping what the rolled-back migrations added)",
    must_match=("rails db:rollback STEP=3", "npx prisma db push --accept-data-loss", "alembic downgrade -1"),
    must_not_match=("rails db:migrate:status", "npx prisma db push", "alembic downgrade base --sql"),
)

_RAILS_SCHEMA_CHANGES = ("db:migrate", "db:migrate:up", "db:migrate:redo", "db:seed", "db:setup", "db:prepare")
_DJANGO_SCHEMA_CHANGES = _script_task(_DJANGO, "migrate", "loaddata")

PRODUCTION_SCHEMA = pack_rule(
    id="DB903",
    name="framework-changes-production-schema",
    severity=Severity.MEDIUM,
    summary=(
        "A framework command that migrates or seeds the database of the production environment it names "
        "(`RAILS_ENV=production rails db:migrate`, `MIX_ENV=prod mix ecto.migrate`, `APP_ENV=production php "
        "artisan migrate`, `manage.py migrate --settings=app.settings.production`)."
    ),
    rationale=(
        "A migration run from an agent's shell against production alters live tables, may lock them while it "
        "runs, and is not what the release process ran and reviewed; a failed one leaves the schema half changed."
    ),
    safer_alternative="Migrate production through the deployment pipeline; run migrations locally against the development database.",
    matches=(
        command(("rails", "rake"), where=_in_production(any_operand(*_RAILS_SCHEMA_CHANGES), _RAILS_ENVIRONMENT)),
        command("mix", where=_in_production(any_operand("ecto.migrate", "ecto.rollback"), ("MIX_ENV",))),
        command(
            "php", where=_in_production(_script_task(_LARAVEL, "migrate", "db:seed", "migrate:rollback"), ("APP_ENV",))
        ),
        command(_PYTHON, where=_in_production(_DJANGO_SCHEMA_CHANGES, ("DJANGO_SETTINGS_MODULE",))),
        command(_PYTHON, where=(_DJANGO_SCHEMA_CHANGES, _production_settings)),
    ),
    message="migrates or seeds the production database",
    must_match=(
        "RAILS_ENV=production bin/rails db:migrate",
        "bundle exec rake db:migrate RAILS_ENV=production",
        "MIX_ENV=prod mix ecto.migrate",
        "python manage.py migrate --settings=config.settings.production",
    ),
    must_not_match=(
        "bin/rails db:migrate",
        "RAILS_ENV=production bin/rails db:migrate:status",
        "RAILS_ENV=test bin/rails db:migrate",
        "python manage.py migrate --settings=config.settings.dev",
    ),
)


def _production_target(found: Found) -> Arg | None:
    """The `--target` word when it names a production warehouse (`prod`, `production`, `prd`, `live`,
    `analytics_prod`); without one dbt uses the profile's default, which a command does not show."""
    targets = found.reading.values("--target")
    if not targets:
        return None
    name = targets[-1].value or ""
    return targets[-1] if names_production(name) or name.lower() == "live" else None


FULL_REFRESH = pack_rule(
    id="DB907",
    name="dbt-full-refresh-production",
    severity=Severity.MEDIUM,
    summary="Rebuilds a production warehouse's tables from scratch (`dbt run --full-refresh --target prod`, also `build`, `seed` and `snapshot`).",
    rationale="Every incremental model selected is dropped and rebuilt from its sources: what the sources no longer hold (expired events, rotated logs) is gone from the table, and readers see missing or partial data while it runs. Full refreshes are also routine after a schema change, so the command runs and the warning says what it rebuilt.",
    safer_alternative="Select the one model that needs it (`--select model_name`), run the refresh against a development target first, and check the sources still hold the full history.",
    matches=tuple(
        command("dbt", action, requires=("--full-refresh",), where=_production_target)
        for action in ("run", "build", "seed", "snapshot")
    ),
    message="rebuilds production tables from scratch",
    must_match=("dbt run --full-refresh --target prod", "dbt build -t production --full-refresh -s orders"),
    must_not_match=("dbt run --target prod", "dbt run --full-refresh --target dev", "dbt run --full-refresh"),
)

PACK = Pack(
    name="database.migrations",
    summary="Application frameworks' database commands: drops, wipes and resets; schema rollbacks; migrations of production; dbt's full refreshes of production.",
    default=True,
    reason="A framework reset deletes the configured database, which the agent cannot restore and may be production.",
    rules=(DROP_DATABASE, ROLLBACK, PRODUCTION_SCHEMA, FULL_REFRESH),
)
