"""How a command line is read before a pack judges it: a help request, a flag given a value
that turns it off, an alias git is given on the command line, and the package a runner names."""

from __future__ import annotations

import pytest

from audit import audit_command, policy_from_mapping
from audit._analysis._wrappers import unwrap
from audit._model import Span
from audit._policy import default_policy
from audit.programs import Arg, asks_for_help, package_binary, read_command


def args(*values: str) -> tuple[Arg, ...]:
    return tuple(Arg((value,), value, Span(0, 0)) for value in values)


def asks(command_line: str) -> bool:
    name, *words = command_line.split()
    return asks_for_help(read_command(name, args(*words)))


# -- help requests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command_line",
    [
        "kubectl delete namespace prod --help",
        "kubectl --context prod delete ns prod -h",
        "terraform destroy -help",
        "tofu destroy -h",
        "git push --force --help",
        "git --help push --force",
        "docker system prune --help",
        "aws s3 rm help",
        "aws --profile prod ec2 terminate-instances help",
        "aws s3 rm help --region us-east-1",
        "gcloud compute instances delete --help",
        "az group delete -n rg -h",
    ],
)
def test_a_help_option_in_option_position_is_a_help_request(command_line: str) -> None:
    assert asks(command_line)


@pytest.mark.parametrize(
    ("command_line", "why"),
    [
        ("kubectl delete namespace prod -- --help", "after --"),
        ("kubectl delete namespace prod --help=false", "turned off"),
        ("kubectl delete namespace prod -n --help", "the value of -n"),
        ("git commit -m --help", "the value of -m"),
        ("git push --force --no-such-option --help", "an unknown option may take it as its value"),
        ("git push -f -h origin main", "git's -h is help only where a command does not define one: not declared"),
        ("docker run -h --help alpine", "the value of --hostname"),
        ("docker system prune -a -f -h", "docker's -h is --hostname for run: not declared"),
        ("aws s3 rm s3://bucket --recursive help", "not alone after the operation"),
        ("aws ec2 terminate-instances --instance-ids i-1 help", "an operation's option"),
        ("aws s3 rm -- help", "after --"),
        ("rm -rf /tmp/x --help", "rm declares no help forms"),
    ],
)
def test_a_help_spelling_elsewhere_is_no_help_request(command_line: str, why: str) -> None:
    assert not asks(command_line), why


def test_a_help_request_passes_the_pack_rules_and_not_the_core_ones() -> None:
    assert audit_command("kubectl delete namespace prod --help").rule_ids == ()
    assert "KU001" in audit_command("kubectl delete namespace prod").rule_ids
    assert "FS001" in audit_command("rm -rf / --help").rule_ids


# -- flags given a value ---------------------------------------------------------------------


def test_a_flag_given_a_value_keeps_it() -> None:
    reading = read_command("docker", args("system", "prune", "--volumes=false", "-f"))
    volumes = reading.uses("--volumes")
    assert [use.value.value if use.value else None for use in volumes] == ["false"]
    assert read_command("terraform", args("apply", "-destroy")).uses("-destroy")[0].value is None


@pytest.mark.parametrize(
    ("command_line", "rule_id", "fires"),
    [
        ("terraform apply -destroy=false", "IC001", False),
        ("terraform apply -destroy=f", "IC001", False),
        ("terraform apply -destroy=true", "IC001", True),
        ("terraform apply -auto-approve=0", "IC002", False),
        ("terraform apply -auto-approve", "IC002", True),
        ("docker system prune --volumes=false -f", "CT101", False),
        ("docker system prune --volumes -f", "CT101", True),
    ],
)
def test_a_triggering_flag_turned_off_by_its_value_does_not_trigger(
    command_line: str, rule_id: str, fires: bool
) -> None:
    assert (rule_id in audit_command(command_line).rule_ids) is fires


# -- git aliases on the command line ---------------------------------------------------------


def git_path(*words: str) -> tuple[str, ...]:
    reading = read_command("git", args(*words))
    return (*reading.path, *[use.spelling for use in reading.options if use.spelling != "-c"])


@pytest.mark.parametrize(
    ("words", "read_as"),
    [
        (("-c", "alias.nuke=reset --hard", "nuke"), ("reset", "--hard")),
        (("-c", "Alias.Nuke=reset --hard", "nuke"), ("reset", "--hard")),
        (("-c", "alias.a=reset --hard", "-c", "alias.b=a", "b"), ("reset", "--hard")),
        (("-c", "alias.push=reset --hard", "push"), ("push",)),
        (("-c", "alias.x=!git reset --hard", "x"), ()),
        (("-c", "alias.a=b", "-c", "alias.b=a", "a"), ()),
        (("-c", "alias.nuke=reset --hard", "status"), ()),
    ],
)
def test_an_alias_given_on_the_command_line_is_read_as_its_definition(
    words: tuple[str, ...], read_as: tuple[str, ...]
) -> None:
    assert git_path(*words) == read_as


# -- package runners -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "binary"),
    [
        ("aws-cdk", "cdk"),
        ("aws-cdk@2", "cdk"),
        ("aws-cdk@latest", "cdk"),
        ("cdktf-cli@0.20", "cdktf"),
        ("@sentry/cli@2", "sentry-cli"),
        ("@scope/tool@1.2", "@scope/tool"),
        ("serverless", "serverless"),
    ],
)
def test_a_package_spec_names_the_binary_it_installs(spec: str, binary: str) -> None:
    assert package_binary(spec) == binary


TABLES = default_policy().tables


@pytest.mark.parametrize(
    ("command_line", "runs"),
    [
        ("npx aws-cdk@2 destroy", "cdk"),
        ("npm exec -- cdk destroy", "cdk"),
        ("npm x aws-cdk destroy", "cdk"),
        ("pnpm dlx aws-cdk destroy", "cdk"),
        ("pnpm --filter infra exec cdk destroy", "cdk"),
        ("yarn dlx aws-cdk destroy", "cdk"),
        ("yarn cdk destroy", "cdk"),
        ("yarn --cwd infra run cdk destroy", "cdk"),
    ],
)
def test_a_package_runner_runs_the_binary_of_the_package_it_names(command_line: str, runs: str) -> None:
    unwrapped = unwrap(args(*command_line.split()), TABLES)
    assert unwrapped is not None
    assert unwrapped.argv[unwrapped.command_index].value == runs


@pytest.mark.parametrize("command_line", ["npm install left-pad", "npm ci", "yarn install", "yarn", "pnpm install"])
def test_a_package_managers_own_command_runs_no_other(command_line: str) -> None:
    assert unwrap(args(*command_line.split()), TABLES) is None


def test_a_policy_declares_a_package_runner_with_its_subcommands() -> None:
    runner = {"wrappers": {"pkgrun": {"subcommands": ["exec"], "runs_packages": True}}}
    policy = policy_from_mapping(runner)
    assert "IC101" in audit_command("pkgrun exec aws-cdk@2 destroy --force", policy=policy).rule_ids
    assert audit_command("pkgrun install aws-cdk", policy=policy).rule_ids == ()
    assert audit_command("pkgrun exec aws-cdk@2 destroy --force").rule_ids == ()
